"""The Blokus domain: piece files, move generation, the course's reference optima, heuristics."""

from __future__ import annotations

import math
import random
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.domains.blokus import load_pieces, make_problem, parse_pieces
from heurist.domains.blokus.formats import write_course_solution
from heurist.domains.blokus.heuristics import (
    HEURISTICS,
    distance_estimate,
    reach,
    reach_below,
)
from heurist.domains.blokus.model import CoverProblem, TreeOrderCoverProblem
from heurist.domains.blokus.pieces import orientations, parse_targets
from heurist.domains.blokus.reach import _needs, _steiner_tables, _steiner_trees
from heurist.domains.blokus.strategies import closest_location_search, mini_contest_search
from heurist.errors import InputError
from heurist.search import Limits, search

DATA = Path(__file__).resolve().parents[1] / "data" / "blokus"


def problem(kind, pieces, size, start=(0, 0), targets=(), legacy=False):
    return make_problem(kind, load_pieces(DATA / pieces), size, start, tuple(targets), legacy=legacy)


# -- piece files ---------------------------------------------------------------------------


def test_standard_set_has_91_orientations_as_the_course_counts():
    pieces = load_pieces(DATA / "valid_pieces.txt")
    counts = [len(piece.orientations) for piece in pieces.pieces]
    assert counts == [1, 2, 2, 4, 2, 1, 8, 4, 4, 2, 8, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]
    assert sum(counts) == 91
    assert pieces.sizes == (1, 2, 3, 3, 4, 4, 4, 4, 4) + (5,) * 12


@pytest.mark.parametrize(
    "name, sizes",
    [
        ("small_set.txt", (1, 2, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5)),
        ("tiny_set.txt", (2, 3, 3, 4, 5)),
        ("tiny_set_2.txt", (3, 3, 4, 4, 5, 5)),
    ],
)
def test_course_piece_files_load_by_path_and_by_bundled_name(name, sizes):
    assert load_pieces(DATA / name).sizes == sizes
    assert load_pieces(name).sizes == sizes
    assert load_pieces(f"layouts/{name}").sizes == sizes


def test_crlf_and_origin_marks_read_like_plain_tiles():
    lf = parse_pieces("2\n1\nO#\n2\n#O\n 0\n", "lf.txt")
    crlf = parse_pieces("2\r\n1\r\n##\r\n2\r\n##\r\n #\r\n", "crlf.txt")
    assert [p.orientations for p in lf.pieces] == [p.orientations for p in crlf.pieces]


def test_orientations_are_distinct_rotations_and_reflections():
    l_tromino = ((0, 0), (1, 0), (1, 1))
    assert len(orientations(l_tromino)) == 4
    assert len(orientations(((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)))) == 2
    assert len(orientations(((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)))) == 1


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("x\n", 1, "number of pieces"),
        ("3\n1\n#\n1\n##\n", 6, "count mismatch"),
        ("1\n1\n   \n", 2, "no tiles"),
        ("1\n2\n###\n###\n", 2, "6 tiles"),
        ("1\n3\n#\n", 2, "announces 3 rows"),
        ("1\n2\n#\n #\n", 2, "not one polyomino"),
        ("1\nz\n#\n", 2, "number of rows"),
    ],
)
def test_malformed_piece_files_name_the_line(text, line, words):
    with pytest.raises(InputError) as error:
        parse_pieces(text, "bad.txt")
    assert error.value.line == line
    assert words in error.value.message


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[(2,2), (5, 5), (1, 4)]", ((2, 2), (5, 5), (1, 4))),
        ("[(2,2),(5,5)]", ((2, 2), (5, 5))),
        ("(3, 4)", ((3, 4),)),
        ("((1,1),)", ((1, 1),)),
    ],
)
def test_target_lists_parse_like_literal_eval(text, expected):
    assert parse_targets(text) == expected


@pytest.mark.parametrize("text", ["[(2,2), (5,", "[1, 2]", "[(1, 2, 3)]", "[(1.5, 2)]", "import os", "'ab'"])
def test_bad_target_lists_are_input_errors(text):
    with pytest.raises(InputError):
        parse_targets(text)


def test_start_and_targets_off_the_board_are_input_errors():
    with pytest.raises(InputError, match="off the 6x6 board"):
        problem("cover", "small_set.txt", (6, 6), (6, 0), [(1, 1)])
    with pytest.raises(InputError, match=r"target \(2, 9\) is off"):
        problem("cover", "small_set.txt", (6, 6), (0, 0), [(2, 9)])


# -- move generation ---------------------------------------------------------------------------


def naive_legal(problem, state):
    """The course's check_move_valid, square by square, over every placement."""
    occupied = set(problem.board.cells_of(state[0]))
    legal = []
    for move in problem.board.placements:
        if state[1] >> move.piece & 1:
            continue
        if any(
            cell in occupied or (r + dr, c + dc) in occupied
            for cell in move.cells
            for r, c in [cell]
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        ):
            continue
        if occupied:
            connected = any(
                (r + dr, c + dc) in occupied for r, c in move.cells for dr in (1, -1) for dc in (1, -1)
            )
        else:
            connected = problem.start in move.cells
        if connected:
            legal.append(move)
    return legal


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rows=st.integers(3, 8),
    cols=st.integers(3, 8),
    legacy=st.booleans(),
)
def test_bitboard_moves_match_the_rules_square_by_square(seed, rows, cols, legacy):
    rng = random.Random(seed)
    start = (rng.randrange(rows), rng.randrange(cols))
    instance = problem("fill", "small_set.txt", (rows, cols), start, legacy=legacy)
    state = instance.initial_state
    while True:
        moves = instance.legal_moves(state)
        assert [m.order for m in moves] == [m.order for m in naive_legal(instance, state)]
        if not moves:
            break
        state = instance.apply(state, rng.choice(moves))


def test_legacy_board_never_anchors_a_piece_in_the_last_row_or_column():
    fixed = problem("fill", "valid_pieces.txt", (5, 5))
    legacy = problem("fill", "valid_pieces.txt", (5, 5), legacy=True)
    assert any(m.row == 4 for m in fixed.board.placements)
    assert not any(m.row == 4 or m.col == 4 for m in legacy.board.placements)
    assert len(legacy.board.placements) < len(fixed.board.placements)


def breadth_first_count_testing_goals_when_popped(instance):
    """The BFS most course submissions wrote: goal test on pop, visited set on push."""
    state = instance.initial_state
    frontier, seen = deque([state]), {state}
    while frontier:
        state = frontier.popleft()
        if instance.is_goal(state):
            return instance.expanded
        for _, child, _ in instance.successors(state):
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    raise AssertionError("no goal")


@pytest.mark.parametrize("legacy, course_count", [(False, 3119), (True, 2114)])
def test_state_space_reproduces_the_course_bfs_counts_for_tiny_fill(legacy, course_count):
    # 3119: four independent 2022-2024 reports on the fixed board; 2114: a 2018 report on the old one.
    instance = problem("fill", "tiny_set.txt", (4, 7), legacy=legacy)
    assert breadth_first_count_testing_goals_when_popped(instance) == course_count


# -- the course's reference optima -----------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["dfs", "bfs"])
def test_tiny_fill_uses_all_17_tiles(algorithm):
    instance = problem("fill", "tiny_set.txt", (4, 7))
    result = search(instance, algorithm)
    assert result.solved and result.cost == 5
    assert instance.score(result.states[-1]) == 17


@pytest.mark.parametrize("algorithm, heuristic", [("bfs", "null"), ("ucs", "null"), ("astar", "null"), ("astar", "reach")])
def test_tiny_set_2_corners_6x6_costs_17(algorithm, heuristic):
    instance = problem("corners", "tiny_set_2.txt", (6, 6))
    result = search(instance, algorithm, HEURISTICS[heuristic])
    assert result.solved and instance.score(result.states[-1]) == 17
    final = result.states[-1][0]
    assert all(final & instance.board.bit(*corner) for corner in [(0, 5), (5, 0), (5, 5)])


@pytest.mark.parametrize("algorithm", ["ucs", "astar"])
def test_small_set_corners_5x5_costs_13(algorithm):
    result = search(problem("corners", "small_set.txt", (5, 5)), algorithm, reach)
    assert result.cost == 13


def test_tiny_set_2_corners_8x8_costs_24():
    assert search(problem("corners", "tiny_set_2.txt", (8, 8)), "astar", reach).cost == 24


COVER_6 = ((3, 3), [(2, 2), (5, 5), (1, 4)])
COVER_10 = ((3, 3), [(2, 2), (5, 5), (6, 7)])
SUB_1 = ((7, 7), [(5, 5), (8, 8), (4, 9)])
SUB_2 = ((5, 5), [(3, 4), (6, 6), (7, 5)])


@pytest.mark.parametrize("legacy, cost", [(False, 7), (True, 8)])
def test_small_set_cover_6x6_costs_7_and_8_on_the_legacy_board(legacy, cost):
    instance = problem("cover", "small_set.txt", (6, 6), *COVER_6, legacy=legacy)
    assert search(instance, "astar", reach).cost == cost


def test_small_set_cover_10x10_costs_8():
    assert search(problem("cover", "small_set.txt", (10, 10), *COVER_10), "astar", reach).cost == 8


@pytest.mark.parametrize("start_and_targets, optimum", [(SUB_1, 8), (SUB_2, 6)])
def test_optimal_covers_behind_the_sub_optimal_commands(start_and_targets, optimum):
    instance = problem("cover", "valid_pieces.txt", (10, 10), *start_and_targets)
    assert search(instance, "astar", reach).cost == optimum
    contest = mini_contest_search(instance, budget=60)
    assert contest.result.cost == optimum and contest.proven_optimal


@pytest.mark.parametrize("start_and_targets", [SUB_1, SUB_2])
def test_sub_optimal_returns_a_legal_cover_no_worse_than_the_course(start_and_targets):
    instance = problem("cover", "valid_pieces.txt", (10, 10), *start_and_targets)
    outcome = closest_location_search(instance)
    state = instance.initial_state
    for move in outcome.result.actions:
        state = instance.apply(state, move)  # raises if a move is illegal
    assert instance.is_goal(state)
    assert instance.score(state) == outcome.result.cost <= 9
    # the course sums the sub-searches' counts; A* calls successors for every expansion but the goal's
    assert outcome.expanded == sum(part.statistics.expansions - 1 for part in outcome.searches)



@pytest.mark.parametrize("strategy", [closest_location_search, mini_contest_search])
def test_a_strategy_stopped_by_a_limit_says_so_not_that_no_cover_exists(strategy):
    instance = problem("cover", "valid_pieces.txt", (10, 10), *SUB_1)
    outcome = strategy(instance, limits=Limits(max_expansions=1))
    assert not outcome.result.solved and outcome.result.limit is not None
    report = write_course_solution(instance, outcome.result, expanded=outcome.expanded)
    assert "limit was reached" in report and "every reachable position" not in report

# -- heuristics -----------------------------------------------------------------------------------


SMALL_PIECES = parse_pieces("6\n1\n#\n1\n##\n2\n##\n#\n1\n###\n2\n###\n #\n2\n##\n ##\n", "small.txt")
"""Monomino, domino, both trominoes, T and Z tetrominoes: small pieces, where estimates go wrong."""


def random_cover_instances(count, seed, pieces=SMALL_PIECES):
    """Small cover instances from random playouts, with the optimum from uniform-cost search."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        base = make_problem("cover", pieces, (6, 6), (rng.randrange(6), rng.randrange(6)), ((0, 0),))
        state = base.initial_state
        for _ in range(rng.randrange(0, 3)):
            moves = base.legal_moves(state)
            state = base.apply(state, rng.choice(moves))
        free = [cell for cell in base.board.cells_of(base.board.full & ~state[0])]
        targets = tuple(rng.sample(free, rng.randrange(1, 4)))
        instance = CoverProblem(base.board, base.start, targets, initial=state)
        result = search(instance, "ucs")
        cases.append((instance, state, result.cost if result.solved else math.inf))
    return cases


@pytest.mark.parametrize("pieces, seed", [(SMALL_PIECES, 7), (load_pieces(DATA / "tiny_set_2.txt"), 5)])
def test_reach_never_overestimates_on_random_cover_instances(pieces, seed):
    # small pieces (monomino, domino) and bulky ones (square, T and Z pentominoes)
    for instance, state, optimum in random_cover_instances(50, seed, pieces):
        assert reach(state, instance) <= optimum


MINI_CONTEST = ((0, 1), (0, 9), (5, 5), (8, 8), (4, 9), (9, 2))


def test_exact_steiner_trees_sharpen_reach_on_the_mini_contest():
    instance = problem("cover", "valid_pieces.txt", (15, 15), (0, 0), MINI_CONTEST)
    start = instance.initial_state
    # without them: half a Held-Karp tour, 17 king-move cells and a Manhattan budget of 23
    assert _needs(start, instance, instance.target_mask, settled=lambda cells, budget: True) == (17, 23)
    # exact trees: 19 king moves from the start square (20 squares), Manhattan length 26 (+ 2 from the start)
    assert _needs(start, instance, instance.target_mask) == (20, 28)
    assert reach(start, instance) == 21
    assert reach_below(start, instance, 15) == 17  # the cheaper bound, enough to prune below 15


def naive_partition_bound(values, subset):
    """The cheapest way to split ``subset`` into groups, a group A costing ``values[A]``: every partition tried."""
    if not subset:
        return 0
    low = subset & -subset
    rest = subset ^ low
    best = math.inf
    sub = rest
    while True:
        best = min(best, values[sub | low] + naive_partition_bound(values, rest ^ sub))
        if not sub:
            break
        sub = (sub - 1) & rest
    return best


@pytest.mark.parametrize("seed", range(5))
def test_steiner_partitions_match_every_split_tried(seed):
    # the exact trees cut the tree at the root into groups of targets; check that cut against brute force
    rng = random.Random(seed)
    targets = tuple(rng.sample([(r, c) for r in range(8) for c in range(8)], 6))
    instance = problem("cover", "small_set.txt", (8, 8), (0, 0), targets)
    king, manhattan, index_of, _ = _steiner_tables(instance, instance.target_mask)
    state = instance.initial_state
    for _ in range(3):
        moves = instance.legal_moves(state)
        if not moves:
            break
        state = instance.apply(state, rng.choice(moves))
    occupied = state[0]
    anchors = instance.board.anchors(occupied, instance.start_bit) & ~instance.board.orthogonal(occupied)
    uncovered = instance.target_mask & ~occupied
    exact = _steiner_trees(instance, instance.target_mask, uncovered, anchors, occupied or instance.start_bit)
    every = range(instance.board.rows * instance.board.stride)
    squares = [bit for bit in every if anchors >> bit & 1]
    roots = [bit for bit in every if (occupied or instance.start_bit) >> bit & 1]
    subset = sum(1 << index for bit, index in index_of.items() if uncovered & bit)
    by_king = [min(int(king[square][group]) for square in squares) + 1 for group in range(len(king[0]))]
    by_manhattan = [min(int(manhattan[square][group]) for square in roots) for group in range(len(king[0]))]
    assert exact == (naive_partition_bound(by_king, subset), naive_partition_bound(by_manhattan, subset))


@pytest.mark.parametrize("pieces, seed", [(SMALL_PIECES, 3), (load_pieces(DATA / "tiny_set_2.txt"), 4)])
def test_reach_never_overestimates_with_many_targets(pieces, seed):
    # four to six targets, where the exact Steiner trees are most often the binding bound
    rng = random.Random(seed)
    raised = 0
    for _ in range(10):
        base = make_problem("cover", pieces, (5, 6), (rng.randrange(5), rng.randrange(6)), ((0, 0),))
        state = base.initial_state
        for _ in range(rng.randrange(0, 2)):
            moves = base.legal_moves(state)
            state = base.apply(state, rng.choice(moves))
        free = base.board.cells_of(base.board.full & ~state[0])
        targets = tuple(rng.sample(free, rng.randrange(4, 7)))
        instance = CoverProblem(base.board, base.start, targets, initial=state)
        result = search(instance, "astar", HEURISTICS["null"])
        assert reach(state, instance) <= (result.cost if result.solved else math.inf)
        raised += reach(state, instance) > reach_below(state, instance, -1)  # -1: the bound without them
    assert raised >= 3


def test_reach_dead_ends_are_real():
    base = make_problem("cover", SMALL_PIECES, (6, 6), (0, 0), ((5, 5),))
    domino = next(m for m in base.legal_moves(base.initial_state) if set(m.cells) == {(0, 0), (0, 1)})
    state = base.apply(base.initial_state, domino)
    touching = CoverProblem(base.board, (0, 0), ((0, 2),), initial=state)  # edge-adjacent to (0, 1)
    assert reach(state, touching) == math.inf
    assert not search(touching, "ucs").solved


def test_the_write_up_estimate_overestimates_so_it_is_not_admissible():
    # A Z-tetromino on (0,0) (1,0) (1,1) (2,1); target (4,0) is "in line" with (1,0) at distance 3,
    # so the estimate says 4, yet a domino on (3,0)-(4,0) covers it for 2.
    pieces = load_pieces(DATA / "small_set.txt")
    base = make_problem("cover", pieces, (6, 6), (0, 0), ((4, 0),))
    first = next(
        m for m in base.legal_moves(base.initial_state) if set(m.cells) == {(0, 0), (1, 0), (1, 1), (2, 1)}
    )
    state = base.apply(base.initial_state, first)
    after = CoverProblem(base.board, (0, 0), ((4, 0),), initial=state)
    assert distance_estimate(state, after) == 4
    assert search(after, "ucs").cost == 2
    assert reach(state, after) <= 2


def test_the_write_up_estimate_misses_the_optimum_of_a_course_command():
    result = search(problem("corners", "small_set.txt", (5, 5)), "astar", HEURISTICS["cover"])
    assert result.cost == 14  # the optimum is 13 (test_small_set_corners_5x5_costs_13)
    admissible = search(problem("corners", "small_set.txt", (5, 5)), "astar", HEURISTICS["blokus_corners_heuristic"])
    assert admissible.cost == 13


def test_course_heuristic_names_are_aliases():
    # The course's names stand for the admissible bound; the write-ups' estimate is "cover" (or "corners").
    assert HEURISTICS.resolve("null_heuristic") is HEURISTICS["null"]
    assert HEURISTICS.resolve("blokus_corners_heuristic") is HEURISTICS["reach"]
    assert HEURISTICS.resolve("blokus_cover_heuristic") is HEURISTICS["reach"]
    assert HEURISTICS.resolve("corners") is HEURISTICS["cover"]
    with pytest.raises(InputError, match="unknown heuristic"):
        HEURISTICS.resolve("blokus_magic_heuristic")


def test_fill_heuristic_counts_pieces_in_hand():
    instance = problem("fill", "tiny_set.txt", (4, 7))
    assert reach(instance.initial_state, instance) == 5
    result = search(instance, "astar", reach)
    assert result.cost == 5


def test_tree_order_keeps_the_optimum_on_random_instances():
    for instance, state, optimum in random_cover_instances(30, seed=11):
        ordered = TreeOrderCoverProblem(instance.board, instance.start, instance.targets, initial=state)
        result = search(ordered, "astar", reach)
        assert (result.cost if result.solved else math.inf) == optimum


def test_instance_section_after_the_pieces_sets_the_puzzle():
    text = "1\n1\n#\n\n# heurist blokus instance\npuzzle: cover\nboard: 3 4\nstart: 1 2\ntargets: [(1, 2)]\n"
    instance = parse_pieces(text, "inst.txt").instance
    assert (instance.puzzle, instance.board_size, instance.start, instance.targets) == ("cover", (3, 4), (1, 2), ((1, 2),))
    assert parse_pieces("1\n1\n#\nanything after the pieces\n", "plain.txt").instance.puzzle is None


@pytest.mark.parametrize(
    "section, words",
    [("puzzle: sideways", "unknown puzzle"), ("board: 3", "cannot read board"), ("colour: red", "expected 'puzzle:'")],
)
def test_bad_instance_sections_name_the_line(section, words):
    with pytest.raises(InputError) as error:
        parse_pieces(f"1\n1\n#\n# heurist blokus instance\n{section}\n", "inst.txt")
    assert error.value.line == 5 and words in error.value.message
