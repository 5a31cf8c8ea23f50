"""Blokus moves and bounds computed for all the children of a state at once agree with the one-by-one code."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.domains.blokus import load_pieces, make_problem
from heurist.domains.blokus.heuristics import (
    reach,
    reach_below,
    reach_children,
    reach_floors,
)
from heurist.domains.blokus.model import CoverProblem, TreeOrderCoverProblem
from heurist.domains.blokus.reach import (
    _knapsacks,
    _knapsacks_by_loop,
    _steiner_children,
    _steiner_trees,
)
from heurist.domains.blokus.strategies import _BoundedProblem
from heurist.search import search

DATA = Path(__file__).resolve().parents[1] / "data" / "blokus"
PIECE_FILES = ("small_set.txt", "tiny_set_2.txt", "valid_pieces.txt")


def random_cover_state(rng: random.Random, pieces: str, rows: int, cols: int, targets: int, moves: int):
    """A cover instance whose targets are drawn among the squares left free after a few random moves."""
    base = make_problem("cover", load_pieces(DATA / pieces), (rows, cols), (rng.randrange(rows), rng.randrange(cols)),
                        ((0, 0),))
    state = base.initial_state
    for _ in range(moves):
        legal = base.legal_moves(state)
        if not legal:
            break
        state = base.apply(state, rng.choice(legal))
    free = base.board.cells_of(base.board.full & ~state[0])
    chosen = tuple(rng.sample(free, min(targets, len(free))))
    return CoverProblem(base.board, base.start, chosen, initial=state), state


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rows=st.integers(2, 9),
    cols=st.integers(2, 9),
    legacy=st.booleans(),
    pieces=st.sampled_from(PIECE_FILES),
)
def test_legal_orders_are_the_legal_placements(seed, rows, cols, legacy, pieces):
    rng = random.Random(seed)
    instance = make_problem("fill", load_pieces(DATA / pieces), (rows, cols), (rng.randrange(rows), rng.randrange(cols)),
                            legacy=legacy)
    board = instance.board
    state = instance.initial_state
    while True:
        for within in (-1, board.diagonal(state[0]) & rng.getrandbits(board.rows * board.stride)):
            expected = [move.order for move in board.legal_placements(*state, instance.start_bit, within)]
            assert board.legal_orders(*state, instance.start_bit, within).tolist() == expected
        moves = instance.legal_moves(state)
        if not moves:
            break
        state = instance.apply(state, rng.choice(moves))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 4), st.integers(0, 6)), max_size=21))
def test_knapsack_tables_match_the_loop(kinds):
    kinds = tuple(sorted(kinds))
    assert _knapsacks(kinds) == _knapsacks_by_loop(kinds)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rows=st.integers(4, 10),
    cols=st.integers(4, 10),
    targets=st.integers(1, 6),
    moves=st.integers(0, 4),
    pieces=st.sampled_from(PIECE_FILES),
    cap=st.integers(0, 30),
)
def test_reach_floors_never_exceed_reach(seed, rows, cols, targets, moves, pieces, cap):
    rng = random.Random(seed)
    instance, state = random_cover_state(rng, pieces, rows, cols, targets, moves)
    board = instance.board
    orders = board.legal_orders(*state, instance.start_bit)
    floors = reach_floors(instance, state, orders, cap)
    if floors is None:
        assert not len(orders)
        return
    for order, floor in zip(orders.tolist(), floors.tolist()):
        move = board.placements[order]
        child = (state[0] | move.mask, state[1] | 1 << move.piece)
        assert floor <= cap
        assert floor <= reach(child, instance)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rows=st.integers(3, 10),
    cols=st.integers(3, 10),
    targets=st.integers(1, 7),
    moves=st.integers(0, 5),
    pieces=st.sampled_from(PIECE_FILES),
)
def test_reach_of_all_children_is_reach_of_each(seed, rows, cols, targets, moves, pieces):
    # the exact Steiner trees of the siblings computed together, the rest as for one state
    rng = random.Random(seed)
    instance, state = random_cover_state(rng, pieces, rows, cols, targets, moves)
    board = instance.board
    orders = board.legal_orders(*state, instance.start_bit)
    expected = []
    for order in orders.tolist():
        move = board.placements[order]
        expected.append(reach((state[0] | move.mask, state[1] | 1 << move.piece), instance))
    assert reach_children(instance, state, orders) == expected
    trees = _steiner_children(instance, state, orders)
    if trees is None:
        return
    for order, batched in zip(orders.tolist(), trees):
        move = board.placements[order]
        occupied = state[0] | move.mask
        anchors = board.anchors(occupied, instance.start_bit) & ~board.orthogonal(occupied)
        uncovered = instance.target_mask & ~occupied
        if anchors and uncovered:
            assert batched == _steiner_trees(instance, instance.target_mask, uncovered, anchors, occupied)


def pruned_astar(instance, state, bound):
    """The mini-contest's pruning A* as a plain heuristic: reach_below, infinite once f reaches the bound."""
    ordered = TreeOrderCoverProblem(instance.board, instance.start, instance.targets, initial=state)
    tiles_at_start = state[0].bit_count()

    def pruning(candidate, problem):
        g = candidate[0].bit_count() - tiles_at_start
        value = reach_below(candidate, problem, bound - g)
        return math.inf if g + value >= bound else value

    return search(ordered, "astar", pruning), ordered


@pytest.mark.parametrize("seed", range(6))
def test_bounded_problem_expands_what_the_pruning_heuristic_does(seed):
    # the children pruned before generation are exactly the states the heuristic would call dead
    # (the bound of the optimum proves it, one more finds it)
    rng = random.Random(seed)
    for _ in range(3):
        instance, state = random_cover_state(rng, "small_set.txt", 7, 7, rng.randrange(2, 6), rng.randrange(0, 2))
        optimum = search(instance, "astar", reach)
        for bound in (optimum.cost, optimum.cost + 1) if optimum.solved else (math.inf,):
            plain, plain_problem = pruned_astar(instance, state, bound)
            bounded = _BoundedProblem(instance.board, instance.start, instance.targets, state, bound)
            result = search(bounded, "astar", bounded.heuristic)
            assert result.status == plain.status
            assert bounded.expanded == plain_problem.expanded
            assert result.statistics.expansions == plain.statistics.expansions
            assert [move.order for move in result.actions] == [move.order for move in plain.actions]
            assert result.cost == plain.cost
