"""The parking bound: admissible against exact distances, never below deadlock, exact FVS."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.domains.blocksworld import BlocksWorld, load_bwp
from heurist.domains.blocksworld.fvs import minimum_feedback_vertex_set
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.domains.blocksworld.model import all_states
from heurist.search import search
from heurist.search.space import exact_distances

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld"
parking = HEURISTICS["parking"]
deadlock = HEURISTICS["deadlock"]


def _check_space(goal: tuple[str, ...]) -> int:
    """Check parking against exact distances on the goal's whole space; return the states it raises."""
    problem = BlocksWorld(goal, goal)
    distance = exact_distances(problem)
    raised = 0
    for state, exact in distance.items():
        value = parking(state, problem)
        lower = deadlock(state, problem)
        assert lower <= value <= exact, (state, goal, lower, value, exact)
        assert (value == 0) == (state == goal)
        raised += value > lower
    return raised


STATES_4_ON_3 = list(all_states("ABCD", 3))


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(STATES_4_ON_3))
def test_parking_is_admissible_on_every_four_block_state_of_three_stacks(goal):
    _check_space(goal)


@settings(max_examples=3, deadline=None)
@given(st.sampled_from(list(all_states("ABCD", 4))))
def test_parking_is_admissible_on_every_four_block_state_of_four_stacks(goal):
    _check_space(goal)


def test_parking_raises_deadlock_on_a_five_block_space_and_stays_admissible():
    assert _check_space(("", "", "DCBEA")) == 718


def test_the_smallest_parking_conflict():
    # C must leave its goal stack and can only park on A or B, both needed under it first.
    problem = BlocksWorld(("A", "B", "C"), ("", "", "ABC"))
    assert deadlock(problem.initial_state, problem) == 4
    assert parking(problem.initial_state, problem) == 5
    assert search(problem, "astar", parking).plan_length == 5


def test_parking_solves_course_problems_optimally():
    for name, optimum in [("probB20.bwp", 15), ("probA11.bwp", 11)]:
        problem = load_bwp(DATA / name)
        result = search(problem, "astar", parking)
        assert result.plan_length == optimum
        assert problem.replay(result.actions) == problem.goal_state


def _brute_force_fvs(graph: dict[int, int]) -> int:
    nodes = list(graph)
    for size in range(len(nodes) + 1):
        for chosen in itertools.combinations(nodes, size):
            removed = sum(chosen)
            if _acyclic({n: s & ~removed for n, s in graph.items() if not n & removed}):
                return size
    raise AssertionError("unreachable")


def _acyclic(graph: dict[int, int]) -> bool:
    graph = dict(graph)
    while graph:
        sinks = [n for n, s in graph.items() if not s & sum(graph)]
        if not sinks:
            return False
        for n in sinks:
            del graph[n]
    return True


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 7).flatmap(
        lambda n: st.lists(st.integers(0, (1 << n) - 1), min_size=n, max_size=n)
    )
)
def test_minimum_feedback_vertex_set_is_exact(successor_masks):
    graph = {1 << i: mask for i, mask in enumerate(successor_masks)}
    assert minimum_feedback_vertex_set(graph) == _brute_force_fvs(graph)


def test_registered_by_name():
    assert "parking" in HEURISTICS
