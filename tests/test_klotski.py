"""Klotski: optimal costs on the course data, legal plans, the course's formats and heuristics."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.domains.klotski import HEURISTICS, load, problem_from_puzzle
from heurist.domains.klotski.formats import (
    V1,
    V2,
    V3,
    format_board,
    format_solution,
    parse_board,
    parse_puzzle,
    parse_solution,
    read_puzzle,
)
from heurist.domains.klotski.generate import random_layouts, random_walk_layouts
from heurist.domains.klotski.model import KlotskiProblem
from heurist.errors import InputError
from heurist.search import Status, search
from heurist.search.space import exact_distances

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"
CLASSIC = DATA / "w23_s24_char" / "testhrd_hard1.txt"

# Optimal one-cell costs (None: unsolvable), from shared/spec/klotski.md §2 and §5.
KNOWN_COSTS = {
    "f22_numeric/hrd_input0.txt": 1,
    "f22_numeric/hrd_input1.txt": 2,
    "f22_numeric/hrd_input2.txt": 3,
    "f22_numeric/classic_handout.txt": 116,
    "f22_numeric/classic_alt_numbering.txt": 116,
    "f22_numeric/lucas_input2.txt": 104,
    "f22_numeric/lucas_input3.txt": 131,
    "w23_s24_char/testhrd_easy1.txt": 1,
    "w23_s24_char/testhrd_med1.txt": 53,
    "w23_s24_char/testhrd_hard1.txt": 116,
    "w23_s24_char/testhrd_hard2.txt": 138,
    "w23_s24_char/testhrd_med2.txt": 50,
    "w23_s24_char/testhrd_med3.txt": 40,
    "w23_s24_char/testhrd_med4.txt": 38,
    "f24_w25_goal/easy1.txt": 1,
    "f24_w25_goal/easy2.txt": None,
    "f24_w25_goal/easy3.txt": 7,
    "f24_w25_goal/med1.txt": 74,
    "f24_w25_goal/med2.txt": 116,
    "f24_w25_goal/med3.txt": None,
    "f24_w25_goal/med1T.txt": None,
    "f24_w25_goal/hard1.txt": 359,
    "f24_w25_goal/hard2.txt": 79,
    "f24_w25_goal/hard3.txt": 200,
}
LAYOUTS32 = [116, 104, 103, 131, 138, 158, 89, 53, 114, 96, 55, 107, 77, 85, 92, 101,
             110, 53, 118, 78, 81, 49, 49, 60, 100, 47, 80, 100, 46, 102, 39, 179]
KNOWN_COSTS.update({f"f22_numeric/layouts32_longles/hrd_{i}.txt": c for i, c in enumerate(LAYOUTS32)})


def test_every_data_file_has_a_known_cost():
    on_disk = {
        str(p.relative_to(DATA))
        for p in DATA.rglob("*.txt")
        if "output" not in p.name and "solution" not in p.name
    }
    assert on_disk == set(KNOWN_COSTS)


@pytest.mark.parametrize("name", sorted(KNOWN_COSTS))
def test_astar_finds_the_known_optimum_and_a_legal_plan(name):
    problem = load(DATA / name, symmetry=False)
    result = search(problem, "astar", HEURISTICS["pdb"])
    expected = KNOWN_COSTS[name]
    if expected is None:
        assert result.status is Status.UNSOLVABLE
        return
    assert result.status is Status.SOLVED
    assert result.cost == expected == len(result.states) - 1
    assert result.states[0] == problem.initial_state
    assert problem.is_goal(result.states[-1])
    assert problem.first_illegal_step(result.states) is None


# hard2's component has 688,774 states; DFS takes several seconds there, so it is left out.
@pytest.mark.parametrize("name", [
    n for n, c in sorted(KNOWN_COSTS.items()) if c is not None and "layouts32" not in n and "hard2" not in n
])
def test_dfs_returns_a_legal_plan(name):
    problem = load(DATA / name, symmetry=False)
    result = search(problem, "dfs")
    assert result.status is Status.SOLVED
    assert problem.is_goal(result.states[-1])
    assert problem.first_illegal_step(result.states) is None
    assert result.cost >= KNOWN_COSTS[name]


@pytest.mark.parametrize("metric, cost", [("step", 116), ("slide", 90), ("path", 81)])
def test_classic_costs_under_each_move_metric(metric, cost):
    problem = load(CLASSIC, symmetry=False).with_metric(metric)
    result = search(problem, "astar", HEURISTICS["pdb"])
    assert result.cost == cost
    assert problem.first_illegal_step(result.states) is None


@pytest.mark.parametrize("algorithm", ["bfs", "ucs", "idastar"])
def test_other_optimal_algorithms_agree_with_astar(algorithm):
    problem = load(DATA / "f24_w25_goal/easy3.txt", symmetry=False)
    result = search(problem, algorithm, HEURISTICS["pdb"])
    assert result.cost == KNOWN_COSTS["f24_w25_goal/easy3.txt"]
    assert problem.first_illegal_step(result.states) is None


# ----- the course's files --------------------------------------------------------------------

@pytest.mark.parametrize("number", [0, 1, 2])
def test_v1_astar_output_matches_the_course_solution_byte_for_byte(number):
    puzzle = read_puzzle(DATA / f"f22_numeric/hrd_input{number}.txt")
    result = search(problem_from_puzzle(puzzle), "astar", HEURISTICS["pdb"])
    written = format_solution(puzzle.geometry, result.states, puzzle.variant, result.cost)
    assert written.encode() == (DATA / f"f22_numeric/hrd_solution{number}.txt").read_bytes()


@pytest.mark.parametrize(
    "puzzle_name, solution_name",
    [
        ("f22_numeric/classic_handout.txt", "f22_numeric/classic_astar_output_116.txt"),
        ("w23_s24_char/testhrd_hard1.txt", "w23_s24_char/testhrd_hard1_astar_output_116.txt"),
        ("w23_s24_char/testhrd_easy1.txt", "w23_s24_char/testhrd_easy1_astar_output_1.txt"),
        *[(f"f24_w25_goal/{n}.txt", f"f24_w25_goal/{n}.out") for n in
          ["easy1", "easy2", "easy3", "med1", "med2", "hard1", "hard2", "hard3"]],
    ],
)
def test_course_reference_outputs_replay_as_legal_optimal_plans(puzzle_name, solution_name):
    puzzle = read_puzzle(DATA / puzzle_name)
    problem = problem_from_puzzle(puzzle)
    text = (DATA / solution_name).read_bytes().decode()
    states = parse_solution(text, puzzle.geometry, puzzle.variant)
    expected = KNOWN_COSTS[puzzle_name]
    if expected is None:
        assert states is None
        return
    assert states[0] == puzzle.start and problem.is_goal(states[-1])
    assert problem.first_illegal_step(states) is None
    assert len(states) - 1 == expected


def test_v3_output_layout_matches_the_reference_files():
    puzzle = read_puzzle(DATA / "f24_w25_goal/easy1.txt")
    result = search(problem_from_puzzle(puzzle), "astar", HEURISTICS["pdb"])
    written = format_solution(puzzle.geometry, result.states, V3)
    assert written.encode() == (DATA / "f24_w25_goal/easy1.out").read_bytes()
    assert format_solution(puzzle.geometry, None, V3) == "No solution\n"


def test_variant_detection_and_round_trip():
    assert read_puzzle(DATA / "f22_numeric/classic_handout.txt").variant == V1
    assert read_puzzle(CLASSIC).variant == V2
    assert read_puzzle(DATA / "f24_w25_goal/hard2.txt").variant == V3
    numeric = read_puzzle(DATA / "f22_numeric/classic_handout.txt")
    chars = read_puzzle(CLASSIC)
    assert numeric.start == chars.start  # same board, two notations
    text = format_board(chars.geometry, chars.start)
    assert text == "^11^\nv11v\n^<>^\nv22v\n2..2"
    assert parse_puzzle(text).start == chars.start


def test_crlf_and_trailing_blank_lines_are_tolerated():
    text = "^11^\r\nv11v\r\n^<>^\r\nv22v\r\n2..2\r\n\r\n\r\n"
    assert parse_puzzle(text).start == read_puzzle(CLASSIC).start


def test_trailing_spaces_are_ignored_but_leading_ones_are_an_error():
    text = "^11^ \nv11v\t\n^<>^\nv22v  \r\n2..2\n \n"
    assert parse_puzzle(text).start == read_puzzle(CLASSIC).start
    with pytest.raises(InputError, match="spaces before the row") as error:
        parse_puzzle("^11^\n v11v\n^<>^\nv22v\n2..2\n", "shifted.txt")
    assert str(error.value).startswith("shifted.txt:2: ")


def test_boards_of_other_sizes():
    puzzle = parse_puzzle("11^2.\n11v.2\n<>2..\n")
    assert (puzzle.geometry.width, puzzle.geometry.height) == (5, 3)
    assert puzzle.variant == V2
    problem = problem_from_puzzle(puzzle)
    result = search(problem, "astar", HEURISTICS["pdb"])
    bfs = search(problem, "bfs")
    assert result.cost == bfs.cost
    assert problem.first_illegal_step(result.states) is None


# ----- heuristics ----------------------------------------------------------------------------

def test_worked_examples_of_the_write_ups():
    problem = load(CLASSIC, symmetry=False)
    start = problem.initial_state
    assert HEURISTICS["manhattan"](start, problem) == 3
    assert HEURISTICS["blocking"](start, problem) == 5  # seed 003: "3 + 2 = 5"
    # seed 004: 2x2 in the middle column, a horizontal 1x2 piece below it: 3 + 3.
    assert HEURISTICS["neighbors"](start, problem) == 6


@pytest.mark.parametrize("name, metric", [
    ("w23_s24_char/testhrd_hard1.txt", "step"),
    ("w23_s24_char/testhrd_hard1.txt", "path"),
    ("f24_w25_goal/med1.txt", "step"),
])
@pytest.mark.parametrize("heuristic", ["manhattan", "pdb"])
def test_admissible_heuristics_never_overestimate_and_are_consistent(name, metric, heuristic):
    problem = load(DATA / name, symmetry=False).with_metric(metric)
    h = HEURISTICS[heuristic]
    exact = exact_distances(problem)
    for state, distance in exact.items():
        value = h(state, problem)
        assert value <= distance, (format_board(problem.geometry, state), value, distance)
        for _, child, cost in problem.successors(state):
            assert value <= cost + h(child, problem)
    assert all(h(state, problem) == 0 for state, d in exact.items() if d == 0)


def test_pdb_dominates_manhattan_on_the_classic():
    problem = load(CLASSIC, symmetry=False)
    exact = exact_distances(problem)
    pdb, manhattan = HEURISTICS["pdb"], HEURISTICS["manhattan"]
    assert all(pdb(s, problem) >= manhattan(s, problem) for s in exact)
    assert sum(pdb(s, problem) for s in exact) > 2 * sum(manhattan(s, problem) for s in exact)


def test_unreachable_goal_board_gives_infinity():
    problem = load(DATA / "f24_w25_goal/med1T.txt", symmetry=False)  # piece counts differ from the goal's
    assert HEURISTICS["manhattan"](problem.initial_state, problem) == math.inf


def test_generated_layouts_are_deterministic_and_solvable():
    first = list(random_walk_layouts(seed=5, count=3, steps=200))
    assert first == list(random_walk_layouts(seed=5, count=3, steps=200))
    assert len({state for _, state in first}) == 3
    for geometry, state in first:
        problem = KlotskiProblem(geometry, state)
        assert not problem.is_goal(state)
        assert search(problem, "astar", HEURISTICS["pdb"]).status is Status.SOLVED


# ----- mirror symmetry -------------------------------------------------------------------------

def test_mirror_is_an_involution_that_preserves_legality():
    problem = load(DATA / "f24_w25_goal/hard2.txt", symmetry=False)
    geometry = problem.geometry
    state = problem.initial_state
    mirrored = geometry.mirror(state)
    assert mirrored != state and geometry.mirror(mirrored) == state
    assert format_board(geometry, mirrored).splitlines()[0] == "22<>"  # first row "<>22" mirrored
    assert len(geometry.step_successors(mirrored)) == len(geometry.step_successors(state))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    cols=st.integers(2, 6),
    rows=st.integers(2, 6),
    counts=st.tuples(st.integers(1, 2), st.integers(0, 3), st.integers(0, 3), st.integers(0, 4)),
)
def test_canonical_step_moves_are_the_step_moves_folded_by_the_mirror(seed, cols, rows, counts):
    try:
        layouts = random_layouts(seed, 1, counts, rows=rows, cols=cols)
    except InputError:
        return  # the pieces do not fit on this board
    geometry, state = parse_board(layouts[0][1].splitlines(), "chars")
    mirror = geometry.mirror
    expected = [(action, min(child, mirror(child)), cost) for action, child, cost in geometry.step_successors(state)]
    assert geometry.canonical_step_successors(state) == expected


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    cols=st.integers(2, 6),
    rows=st.integers(2, 6),
    counts=st.tuples(st.integers(1, 2), st.integers(0, 3), st.integers(0, 3), st.integers(0, 4)),
)
def test_canonical_path_moves_are_the_path_moves_folded_by_the_mirror(seed, cols, rows, counts):
    try:
        layouts = random_layouts(seed, 1, counts, rows=rows, cols=cols)
    except InputError:
        return  # the pieces do not fit on this board
    geometry, state = parse_board(layouts[0][1].splitlines(), "chars")
    mirror = geometry.mirror
    for board in (state, mirror(state)):
        expected = [(action, min(child, mirror(child)), cost) for action, child, cost in geometry.path_successors(board)]
        for _ in range(2):  # the second time from the remembered moves
            assert geometry.canonical_path_successors(board) == expected


@pytest.mark.parametrize("name", ["w23_s24_char/testhrd_hard1.txt", "f22_numeric/lucas_input3.txt"])
def test_symmetry_reduction_keeps_the_optimum_and_returns_real_boards(name):
    puzzle = read_puzzle(DATA / name)
    plain = search(problem_from_puzzle(puzzle), "astar", HEURISTICS["pdb"])
    reduced_problem = problem_from_puzzle(puzzle, symmetry=True)
    assert reduced_problem.symmetry
    reduced = search(reduced_problem, "astar", HEURISTICS["pdb"])
    assert reduced.cost == plain.cost
    assert reduced.statistics.expansions < 0.6 * plain.statistics.expansions
    assert reduced.states[0] == puzzle.start
    assert reduced_problem.first_illegal_step(reduced.states) is None
    assert reduced_problem.is_goal(reduced.states[-1])


def test_symmetry_is_off_when_the_goal_board_is_not_symmetric():
    problem = problem_from_puzzle(read_puzzle(DATA / "f24_w25_goal/hard2.txt"), symmetry=True)
    assert not problem.symmetry
    assert problem.initial_state == problem.start


def test_describe_move_takes_the_problem_or_its_geometry():
    from heurist.domains.klotski import HEURISTICS, describe_move, load
    from heurist.search import search

    problem = load(str(Path(__file__).resolve().parents[1] / "data/hrd/w23_s24_char/testhrd_easy1.txt"))
    action = search(problem, "astar", HEURISTICS["pdb"]).actions[0]
    assert describe_move(problem, action) == describe_move(problem.geometry, action) == "2x2 at (3,0) right"
