"""Klotski's generated move functions against plain reference implementations, state by state."""

from __future__ import annotations

from pathlib import Path

import pytest

from heurist.domains.klotski import DOMAIN, load
from heurist.domains.klotski.board import SHAPES, Geometry, iter_bits

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"


def reference_path_successors(geometry: Geometry, state: int) -> list:
    """Each piece (by shape, then anchor) to every place a breadth-first search (up, down, left, right) reaches."""
    occupied = geometry.occupied(state)
    n = geometry.cells
    moves = []
    for shape in SHAPES:
        for anchor in iter_bits(geometry.shape_mask(state, shape)):
            cells = geometry.piece_cells[shape]
            others = occupied & ~cells[anchor]
            reached, frontier, order = {anchor}, [anchor], []
            while frontier:
                position = frontier.pop(0)
                for targets in geometry.step_targets[shape]:
                    nxt = targets.get(position)
                    if nxt is not None and nxt not in reached and not cells[nxt] & others:
                        reached.add(nxt)
                        frontier.append(nxt)
                        order.append(nxt)
            for position in order:
                moves.append(((shape, anchor, position), state ^ (((1 << anchor) | (1 << position)) << (shape * n)), 1))
    return moves


def some_states(problem, limit: int = 3000) -> list[int]:
    states, seen = [problem.initial_state], {problem.initial_state}
    for state in states:
        for _, child, _ in problem.successors(state):
            if child not in seen and len(seen) < limit:
                seen.add(child)
                states.append(child)
    return states


@pytest.mark.parametrize("name", ["w23_s24_char/testhrd_hard1.txt", "f24_w25_goal/hard2.txt", "f24_w25_goal/med3.txt"])
def test_path_moves_are_the_reference_ones_in_its_order(name):
    problem = load(DATA / name, metric="path", symmetry=False)
    geometry = problem.geometry
    for state in some_states(problem) * 2:  # the second time from the remembered moves
        assert geometry.path_successors(state) == reference_path_successors(geometry, state)


@pytest.mark.parametrize("pieces, rows, cols", [("1,2,1,3", 5, 4), ("2,1,1,2", 5, 5), ("1,3,3,3", 4, 7), ("1,0,1,2", 3, 3)])
def test_path_moves_on_other_boards(pieces, rows, cols):
    for _, text in DOMAIN.generate(seed=7, count=2, pieces=pieces, rows=rows, cols=cols):
        problem = DOMAIN.parse(text, metric="path", symmetry=False)
        geometry = problem.geometry
        for state in some_states(problem, 1000):
            assert geometry.path_successors(state) == reference_path_successors(geometry, state)


@pytest.mark.parametrize("metric", ["step", "slide"])
@pytest.mark.parametrize("name", ["w23_s24_char/testhrd_med4.txt", "f24_w25_goal/easy3.txt"])
def test_numpy_layers_are_the_same_whether_moved_at_once_or_rule_by_rule(monkeypatch, name, metric):
    """Small layers move every piece in one go, large ones rule by rule: the same states, edges and order."""
    import numpy as np

    from heurist.domains.klotski import space

    problem = load(DATA / name, metric=metric, symmetry=False)
    built = {}
    for small_layer in (0, 10**9):
        monkeypatch.setattr(space, "SMALL_LAYER", small_layer)
        built[small_layer] = space.klotski_numpy_space(problem)
    at_once, by_rule = built[10**9], built[0]
    assert at_once.states == by_rule.states
    assert np.array_equal(at_once.source, by_rule.source) and np.array_equal(at_once.target, by_rule.target)
    assert np.array_equal(at_once.goal, by_rule.goal)
