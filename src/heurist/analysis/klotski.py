"""Klotski state spaces built with numpy, a whole breadth-first layer at a time.

A Klotski state is a Python integer of ``4 * cells`` bits (80 on the 5x4
board), too wide for one machine word. Here a state is two ``uint64`` words,
``low = big | vertical << cells`` and ``high = horizontal | single << cells``,
which holds every board of up to 32 cells (the course's boards have 20, 24
and 32). The moves of every state of a layer are generated at once, shape by
shape and direction by direction, with the same bitboard tests as
:meth:`~heurist.domains.klotski.board.Geometry.step_successors`.

States are deduplicated on one 64-bit key: the state itself when it fits in
64 bits (boards of up to 16 cells), otherwise a multiplicative hash of the
two words. Hash collisions are detected, never assumed away: equal keys are
always compared word by word, and a collision raises
:class:`HashCollision`, on which :func:`klotski_state_space` falls back to
the plain-Python :func:`~heurist.analysis.space.explore`.

Breadth-first layers of an undirected graph only touch the layer before and
the layer after, so a new layer is the successors of the current one minus
the current and the previous layer: no global visited set is needed.
"""

from __future__ import annotations

import numpy as np

from heurist.analysis.space import DEFAULT_MAX_STATES, StateSpace, StateSpaceTooLarge, explore
from heurist.domains.klotski.board import Geometry
from heurist.domains.klotski.problem import KlotskiProblem

MAX_CELLS = 32
"""Boards up to this many cells fit the two-word encoding."""

_MULTIPLIER_LOW = np.uint64(0x9E3779B97F4A7C15)
_MULTIPLIER_HIGH = np.uint64(0xC2B2AE3D27D4EB4F)
_CHUNK = 1 << 17  # states whose successors are generated in one go (bounds the temporary arrays)


class HashCollision(Exception):
    """Two different states hashed to the same key."""


def _u64(value: int) -> np.uint64:
    return np.uint64(value)


class _Moves:
    """The vectorised one-cell move generator of one board size."""

    def __init__(self, geometry: Geometry):
        if geometry.cells > MAX_CELLS:
            raise ValueError(f"boards of more than {MAX_CELLS} cells do not fit two words")
        self.geometry = geometry
        n, w = geometry.cells, geometry.width
        self.cells, self.width = n, w
        self.full = _u64(geometry.full)
        self.exact_keys = 4 * n <= 64
        self.rules = []
        for shape, delta, movable, offsets, _ in geometry.step_rules:
            word, shift = divmod(shape, 2)
            self.rules.append((shape, _u64(movable), tuple(offsets), word, delta, _u64(shift * n)))

    def split(self, states: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Python-int states to (low, high) words."""
        n2 = 2 * self.cells
        low_mask = (1 << n2) - 1
        low = np.array([s & low_mask for s in states], dtype=np.uint64)
        high = np.array([s >> n2 for s in states], dtype=np.uint64)
        return low, high

    def join(self, low: np.ndarray, high: np.ndarray) -> list[int]:
        """(low, high) words back to Python-int states."""
        n2 = 2 * self.cells
        return [a | b << n2 for a, b in zip(low.tolist(), high.tolist())]

    def keys(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        if self.exact_keys:
            return low | (high << _u64(2 * self.cells))
        return (low * _MULTIPLIER_LOW) ^ ((high ^ (high >> _u64(29))) * _MULTIPLIER_HIGH)

    def successors(self, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(parent row, child low, child high) for every one-cell move of every given state."""
        n, w, full = _u64(self.cells), _u64(self.width), self.full
        one = _u64(1)
        big, vertical = low & full, low >> n
        horizontal, single = high & full, high >> n
        occupied = (
            big | (big << one) | (big << w) | (big << (w + one))
            | vertical | (vertical << w) | horizontal | (horizontal << one) | single
        )
        empty = full & ~occupied
        shifted: dict[int, np.ndarray] = {}
        masks = (big, vertical, horizontal, single)
        words = (low, high)
        parents, child_low, child_high = [], [], []
        for shape, movable, offsets, word, delta, shift in self.rules:
            free = masks[shape] & movable
            for offset in offsets:
                if offset not in shifted:
                    shifted[offset] = empty >> _u64(offset) if offset >= 0 else empty << _u64(-offset)
                free = free & shifted[offset]
            rows = np.flatnonzero(free)
            remaining = free[rows]
            # Peel off the lowest movable anchor of every state at once, until none is left.
            while rows.size:
                lowest = remaining & (~remaining + one)
                moved = lowest << _u64(delta) if delta > 0 else lowest >> _u64(-delta)
                flip = (lowest | moved) << shift
                parents.append(rows)
                changed = words[word][rows] ^ flip
                same = words[1 - word][rows]
                child_low.append(changed if word == 0 else same)
                child_high.append(same if word == 0 else changed)
                remaining = remaining ^ lowest
                more = remaining != 0
                rows, remaining = rows[more], remaining[more]
        if not parents:
            empty_array = np.zeros(0, dtype=np.uint64)
            return np.zeros(0, dtype=np.int64), empty_array, empty_array
        return np.concatenate(parents), np.concatenate(child_low), np.concatenate(child_high)


def _check_same(low_a, high_a, low_b, high_b) -> None:
    if np.any((low_a != low_b) | (high_a != high_b)):
        raise HashCollision("two states share a 64-bit key")


def _not_in(keys, low, high, layer_keys, layer_low, layer_high) -> np.ndarray:
    """Mask of the candidates absent from a sorted layer (equal keys are compared in full)."""
    if layer_keys.size == 0:
        return np.ones(keys.size, dtype=bool)
    position = np.minimum(np.searchsorted(layer_keys, keys), layer_keys.size - 1)
    found = layer_keys[position] == keys
    at = position[found]
    _check_same(low[found], high[found], layer_low[at], layer_high[at])
    return ~found


def klotski_numpy_space(problem: KlotskiProblem, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The start's component under the one-cell metric, and its edges, built layer by layer."""
    if problem.metric != "step":
        raise ValueError("the numpy builder implements the one-cell (step) metric only")
    moves = _Moves(problem.geometry)
    start_low, start_high = moves.split([problem.initial_state])
    layer = (moves.keys(start_low, start_high), start_low, start_high)
    previous = (np.zeros(0, dtype=np.uint64),) * 3
    layers = [layer]
    total = 1
    while layer[0].size:
        _, low, high = layer
        candidates = []
        for begin in range(0, low.size, _CHUNK):
            _, child_low, child_high = moves.successors(low[begin:begin + _CHUNK], high[begin:begin + _CHUNK])
            candidates.append((child_low, child_high))
        child_low = np.concatenate([c[0] for c in candidates])
        child_high = np.concatenate([c[1] for c in candidates])
        child_keys = moves.keys(child_low, child_high)
        keys, unique_rows = np.unique(child_keys, return_index=True)
        # Every candidate sharing a key with the kept one must be that same state.
        first_of_key = unique_rows[np.searchsorted(keys, child_keys)]
        _check_same(child_low, child_high, child_low[first_of_key], child_high[first_of_key])
        low, high = child_low[unique_rows], child_high[unique_rows]
        fresh = _not_in(keys, low, high, *layer) & _not_in(keys, low, high, *previous)
        previous, layer = layer, (keys[fresh], low[fresh], high[fresh])
        total += int(layer[0].size)
        if total > max_states:
            raise StateSpaceTooLarge(max_states)
        if layer[0].size:
            layers.append(layer)
    keys = np.concatenate([entry[0] for entry in layers])
    low = np.concatenate([entry[1] for entry in layers])
    high = np.concatenate([entry[2] for entry in layers])
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    if np.any(sorted_keys[1:] == sorted_keys[:-1]):
        raise HashCollision("two states share a 64-bit key")
    sources, targets = [], []
    for begin in range(0, low.size, _CHUNK):
        parents, child_low, child_high = moves.successors(low[begin:begin + _CHUNK], high[begin:begin + _CHUNK])
        child_keys = moves.keys(child_low, child_high)
        at = order[np.minimum(np.searchsorted(sorted_keys, child_keys), sorted_keys.size - 1)]
        _check_same(child_low, child_high, low[at], high[at])
        sources.append(parents + begin)
        targets.append(at)
    source = np.concatenate(sources).astype(np.int64)
    target = np.concatenate(targets).astype(np.int64)
    if problem.goal_state is None:
        goal = ((low >> _u64(problem.goal_anchor)) & _u64(1)).astype(bool)
    else:
        goal_low, goal_high = moves.split([problem.goal_state])
        goal = (low == goal_low[0]) & (high == goal_high[0])
    return StateSpace(
        problem, moves.join(low, high), goal, source, target, np.ones(source.size), method="numpy"
    )


def klotski_state_space(problem: KlotskiProblem, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The numpy builder where it applies (one-cell moves, at most 32 cells), else plain Python."""
    if problem.metric == "step" and problem.geometry.cells <= MAX_CELLS:
        try:
            return klotski_numpy_space(problem, max_states)
        except HashCollision:
            pass
    return explore(problem, max_states)


__all__ = ["HashCollision", "klotski_numpy_space", "klotski_state_space"]
