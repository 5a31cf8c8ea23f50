"""Sliding-tile puzzles: files, moves, optimal costs, and the heuristics checked over a whole space."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from heurist.analysis.checks import run_checks
from heurist.domains import get_domain
from heurist.domains.tiles import DOMAIN, HEURISTICS, Slide, TilesProblem, is_solvable
from heurist.domains.tiles.formats import format_board, format_tiles, parse_board_lines, parse_tiles
from heurist.domains.tiles.generate import random_walk
from heurist.domains.tiles.heuristics import fewest_removals
from heurist.errors import InputError
from heurist.scene import Group, Scene, Text
from heurist.search import Status, search
from heurist.search.space import build_state_space

DATA = Path(__file__).resolve().parents[1] / "data" / "tiles"
EIGHT_PUZZLES = {"aima-26.txt": 26, "hardest-31.txt": 31}


@functools.cache
def bfs_cost(name: str) -> float:
    return search(DOMAIN.load(DATA / name), "bfs").cost


@pytest.fixture(scope="module")
def space():
    """The whole 8-puzzle component of the hardest instance: 181,440 states with h*."""
    return build_state_space(DOMAIN.load(DATA / "hardest-31.txt"))


# ----- the domain and its files ----------------------------------------------------------

def test_the_domain_is_found_by_name():
    assert get_domain("tiles") is DOMAIN
    assert DOMAIN.default_heuristic in HEURISTICS
    assert set(HEURISTICS.names()) == {"zero", "misplaced", "manhattan", "linear-conflict", "pdb", "pdb-5-5-5",
                                       "pdb-6-6-3"}


def test_sample_files_load():
    problem = DOMAIN.load(DATA / "aima-26.txt")
    assert (problem.rows, problem.cols) == (3, 3)
    assert problem.start == (7, 2, 4, 5, 0, 6, 8, 3, 1)
    assert problem.goal == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    fifteen = DOMAIN.load(DATA / "fifteen-46.txt")
    assert (fifteen.rows, fifteen.cols) == (4, 4)
    assert fifteen.goal == (*range(1, 16), 0)


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.txt")))
def test_files_round_trip(name):
    problem = DOMAIN.load(DATA / name)
    again = DOMAIN.parse(DOMAIN.write_instance(problem), "again")
    assert (again.rows, again.cols, again.start, again.goal) == (
        problem.rows, problem.cols, problem.start, problem.goal)


def test_a_default_goal_is_not_written_and_another_goal_is():
    problem = TilesProblem(2, 3, (1, 2, 3, 4, 0, 5))
    assert format_tiles(problem).count("\n\n") == 0
    other = TilesProblem(2, 3, (1, 2, 3, 4, 0, 5), (0, 1, 2, 3, 4, 5))
    assert parse_tiles(format_tiles(other)).goal == (0, 1, 2, 3, 4, 5)


def test_comments_blank_lines_and_dots_are_read():
    text = "# a comment\n\n  1 2 3\n# inside\n4 . 5\n\n\n# goal\n1 2 3\n4 5 0\n\n"
    problem = parse_tiles(text)
    assert problem.start == (1, 2, 3, 4, 0, 5)
    assert problem.goal == (1, 2, 3, 4, 5, 0)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "empty"),
        ("# only a comment\n", 1, "empty"),
        ("1 2 3\n4 5\n6 7 0\n", 2, "has 2 numbers"),
        ("1 2 3\n4 x 5\n6 7 0\n", 2, "not a tile number"),
        ("1 2 3\n4 -5 6\n7 8 0\n", 2, "not a tile number"),
        ("1 2 3\n4 5 6\n7 8 8\n", 3, "twice"),
        ("1 2 3\n4 5 6\n7 8 9\n", 3, "not a tile"),
        ("0\n", 1, "at least 2"),
        ("1 2 3\n4 5 6\n7 8 0\n\n1 2\n3 0\n", 5, "the goal board is 2x2"),
        ("1 2 3\n4 5 6\n7 8 0\n\n1 2 3\n4 5 6\n7 0 0\n", 7, "twice"),
        ("1 0\n\n1 0\n\n0 1\n", 5, "third board"),
    ],
)
def test_bad_files_name_the_line(text, line, words):
    with pytest.raises(InputError) as raised:
        parse_tiles(text, "bad.txt")
    assert raised.value.line == line
    assert raised.value.source == "bad.txt"
    assert words in raised.value.message


def test_a_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError):
        DOMAIN.load(tmp_path / "nope.txt")


def test_states_round_trip_through_text():
    problem = DOMAIN.load(DATA / "fifteen-46.txt")
    state = problem.start
    for _ in range(30):
        text = DOMAIN.format_state(problem, state)
        assert "." in text and "0" not in text.split()
        assert DOMAIN.parse_state(problem, text.split("\n"), "plan", 4) == state
        state = list(problem.successors(state))[-1][1]


@pytest.mark.parametrize("format", ["text", "json"])
def test_solution_files_read_back(format):
    problem = DOMAIN.load(DATA / "aima-26.txt")
    result = search(problem, "astar", HEURISTICS["linear-conflict"])
    solution = DOMAIN.read_solution(DOMAIN.write_solution(problem, result, format), problem, "plan")
    assert solution.states == list(result.states)


def test_a_board_of_another_size_is_refused():
    problem = DOMAIN.load(DATA / "hardest-31.txt")
    with pytest.raises(InputError) as raised:
        parse_board_lines(["1 2", "3 ."], problem, "plan", 7)
    assert raised.value.line == 7
    with pytest.raises(InputError) as raised:
        parse_board_lines(["1 2 3", "4 5 5", "7 8 ."], problem, "plan", 7)
    assert raised.value.line == 8
    assert format_board(3, 3, problem.goal) == "1 2 3\n4 5 6\n7 8 ."


# ----- moves -----------------------------------------------------------------------------

def test_successors_move_the_blank_up_down_left_right():
    problem = TilesProblem(3, 3, (1, 2, 3, 4, 0, 5, 6, 7, 8))
    moves = [(str(action), child) for action, child, cost in problem.successors(problem.start)]
    assert moves == [
        ("tile 2 down", (1, 0, 3, 4, 2, 5, 6, 7, 8)),
        ("tile 7 up", (1, 2, 3, 4, 7, 5, 6, 0, 8)),
        ("tile 4 right", (1, 2, 3, 0, 4, 5, 6, 7, 8)),
        ("tile 5 left", (1, 2, 3, 4, 5, 0, 6, 7, 8)),
    ]
    corner = TilesProblem(2, 2, (0, 1, 2, 3))
    assert [str(action) for action, _, _ in corner.successors(corner.start)] == ["tile 2 up", "tile 1 left"]


def test_actions_read_back_and_replay():
    problem = DOMAIN.load(DATA / "aima-26.txt")
    result = search(problem, "astar", HEURISTICS["linear-conflict"])
    actions = [DOMAIN.parse_action(problem, DOMAIN.format_action(problem, a), "plan", 1) for a in result.actions]
    assert problem.replay(actions) == problem.goal
    assert actions[0] == Slide(actions[0].tile, actions[0].direction)


def test_solvability_follows_the_parity_rule():
    assert is_solvable(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0), (1, 2, 3, 4, 5, 6, 7, 8, 0))
    assert not is_solvable(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0), (1, 2, 3, 4, 5, 6, 7, 8, 0))
    # Sam Loyd's 14-15 puzzle
    assert not is_solvable(4, 4, (*range(1, 14), 15, 14, 0), (*range(1, 16), 0))
    # even width: the blank one row up changes the parity
    assert is_solvable(4, 4, (*range(1, 12), 0, 13, 14, 15, 12), (*range(1, 16), 0))
    rng = random.Random(3)
    for rows, cols in ((2, 2), (2, 3), (3, 4), (4, 4)):
        for _ in range(20):
            state = random_walk(rows, cols, 50, rng)
            assert is_solvable(rows, cols, state, (*range(1, rows * cols), 0))


def test_an_unsolvable_puzzle_is_reported_at_once():
    problem = parse_tiles("2 1 3\n4 5 6\n7 8 0\n")
    assert not problem.solvable
    assert "unsolvable" in DOMAIN.describe(problem)
    result = search(problem, "astar", HEURISTICS["linear-conflict"])
    assert result.status is Status.UNSOLVABLE
    assert result.statistics.expansions <= 1
    small = parse_tiles("2 1\n3 0\n")  # the uninformed search agrees, on a space it can exhaust
    assert search(small, "bfs").status is Status.UNSOLVABLE


# ----- optimal costs and the heuristics --------------------------------------------------

@pytest.mark.parametrize("name", sorted(EIGHT_PUZZLES))
@pytest.mark.parametrize("heuristic", ["zero", "misplaced", "manhattan", "linear-conflict"])
def test_astar_finds_the_optimal_cost_of_the_samples(name, heuristic):
    problem = DOMAIN.load(DATA / name)
    result = search(problem, "astar", HEURISTICS[heuristic])
    assert result.solved
    assert result.cost == EIGHT_PUZZLES[name] == bfs_cost(name)
    assert problem.replay(result.actions) == problem.goal


def test_the_fifteen_puzzle_sample_is_solved_with_linear_conflict():
    problem = DOMAIN.load(DATA / "fifteen-46.txt")
    result = search(problem, "astar", HEURISTICS["linear-conflict"])
    assert result.cost == 46
    assert result.statistics.expansions < 100_000
    assert HEURISTICS["linear-conflict"](problem.start, problem) <= 46


def test_fewest_removals_is_the_minimum_not_the_pair_count():
    assert fewest_removals((0, 1, 2)) == 0
    assert fewest_removals((-1, 2, -1, 1)) == 1
    # 3 2 1 0 in one line: six conflicting pairs, but keeping one tile leaves three to move
    assert fewest_removals((3, 2, 1, 0)) == 3
    assert fewest_removals((1, 2, 3, 0)) == 1  # three pairs, one tile to move


def test_linear_conflict_counts_conflicts_in_rows_and_columns():
    goal = TilesProblem(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    swapped = (2, 1, 3, 4, 5, 6, 7, 8, 0)  # unsolvable, but the tables apply to any state
    assert HEURISTICS["manhattan"](swapped, goal) == 2
    assert HEURISTICS["linear-conflict"](swapped, goal) == 4
    column = (4, 2, 3, 1, 5, 6, 7, 8, 0)
    assert HEURISTICS["linear-conflict"](column, goal) == 4


def test_heuristics_are_admissible_and_consistent_over_the_whole_8_puzzle(space):
    """``heurist check tiles`` on the whole 181,440-state space: the claims of the docstrings hold."""
    assert space.size == 181_440
    assert space.distance.max() == 31
    for name, against in (("misplaced", "zero"), ("manhattan", "misplaced"),
                          ("linear-conflict", "manhattan")):
        report = run_checks(space, HEURISTICS[name], name, HEURISTICS[against], against)
        assert report.admissible, report.admissibility_witness
        assert report.consistent, report.consistency_witness
        assert report.goal_aware and report.safe
        assert report.dominance.dominates, report.dominance.witness
        if name == "linear-conflict":
            assert report.dominance.above > 0  # strictly better somewhere


# ----- generated instances ---------------------------------------------------------------

def test_generated_instances_are_solvable_and_repeatable():
    first = DOMAIN.generate(seed=4, count=5, rows=3, cols=3, steps=40)
    assert first == DOMAIN.generate(seed=4, count=5, rows=3, cols=3, steps=40)
    assert first != DOMAIN.generate(seed=5, count=5, rows=3, cols=3, steps=40)
    assert len({text for _, text in first}) == 5
    for name, text in first:
        problem = DOMAIN.parse(text, name)
        assert problem.solvable and problem.start != problem.goal
        result = search(problem, "astar", HEURISTICS["linear-conflict"])
        assert result.solved and result.cost <= 40
    rectangle = DOMAIN.generate(seed=1, count=2, rows="2", cols="4", steps="30")
    assert all(DOMAIN.parse(text).cols == 4 for _, text in rectangle)


def test_bad_generator_options_are_input_errors():
    with pytest.raises(InputError):
        DOMAIN.generate(rows=1, cols=1)
    with pytest.raises(InputError):
        DOMAIN.generate(rows="zero")
    with pytest.raises(InputError):
        DOMAIN.generate(blocks=3)


# ----- pictures --------------------------------------------------------------------------

def _texts(items) -> list[Text]:
    found = []
    for item in items:
        if isinstance(item, Group):
            found.extend(_texts(item.items))
        elif isinstance(item, Text):
            found.append(item)
    return found


def test_the_picture_shows_the_tiles_of_the_state():
    problem = DOMAIN.load(DATA / "hardest-31.txt")
    states = [problem.start, *[child for _, child, _ in problem.successors(problem.start)][:1]]
    scene = DOMAIN.draw(problem, states, 1)
    assert isinstance(scene, Scene)
    labels = [t for t in _texts(scene.items) if t.role == "tile-label"]
    # read the tiles back by position: rows by y, then columns by x
    ordered = sorted(labels, key=lambda t: (round(t.y), t.x))
    shown = [int(t.text) for t in ordered]
    assert shown == [tile for tile in states[1] if tile]
    moved = [item for item in scene.items if "moved" in getattr(item, "role", "")]
    assert len(moved) == 1
    assert DOMAIN.draw(problem, states, 0) is not None


def test_a_puzzle_with_another_goal_shows_the_goal_too():
    problem = DOMAIN.load(DATA / "aima-26.txt")
    scene = DOMAIN.draw(problem, [problem.start])
    labels = [t.text for t in _texts(scene.items) if t.role == "tile-label"]
    assert len(labels) == 16


def test_terminal_colours_follow_the_goal():
    problem = TilesProblem(2, 2, (1, 2, 0, 3))
    style = DOMAIN.terminal_style(problem, problem.start)
    assert style(0, 0, "1") and "7cc67c" in style(0, 0, "1")
    assert "f5a65b" in style(1, 2, "3")
    assert style(1, 0, ".") is None and style(0, 1, " ") is None
