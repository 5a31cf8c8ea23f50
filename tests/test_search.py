"""The search engine against networkx on random weighted graphs."""

from __future__ import annotations

import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.search import ALGORITHMS, Limits, Status, search


class GraphProblem:
    """Shortest path from ``start`` to ``goal`` in a directed weighted graph."""

    def __init__(self, graph: nx.DiGraph, start: int, goal: int):
        self.graph, self.start, self.goal = graph, start, goal

    @property
    def initial_state(self) -> int:
        return self.start

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def successors(self, state: int):
        for child in sorted(self.graph.successors(state)):
            yield (state, child), child, self.graph[state][child]["weight"]


@st.composite
def weighted_graphs(draw):
    n = draw(st.integers(min_value=2, max_value=12))
    edges = draw(
        st.lists(
            st.tuples(
                st.integers(0, n - 1), st.integers(0, n - 1), st.integers(min_value=1, max_value=9)
            ),
            max_size=40,
        )
    )
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    for a, b, w in edges:
        if a != b:
            graph.add_edge(a, b, weight=w)
    goal = draw(st.integers(0, n - 1))
    return GraphProblem(graph, 0, goal)


def exact_distances_to_goal(problem: GraphProblem) -> dict[int, float]:
    reverse = problem.graph.reverse(copy=True)
    return nx.single_source_dijkstra_path_length(reverse, problem.goal, weight="weight")


def expected_cost(problem: GraphProblem) -> float | None:
    try:
        return nx.dijkstra_path_length(problem.graph, problem.start, problem.goal, weight="weight")
    except nx.NetworkXNoPath:
        return None


def check_plan(problem: GraphProblem, result) -> None:
    assert result.states[0] == problem.start
    assert problem.is_goal(result.states[-1])
    total = 0
    for (a, b), s, t in zip(result.actions, result.states, result.states[1:]):
        assert (a, b) == (s, t) and problem.graph.has_edge(a, b)
        total += problem.graph[a][b]["weight"]
    assert total == result.cost


@settings(max_examples=150, deadline=None)
@given(weighted_graphs(), st.floats(min_value=0.0, max_value=1.0))
def test_ucs_astar_idastar_find_the_networkx_shortest_path_cost(problem, fraction):
    exact = exact_distances_to_goal(problem)

    def admissible(state, _problem):
        # A random admissible heuristic: a fixed fraction of the true distance, or inf on dead ends.
        return math.floor(fraction * exact[state]) if state in exact else math.inf

    expected = expected_cost(problem)
    for algorithm, heuristic in [
        ("ucs", admissible),
        ("astar", admissible),
        ("idastar", admissible),
        ("astar", lambda s, p: 0),
    ]:
        result = search(problem, algorithm, heuristic)
        if expected is None:
            assert result.status is Status.UNSOLVABLE, algorithm
        else:
            assert result.status is Status.SOLVED, algorithm
            assert result.cost == expected, algorithm
            check_plan(problem, result)


@settings(max_examples=150, deadline=None)
@given(weighted_graphs())
def test_bfs_returns_fewest_edges_and_dfs_a_legal_plan(problem):
    try:
        fewest = nx.shortest_path_length(problem.graph, problem.start, problem.goal)
    except nx.NetworkXNoPath:
        fewest = None
    bfs = search(problem, "bfs")
    dfs = search(problem, "dfs")
    if fewest is None:
        assert bfs.status is Status.UNSOLVABLE and dfs.status is Status.UNSOLVABLE
        return
    assert bfs.plan_length == fewest
    check_plan(problem, bfs)
    check_plan(problem, dfs)


@settings(max_examples=100, deadline=None)
@given(weighted_graphs(), st.floats(min_value=1.0, max_value=5.0))
def test_weighted_astar_is_within_its_weight_and_greedy_is_legal(problem, weight):
    exact = exact_distances_to_goal(problem)

    def h(state, _problem):
        return exact.get(state, math.inf)

    expected = expected_cost(problem)
    wastar = search(problem, "wastar", h, weight=weight)
    greedy = search(problem, "greedy", h)
    if expected is None:
        assert wastar.status is greedy.status is Status.UNSOLVABLE
        return
    assert wastar.cost <= weight * expected + 1e-9
    check_plan(problem, wastar)
    check_plan(problem, greedy)


def test_astar_reopens_closed_states_with_an_inconsistent_heuristic():
    graph = nx.DiGraph()
    # Two paths to c: s-a-c costs 4, s-b-c costs 2. h(b) = 3 is admissible (h*(b) = 1 + 5 = 6)
    # but inconsistent next to h(s) = 0, so c is first expanded via the dearer path.
    graph.add_weighted_edges_from([("s", "a", 1), ("a", "c", 3), ("s", "b", 1), ("b", "c", 1), ("c", "g", 5)])
    h = {"s": 0, "a": 0, "b": 3.5, "c": 0, "g": 0}
    problem = GraphProblem(graph, "s", "g")
    result = search(problem, "astar", lambda s, p: h[s])
    assert result.cost == 7
    assert result.states == ["s", "b", "c", "g"]
    assert result.statistics.reopened == 1


def test_tie_breaking_prefers_lower_h_then_fifo():
    graph = nx.DiGraph()
    graph.add_weighted_edges_from([("s", "a", 1), ("s", "b", 1), ("a", "g", 1), ("b", "g", 1)])
    problem = GraphProblem(graph, "s", "g")
    fifo = search(problem, "astar", lambda s, p: 0)
    assert fifo.states == ["s", "a", "g"]  # a was generated first
    lower_h = search(problem, "astar", lambda s, p: {"a": 1, "b": 0}.get(s, 0))
    assert lower_h.states == ["s", "b", "g"]  # f ties at 2; b has the lower h


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_expansion_limit_ends_the_search_with_statistics(algorithm):
    graph = nx.DiGraph()
    for i in range(200):  # a long chain: 0 -> 1 -> ... -> 200
        graph.add_edge(i, i + 1, weight=1)
    problem = GraphProblem(graph, 0, 200)
    result = search(problem, algorithm, limits=Limits(max_expansions=10))
    assert result.status is Status.LIMIT_REACHED
    assert result.limit == "expansions"
    assert result.statistics.expansions == 10
    assert result.actions == []


def test_time_limit_ends_the_search():
    class Endless:
        initial_state = 0

        def is_goal(self, state):
            return False

        def successors(self, state):
            yield "next", state + 1, 1

    result = search(Endless(), "bfs", limits=Limits(time_limit=0.05))
    assert result.status is Status.LIMIT_REACHED and result.limit == "time"
    assert result.statistics.expansions > 0


def test_statistics_follow_fast_downward_counting():
    graph = nx.DiGraph()
    graph.add_weighted_edges_from([("s", "a", 1), ("s", "b", 1), ("a", "b", 1), ("b", "g", 1)])
    result = search(GraphProblem(graph, "s", "g"), "astar", lambda s, p: 0)
    stats = result.statistics
    assert result.cost == 2
    assert stats.expansions == 4  # s, a, b, g: the goal counts as expanded
    assert stats.generated == 4  # s->a, s->b, a->b (a duplicate still counts), b->g
    assert stats.evaluated == 4  # s, a, b, g
    assert stats.initial_h_value == 0


def test_same_input_same_plan_and_statistics():
    graph = nx.gnm_random_graph(60, 240, seed=7, directed=True)
    for a, b in graph.edges:
        graph[a][b]["weight"] = 1 + (a * 7 + b * 3) % 5
    problem = GraphProblem(graph, 0, 59)
    first, second = search(problem, "astar"), search(problem, "astar")
    assert first.states == second.states
    assert first.statistics.expansions == second.statistics.expansions
    assert first.statistics.generated == second.statistics.generated


def test_registry_answers_to_aliases_and_lists_them_in_help():
    from heurist.search import HeuristicRegistry

    registry = HeuristicRegistry("test")

    @registry.register("cover", aliases=("corners", "course_cover"))
    def cover(state, problem):
        return 0

    @registry.register("null")
    def null(state, problem):
        return 0

    assert registry.names() == ["cover", "null"]
    assert registry["corners"] is registry["course_cover"] is cover
    assert registry.aliases("cover") == ["corners", "course_cover"] and registry.aliases("null") == []
    assert registry.help_names() == "cover (corners, course_cover), null"
    with pytest.raises(ValueError):
        registry.register("corners")(null)


@pytest.mark.parametrize("algorithm", ["bfs", "dfs", "ucs"])
def test_algorithms_that_ignore_the_heuristic_neither_prepare_nor_call_it(algorithm):
    from heurist.search import search as run

    def never(state, problem):
        raise AssertionError("called")

    def refuse(problem):
        raise AssertionError("prepared")

    never.prepare = refuse
    from heurist.domains.tiles import DOMAIN

    problem = DOMAIN.parse("1 2 3\n4 5 6\n7 0 8\n")
    result = run(problem, algorithm, never)
    assert result.solved and (algorithm == "dfs" or result.cost == 1)


def test_the_cyclic_garbage_collector_rests_during_a_search_and_is_back_after_it():
    import gc

    seen = []

    def heuristic(state, problem):
        seen.append(gc.isenabled())
        return 0

    assert gc.isenabled()
    line = GraphProblem(nx.path_graph(6, create_using=nx.DiGraph), 0, 5)
    nx.set_edge_attributes(line.graph, 1, "weight")
    result = search(line, "astar", heuristic)
    assert result.solved and seen and not any(seen)
    assert gc.isenabled()
    gc.disable()
    try:
        search(line, "astar", heuristic)
        assert not gc.isenabled()  # a caller's choice is left alone
    finally:
        gc.enable()


def test_a_heuristic_registry_is_a_read_only_mapping_of_names():
    from heurist.domains.blocksworld import HEURISTICS

    assert list(HEURISTICS) == HEURISTICS.names() and len(HEURISTICS) == len(HEURISTICS.names())
    assert dict(HEURISTICS)["h1"] is HEURISTICS["H1"]  # an alias finds its heuristic, but is not listed
    assert "H1" in HEURISTICS and "H1" not in list(HEURISTICS)
    assert repr(HEURISTICS).startswith("HeuristicRegistry('blocksworld', ['zero', 'h1'")


def test_a_result_prints_its_outcome_in_one_line():
    from heurist.domains.klotski import HEURISTICS, load

    problem = load(__file__.rsplit("/tests/", 1)[0] + "/data/hrd/w23_s24_char/testhrd_easy1.txt")
    expected = "<SearchResult astar: solved, cost 1, 1 move, 2 expansions>"
    assert repr(search(problem, "astar", HEURISTICS["pdb"])) == expected


def test_a_slow_preparation_says_so_on_a_terminal_and_erases_the_line():
    import io
    import time

    from heurist.search import search
    from heurist.search.progress import ProgressLine

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def slow(state, problem):
        return 0

    slow.prepare = lambda problem: time.sleep(0.6)
    slow.heuristic_name = "slow-tables"
    terminal = Terminal()
    graph = nx.DiGraph()
    graph.add_edge(0, 1, weight=1)
    problem = GraphProblem(graph, 0, 1)
    result = search(problem, "astar", slow, progress=ProgressLine(terminal, delay=0.1, interval=0.1))
    assert result.solved
    shown = terminal.getvalue()
    assert "preparing heuristic slow-tables" in shown and shown.endswith("\r\x1b[K")
