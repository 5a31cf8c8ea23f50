"""Exact goal distances and heuristic checks (`heurist check`), against independent computations."""

from __future__ import annotations

import json
import math
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from heurist.analysis.checks import check_dominance, check_heuristic, evaluate, run_checks
from heurist.analysis.domains import state_space
from heurist.cli.main import main
from heurist.domains import get_domain
from heurist.domains.blocksworld import load_bwp
from heurist.domains.blocksworld.heuristics import HEURISTICS as BW_HEURISTICS
from heurist.domains.blokus import HEURISTICS as BLOKUS_HEURISTICS
from heurist.domains.blokus import load_pieces, make_problem
from heurist.domains.klotski import HEURISTICS, load
from heurist.domains.klotski.board import Geometry
from heurist.domains.klotski.formats import parse_board, parse_puzzle, read_puzzle
from heurist.domains.klotski.model import KlotskiProblem
from heurist.domains.klotski.space import klotski_numpy_space
from heurist.search import search
from heurist.search.space import StateSpaceTooLarge, build_state_space, distances_to_goal, explore

ROOT = Path(__file__).resolve().parents[1]
HRD = ROOT / "data" / "hrd"
CLASSIC = HRD / "w23_s24_char" / "testhrd_hard1.txt"
KLOTSKI = get_domain("klotski")
TEST_MAX_STATES = 100_000  # the two ~700,000-state components: see "Built-in heuristics" in docs/verification.md


def plain_bfs_distances(problem) -> dict:
    """h* by the textbook method, for comparison: enumerate the component, then BFS back from its goals."""
    component, queue, goals = {problem.initial_state}, [problem.initial_state], []
    for state in queue:
        if problem.is_goal(state):
            goals.append(state)
        for _, child, _ in problem.successors(state):
            if child not in component:
                component.add(child)
                queue.append(child)
    distance = dict.fromkeys(goals, 0)
    frontier = deque(goals)
    while frontier:
        state = frontier.popleft()
        for _, child, _ in problem.successors(state):
            if child not in distance:
                distance[child] = distance[state] + 1
                frontier.append(child)
    return {state: distance.get(state, math.inf) for state in component}


def as_dict(space) -> dict:
    return dict(zip(space.states, space.distance.tolist()))


# ----- exact distances ------------------------------------------------------------------------

def test_classic_component_and_optimum_match_the_literature():
    space = state_space(KLOTSKI, load(CLASSIC, symmetry=False))
    assert space.method == "numpy"
    assert (space.size, int(space.goal.sum()), space.initial_distance) == (25_955, 964, 116)
    assert space.states[0] == load(CLASSIC, symmetry=False).initial_state


@pytest.mark.parametrize("rows", [
    ["^11^", "v11v", "^<>^", "v22v", "2..2"],  # the classic, 20 cells: hashed 64-bit keys
    ["2.2", "<>.", "2.2"],  # 9 cells: the state itself is the key
    ["^11^", "v11v", "^<>^", "v<>v", "^22^", "v..v"],  # 6 rows, 24 cells
])
@pytest.mark.parametrize("goal", ["exit", "board"])
@pytest.mark.parametrize("metric", ["step", "slide", "path"])
def test_numpy_layers_agree_with_a_plain_breadth_first_search(rows, goal, metric):
    geometry, start = parse_board(rows, "chars")
    if goal == "exit" and geometry.shape_mask(start, 0):
        problem = KlotskiProblem(geometry, start, metric=metric)
    else:  # a goal board: the last state a breadth-first search meets
        last = explore(KlotskiProblem(geometry, start, goal=start)).states[-1]
        problem = KlotskiProblem(geometry, start, goal=last, metric=metric)
    space = build_state_space(problem, builder=klotski_numpy_space)
    assert as_dict(space) == plain_bfs_distances(problem)
    python = build_state_space(problem)
    assert space.edge_count == python.edge_count
    edges = {(space.states[s], space.states[t]) for s, t in zip(space.source.tolist(), space.target.tolist())}
    assert edges == {(python.states[s], python.states[t]) for s, t in zip(python.source.tolist(), python.target.tolist())}


def test_goal_board_instances_and_unreachable_goals():
    med1 = load(HRD / "f24_w25_goal/med1.txt", symmetry=False)
    space = state_space(KLOTSKI, med1)
    assert (space.size, space.initial_distance, int(space.goal.sum())) == (81_340, 74, 1)
    unreachable = state_space(KLOTSKI, load(HRD / "f24_w25_goal/med3.txt", symmetry=False))
    assert unreachable.size == 20 and np.isinf(unreachable.distance).all()


@pytest.mark.parametrize("metric, optimum", [("slide", 90), ("path", 81)])
def test_other_move_metrics(metric, optimum):
    problem = load(CLASSIC, symmetry=False).with_metric(metric)
    space = state_space(KLOTSKI, problem)
    assert space.method == "numpy"
    assert (space.size, space.initial_distance) == (25_955, optimum)


def test_weighted_distances_agree_with_memoised_forward_search():
    """Blokus moves cost their tiles and only accumulate: h* by recursion over successors must match."""
    problem = make_problem("corners", load_pieces("tiny_set_2.txt"), (5, 5), (0, 0), ())
    space = build_state_space(problem)
    memo: dict = {}

    def cheapest(state):
        if state not in memo:
            if problem.is_goal(state):
                memo[state] = 0
            else:
                memo[state] = min((cost + cheapest(child) for _, child, cost in problem.successors(state)),
                                  default=math.inf)
        return memo[state]

    assert all(cheapest(state) == distance for state, distance in as_dict(space).items())
    assert not np.all(space.cost == 1)  # the weighted (Dijkstra) path was exercised


def test_distances_keep_the_cheapest_of_parallel_edges():
    # 0 -> 1 twice (costs 5 and 2), 1 -> 2 (cost 1); 2 is the goal.
    source, target, cost = np.array([0, 0, 1]), np.array([1, 1, 2]), np.array([5.0, 2.0, 1.0])
    distance = distances_to_goal(3, source, target, cost, np.array([False, False, True]))
    assert distance.tolist() == [3, 1, 0]


def test_max_states_stops_cleanly():
    with pytest.raises(StateSpaceTooLarge):
        state_space(KLOTSKI, load(CLASSIC, symmetry=False), max_states=1000)
    with pytest.raises(StateSpaceTooLarge):
        explore(load(CLASSIC, symmetry=False).with_metric("path"), max_states=1000)


# ----- built-in admissible heuristics on every data-set instance that fits ------------------

def _klotski_instances() -> list[str]:
    """Every puzzle file of the course data, once per distinct puzzle (some are copies under other names)."""
    distinct: dict = {}
    for path in sorted(HRD.rglob("*.txt")):
        if "output" not in path.name and "solution" not in path.name:
            puzzle = read_puzzle(path)
            distinct.setdefault((puzzle.geometry, puzzle.start, puzzle.goal), str(path.relative_to(HRD)))
    return sorted(distinct.values())


def _checked(space, name, heuristic):
    report = run_checks(space, heuristic, name)
    assert report.admissible, (name, report.admissibility_witness)
    assert report.goal_aware and report.safe
    assert report.consistent, (name, report.consistency_witness)
    return report


@pytest.mark.parametrize("name", _klotski_instances())
def test_klotski_admissible_heuristics_hold_on_the_course_data(name):
    problem = load(HRD / name, symmetry=False)
    try:
        space = state_space(KLOTSKI, problem, TEST_MAX_STATES)
    except StateSpaceTooLarge:
        pytest.skip("component larger than the test budget (docs/verification.md has the command that checks it)")
    # The pattern databases take about 0.5 s per instance to build, so the 32-layout
    # collection is checked with Manhattan distance here and with pdb by the benchmark.
    names = ["manhattan"] + ([] if "layouts32" in name else ["pdb"])
    for heuristic in names:
        _checked(space, heuristic, HEURISTICS[heuristic])


@pytest.mark.parametrize("name", [f"probA{n:02d}.bwp" for n in range(3, 12)])
def test_blocksworld_admissible_heuristics_hold_on_the_course_data(name):
    problem = load_bwp(ROOT / "data" / "blocksworld" / name)
    space = state_space(get_domain("blocksworld"), problem)
    assert space.size == 2520  # 5 blocks on 3 stacks: 5! * C(7, 2), all connected
    for heuristic in ("h0", "h1", "prefix", "deadlock"):
        report = run_checks(space, BW_HEURISTICS[heuristic], heuristic)
        assert report.admissible and report.goal_aware, (name, heuristic, report.admissibility_witness)


@pytest.mark.parametrize("puzzle, pieces, size", [
    ("fill", "tiny_set.txt", (4, 7)),
    ("corners", "tiny_set_2.txt", (6, 6)),
    ("corners", "small_set.txt", (5, 5)),
])
def test_blokus_admissible_heuristics_hold_on_the_course_instances(puzzle, pieces, size):
    problem = make_problem(puzzle, load_pieces(pieces), size, (0, 0), ())
    space = state_space(get_domain("blokus"), problem)
    for heuristic in ("null", "reach"):
        report = run_checks(space, BLOKUS_HEURISTICS[heuristic], heuristic)
        assert report.admissible and report.goal_aware and report.safe, (heuristic, report.admissibility_witness)


# ----- violations are caught, with correct witnesses ------------------------------------------

def doubled_manhattan(state, problem):
    """Deliberately inadmissible: twice the Manhattan distance of the 2x2 piece."""
    return 2 * HEURISTICS["manhattan"](state, problem)


def test_inadmissible_heuristic_is_caught_with_a_correct_witness():
    problem = load(CLASSIC, symmetry=False)
    space = state_space(KLOTSKI, problem)
    report = run_checks(space, doubled_manhattan, "doubled")
    exact = plain_bfs_distances(problem)
    over = {s: doubled_manhattan(s, problem) - d for s, d in exact.items() if doubled_manhattan(s, problem) > d}
    assert report.overestimates == len(over) > 0
    assert report.largest_excess == max(over.values())
    witness = report.admissibility_witness
    assert witness.h == doubled_manhattan(witness.state, problem)
    assert witness.h - witness.other == report.largest_excess
    # The witness's h* is the optimum of a fresh search from it.
    from_witness = KlotskiProblem(problem.geometry, witness.state)
    assert search(from_witness, "astar", HEURISTICS["pdb"]).cost == witness.other
    assert not report.holds("admissible") and report.holds("goal-aware")


def test_admissible_but_inconsistent_heuristic_is_caught():
    problem = load(CLASSIC, symmetry=False)
    space = state_space(KLOTSKI, problem)
    exact = as_dict(space)

    def jumpy(state, _problem):
        return exact[state] if state % 3 == 0 else 0  # h <= h*, but drops by h* along some edges

    report = run_checks(space, jumpy, "jumpy")
    assert report.admissible
    expected = sum(
        jumpy(s, problem) > 1 + jumpy(child, problem)
        for s in exact for _, child, _ in problem.successors(s)
    )
    assert report.inconsistent_edges == expected > 0
    edge = report.consistency_witness
    assert edge.child in {child for _, child, _ in problem.successors(edge.state)}
    assert edge.h > edge.cost + edge.child_h


def test_goal_awareness_and_safety_violations():
    problem = load(CLASSIC, symmetry=False)
    space = state_space(KLOTSKI, problem)
    values = np.ones(space.size)
    values[0] = np.inf  # the start can reach a goal: h = inf there is unsafe
    report = check_heuristic("one", values, space)
    assert report.nonzero_goals == report.goals == 964
    assert problem.is_goal(report.goal_witness.state)
    assert report.unsafe == 1 and report.unsafe_witness.state == problem.initial_state


def test_dominance_with_counterexample():
    space = state_space(KLOTSKI, load(CLASSIC, symmetry=False))
    pdb, manhattan = evaluate(HEURISTICS["pdb"], space), evaluate(HEURISTICS["manhattan"], space)
    assert check_dominance(pdb, "manhattan", manhattan, space).dominates
    backwards = check_dominance(manhattan, "pdb", pdb, space)
    assert not backwards.dominates and backwards.below == int(np.sum(manhattan < pdb))
    assert backwards.witness.other - backwards.witness.h == backwards.largest_deficit


# ----- the command line -------------------------------------------------------------------------

STUDENT = '''
from heurist.domains.klotski.heuristics import manhattan

def h(state, problem):
    return 3 * manhattan(state, problem)
'''


def test_cli_catches_a_user_heuristic_and_draws_the_witness(tmp_path, capsys):
    student = tmp_path / "student.py"
    student.write_text(STUDENT)
    code = main(["check", "klotski", str(CLASSIC), "-H", f"{student}:h", "--format", "json"])
    assert code == 1
    document = json.loads(capsys.readouterr().out)
    report = document["instances"][0]["report"]
    assert document["violated"] == ["admissible"] and not report["admissible"]
    witness = report["admissibility_witness"]
    board = parse_puzzle(witness["state"] + "\n")
    from_witness = KlotskiProblem(board.geometry, board.start)
    assert witness["h"] == 3 * HEURISTICS["manhattan"](board.start, from_witness)
    assert search(from_witness, "astar", HEURISTICS["pdb"]).cost == witness["h_star"] < witness["h"]


def test_cli_text_report_and_exit_status_zero(capsys):
    code = main(["check", "klotski", str(CLASSIC), "-H", "pdb", "--against", "manhattan", "--claim", "consistent"])
    out = capsys.readouterr().out
    assert code == 0
    assert "25,955 states" in out and "h*(start) = 116" in out and "dominates manhattan: yes" in out
    assert out.rstrip().endswith("holds")


def test_cli_dominance_failure_exits_one(capsys):
    assert main(["check", "klotski", str(CLASSIC), "-H", "manhattan", "--against", "pdb"]) == 1
    assert "dominates pdb: NO" in capsys.readouterr().out


def test_cli_max_states_stops_cleanly(capsys):
    code = main(["check", "klotski", str(CLASSIC), "-H", "manhattan", "--max-states", "1000"])
    out = capsys.readouterr().out
    assert code == 3
    assert "skipped: more than 1,000 states" in out


def test_cli_generated_families(capsys):
    assert main(["check", "klotski", "--generated", "3", "--seed", "2", "-H", "manhattan"]) == 0
    assert "3 instance(s) checked" in capsys.readouterr().out
    code = main(["check", "blocksworld", "--generated", "3", "--seed", "1", "-H", "h6", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 1 and document["violated"] == ["admissible"]
    assert all(entry["states"] == 2520 for entry in document["instances"])
    assert main(["check", "blokus", "--generated", "2", "--seed", "1", "-H", "reach"]) == 0
    assert "verdict for reach (admissible, goal-aware): holds" in capsys.readouterr().out
    # six targets: the exact Steiner trees of reach at work
    options = "-p tiny_set_2.txt -s 6 6 --targets 6"
    assert main(["check", "blokus", "--generated", "3", "--seed", "14", "-H", "reach", "--generate-options", options]) == 0
    assert "verdict for reach (admissible, goal-aware): holds" in capsys.readouterr().out


@pytest.mark.parametrize("arguments, message", [
    (["check", "klotski", str(CLASSIC), "-H", "nonsense"], "unknown heuristic"),
    (["check", "klotski", "-H", "manhattan"], "give instance files"),
    (["check", "klotski", str(CLASSIC), "-H", "manhattan", "--claim", "dominates"], "needs --against"),
    (["check", "blocksworld", "--generated", "1", "-H", "h1", "--generate-options", "--colour red"],
     "unknown option '--colour'"),
])
def test_cli_bad_input_exits_two(arguments, message, capsys):
    assert main(arguments) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["check", "solve"])
def test_a_failing_user_heuristic_is_bad_input_not_a_crash(tmp_path, capsys, command):
    student = tmp_path / "broken.py"
    instance = str(HRD / "f22_numeric/hrd_input0.txt")
    student.write_text("def h(state, problem):\n    return None\n")
    assert main([command, "klotski", instance, "-H", f"{student}:h"]) == 2
    err = capsys.readouterr().err
    assert err == f"heurist: {student}: the heuristic 'h' returned None, not a number\n"
    student.write_text("import math\n\ndef h(state, problem):\n    return math.floor(1 / 0)\n")
    assert main([command, "klotski", instance, "-H", f"{student}:h"]) == 2
    err = capsys.readouterr().err
    assert err == f"heurist: {student}:4: the heuristic 'h' raised ZeroDivisionError: division by zero\n"


def test_boards_wider_than_two_words_fall_back_to_python():
    _, start = parse_board(["11..", "11..", *["...."] * 7], "chars")  # 36 cells
    problem = KlotskiProblem(Geometry(4, 9), start)
    space = state_space(KLOTSKI, problem)
    assert space.method == "python"
    assert as_dict(space) == plain_bfs_distances(problem)


def test_random_layouts_of_a_chosen_piece_set_are_reproducible():
    from heurist.domains.klotski.generate import random_layouts

    first = random_layouts(3, 5, (1, 1, 0, 2))
    assert first == random_layouts(3, 5, (1, 1, 0, 2)) != random_layouts(4, 5, (1, 1, 0, 2))
    for _, text in first:
        puzzle = parse_puzzle(text)
        problem = KlotskiProblem(puzzle.geometry, puzzle.start)
        assert not problem.is_goal(puzzle.start)
        assert [puzzle.geometry.shape_mask(puzzle.start, shape).bit_count() for shape in range(4)] == [1, 1, 0, 2]


def test_seed_003_overestimates_where_one_move_clears_two_blocked_steps(capsys):
    """The vertical piece under the 2x2 piece blocks two of its steps, and one sideways move clears both."""
    code = main(["check", "klotski", "--generated", "5", "--seed", "1", "--generate-options", "--pieces 1,1,0,2",
                 "-H", "blocking", "--against", "manhattan", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 1 and document["violated"] == ["admissible"]
    witness = document["instances"][0]["report"]["admissibility_witness"]
    board = parse_puzzle(witness["state"] + "\n")
    problem = KlotskiProblem(board.geometry, board.start)
    assert HEURISTICS["blocking"](board.start, problem) == witness["h"]
    assert search(problem, "astar", HEURISTICS["pdb"]).cost == witness["h_star"] < witness["h"]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    rows=st.integers(3, 5),
    cols=st.integers(2, 4),
    vertical=st.integers(0, 2),
    horizontal=st.integers(0, 2),
    single=st.integers(0, 4),
    metric=st.sampled_from(["step", "slide", "path"]),
)
def test_numpy_layers_agree_with_python_on_random_boards(seed, rows, cols, vertical, horizontal, single, metric):
    from heurist.domains.klotski.generate import random_layouts
    from heurist.errors import InputError

    try:
        [(_, text)] = random_layouts(seed, 1, (1, vertical, horizontal, single), rows, cols)
    except InputError:
        assume(False)
    puzzle = parse_puzzle(text)
    problem = KlotskiProblem(puzzle.geometry, puzzle.start, metric=metric)
    fast, plain = build_state_space(problem, builder=klotski_numpy_space), build_state_space(problem)
    assert as_dict(fast) == as_dict(plain)
    assert fast.edge_count == plain.edge_count and int(fast.goal.sum()) == int(plain.goal.sum())
