"""Klotski state spaces built with numpy, a whole breadth-first layer at a time.

A Klotski state is a Python integer of ``4 * cells`` bits (80 on the 5x4
board), too wide for one machine word. Here a state is two ``uint64`` words,
``low = big | vertical << cells`` and ``high = horizontal | single << cells``,
which holds every board of up to 32 cells (the course's boards have 20, 24
and 32). The moves of every state of a layer are generated at once, shape by
shape and direction by direction, with the same bitboard tests as
:meth:`~heurist.domains.klotski.board.Geometry.step_successors`; under the
``slide`` metric each piece then keeps going while the next cells are empty,
and under ``path`` the places each piece can reach are flooded at once.

States are deduplicated on one 64-bit key: the state itself when it fits in
64 bits (boards of up to 16 cells), otherwise a multiplicative hash of the
two words. Hash collisions are detected, never assumed away: equal keys are
always compared word by word, and a collision raises
:class:`HashCollision`, on which :func:`klotski_state_space` falls back to
the plain-Python :func:`~heurist.search.space.explore`.

Breadth-first layers of an undirected graph only touch the layer before and
the layer after, so a new layer is the successors of the current one minus
the current and the previous layer: no global visited set is needed, and
every edge is numbered against three small sorted layers.
"""

from __future__ import annotations

import numpy as np

from heurist.domains.klotski.board import SHAPE_SIZE, SHAPES, Geometry
from heurist.domains.klotski.model import KlotskiProblem
from heurist.search.space import DEFAULT_MAX_STATES, StateSpace, StateSpaceTooLarge, explore

MAX_CELLS = 32
"""Boards up to this many cells fit the two-word encoding."""

NUMPY_METRICS = ("step", "slide", "path")
"""Move metrics the numpy builder implements: all three."""

_MULTIPLIER_LOW = np.uint64(0x9E3779B97F4A7C15)
_MULTIPLIER_HIGH = np.uint64(0xC2B2AE3D27D4EB4F)
_CHUNK = 1 << 17  # states whose successors are generated in one go (bounds the temporary arrays)
SMALL_LAYER = 2048
"""Layers of at most this many states move all their pieces in one go (fewer, larger numpy
calls: the fixed cost per call dominates small layers); larger ones one rule at a time."""


class HashCollision(Exception):
    """Two different states hashed to the same key."""


def _u64(value: int) -> np.uint64:
    return np.uint64(value)


class _Moves:
    """The vectorised move generator of one board size and metric (``step``, ``slide`` or ``path``)."""

    def __init__(self, geometry: Geometry, metric: str = "step"):
        if metric not in NUMPY_METRICS:
            raise ValueError(f"the numpy builder implements the {' and '.join(NUMPY_METRICS)} metrics only")
        self.slide = metric == "slide"
        self.path = metric == "path"
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
        self.valid = tuple(_u64(mask) for mask in geometry.valid_anchors)
        # The same rules as columns, to move the pieces of every rule at once (step and slide metrics).
        self.offsets = sorted({offset for rule in self.rules for offset in rule[2]})
        leading = [[self.offsets.index(o) for o in rule[2]] for rule in self.rules]
        all_ones = len(self.offsets)  # an extra row of the shifted-empty table with every bit set
        self.rule_shape = np.array([rule[0] for rule in self.rules], dtype=np.intp)
        self.rule_movable = np.array([int(rule[1]) for rule in self.rules], dtype=np.uint64)
        self.rule_first = np.array([cells[0] for cells in leading], dtype=np.intp)
        self.rule_second = np.array([cells[1] if len(cells) > 1 else all_ones for cells in leading], dtype=np.intp)
        self.rule_word = np.array([rule[3] for rule in self.rules], dtype=np.intp)
        self.rule_up = np.array([max(rule[4], 0) for rule in self.rules], dtype=np.uint64)
        self.rule_down = np.array([max(-rule[4], 0) for rule in self.rules], dtype=np.uint64)
        self.rule_shift = np.array([int(rule[5]) for rule in self.rules], dtype=np.uint64)
        self.cell_offsets = tuple(
            tuple(r * w + c for r in range(rows) for c in range(cols)) for rows, cols in
            (SHAPE_SIZE[shape] for shape in SHAPES)
        )

    def split(self, states: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Python-int states to (low, high) words."""
        n2 = 2 * self.cells
        low_mask = (1 << n2) - 1
        low = np.array([s & low_mask for s in states], dtype=np.uint64)
        high = np.array([s >> n2 for s in states], dtype=np.uint64)
        return low, high

    def join(self, low: np.ndarray, high: np.ndarray) -> list[int]:
        """(low, high) words back to Python-int states."""
        # object arrays: numpy's loops call Python's int operators, without a Python frame per state
        return ((high.astype(object) << (2 * self.cells)) | low.astype(object)).tolist()

    def keys(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        if self.exact_keys:
            return low | (high << _u64(2 * self.cells))
        return (low * _MULTIPLIER_LOW) ^ ((high ^ (high >> _u64(29))) * _MULTIPLIER_HIGH)

    def successors(self, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(parent row, child low, child high) for every move of every given state."""
        n, w, full = _u64(self.cells), _u64(self.width), self.full
        one = _u64(1)
        big, vertical = low & full, low >> n
        horizontal, single = high & full, high >> n
        occupied = (
            big | (big << one) | (big << w) | (big << (w + one))
            | vertical | (vertical << w) | horizontal | (horizontal << one) | single
        )
        empty = full & ~occupied
        masks = (big, vertical, horizontal, single)
        words = (low, high)
        parents, child_low, child_high = [], [], []
        if self.path:
            for shape in SHAPES:
                self._path_moves(shape, masks[shape], empty, words, (parents, child_low, child_high))
            return self._collected(parents, child_low, child_high)
        if low.size > SMALL_LAYER:
            return self._moves_rule_by_rule(low, high, masks, empty)
        return self._step_or_slide_moves(low, high, masks, empty)

    def _moves_rule_by_rule(self, low, high, masks, empty) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The moves of every piece under the step or slide metric, one rule (shape and direction) at a time.

        For large layers: fewer temporary arrays than :meth:`_step_or_slide_moves`,
        and the moves come out in the right order without a sort."""
        one = _u64(1)
        shifted: dict[int, np.ndarray] = {}
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
                self._moves_of_piece(rows, lowest, word, delta, shift, movable, offsets, words, shifted,
                                     (parents, child_low, child_high))
                remaining = remaining ^ lowest
                more = remaining != 0
                rows, remaining = rows[more], remaining[more]
        return self._collected(parents, child_low, child_high)

    def _step_or_slide_moves(self, low, high, masks, empty) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The moves of every piece under the step or slide metric, every rule (shape and direction) at once.

        A table row per rule holds which anchors of each state can take a
        step. Its non-zero entries are split into their bits, one per piece
        that moves, and every such move is made in one go; under the slide
        metric the pieces that can go further take one more step at a time.
        A stable sort by (rule, piece number within the state, counted from
        the lowest anchor) then puts the moves in the order of a loop over
        rules, then pieces, then (slide) distance, then states.
        """
        shifted = np.empty((len(self.offsets) + 1, low.size), dtype=np.uint64)
        for row, offset in enumerate(self.offsets):
            shifted[row] = empty >> _u64(offset) if offset >= 0 else empty << _u64(-offset)
        shifted[-1] = ~_u64(0)
        free = (np.stack(masks)[self.rule_shape] & self.rule_movable[:, None]
                & shifted[self.rule_first] & shifted[self.rule_second])
        movable = np.flatnonzero(free)  # flat indices: (rule, state) by rule, then state
        if movable.size == 0:
            return self._collected([], [], [])
        rules, rows = np.divmod(movable, low.size)
        # Anchors are below bit 32 (boards of at most 32 cells): one bit per piece that can move.
        bits = np.unpackbits(free.ravel()[movable].astype("<u4").view(np.uint8), bitorder="little")
        entry, anchor = np.divmod(np.flatnonzero(bits), 32)
        piece_number = np.arange(entry.size) - np.searchsorted(entry, entry)  # 0 for each entry's lowest anchor
        rules, rows = rules[entry], rows[entry]
        word = self.rule_word[rules]
        shift = self.rule_shift[rules]
        position = np.left_shift(_u64(1), anchor.astype(np.uint64))
        words = np.stack((low, high))
        without = words[word, rows] ^ (position << shift)  # the board without this piece
        same = words[1 - word, rows]
        up, down = self.rule_up[rules], self.rule_down[rules]
        order_key = (rules * 64 + piece_number).astype(np.uint16)  # small keys: a radix sort
        parents, child_low, child_high, order = [], [], [], []
        while rows.size:
            position = (position << up) >> down
            changed = without | (position << shift)
            first_word = word == 0
            parents.append(rows)
            child_low.append(np.where(first_word, changed, same))
            child_high.append(np.where(first_word, same, changed))
            order.append(order_key)
            if not self.slide:
                break
            further = (position & self.rule_movable[rules] & shifted[self.rule_first[rules], rows]
                       & shifted[self.rule_second[rules], rows])
            keep = np.flatnonzero(further)
            position, rules, rows, order_key = position[keep], rules[keep], rows[keep], order_key[keep]
            without, same, word, shift, up, down = (
                without[keep], same[keep], word[keep], shift[keep], up[keep], down[keep])
        if len(parents) == 1:
            arrangement = np.argsort(order[0], kind="stable")
            return parents[0][arrangement], child_low[0][arrangement], child_high[0][arrangement]
        arrangement = np.argsort(np.concatenate(order), kind="stable")
        return (np.concatenate(parents)[arrangement], np.concatenate(child_low)[arrangement],
                np.concatenate(child_high)[arrangement])

    @staticmethod
    def _collected(parents, child_low, child_high) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not parents:
            empty_array = np.zeros(0, dtype=np.uint64)
            return np.zeros(0, dtype=np.int64), empty_array, empty_array
        return np.concatenate(parents), np.concatenate(child_low), np.concatenate(child_high)

    def _path_moves(self, shape, anchors, empty, words, out) -> None:
        """Every place each piece of ``shape`` can reach along any path, found by flooding, one
        piece per row at a time: a place is open when the piece fits in the empty cells and its
        own, and a step leads from an open place to the next one in any direction."""
        parents, child_low, child_high = out
        word, shift = divmod(shape, 2)
        shift = _u64(shift * self.cells)
        steps = [(movable, delta) for rule_shape, movable, _, _, delta, _ in self.rules if rule_shape == shape]
        one = _u64(1)
        rows = np.flatnonzero(anchors)
        remaining = anchors[rows]
        while rows.size:
            anchor = remaining & (~remaining + one)
            own = np.zeros(rows.size, dtype=np.uint64)
            for offset in self.cell_offsets[shape]:
                own |= anchor << _u64(offset)
            free = empty[rows] | own
            open_places = np.full(rows.size, self.valid[shape], dtype=np.uint64)
            for offset in self.cell_offsets[shape]:
                open_places &= free >> _u64(offset)
            reached = anchor
            while True:
                grown = reached
                for movable, delta in steps:
                    from_here = reached & movable
                    grown = grown | (from_here << _u64(delta) if delta > 0 else from_here >> _u64(-delta))
                grown &= open_places
                if np.array_equal(grown, reached):
                    break
                reached = grown
            without = words[word][rows] ^ (anchor << shift)
            same = words[1 - word][rows]
            targets = reached ^ anchor
            live = np.flatnonzero(targets)
            target_rows, targets, without, same = rows[live], targets[live], without[live], same[live]
            while target_rows.size:
                place = targets & (~targets + one)
                changed = without | (place << shift)
                parents.append(target_rows)
                child_low.append(changed if word == 0 else same)
                child_high.append(same if word == 0 else changed)
                targets = targets ^ place
                more = targets != 0
                target_rows, targets, without, same = target_rows[more], targets[more], without[more], same[more]
            remaining = remaining ^ anchor
            more = remaining != 0
            rows, remaining = rows[more], remaining[more]

    def _moves_of_piece(self, rows, anchor, word, delta, shift, movable, offsets, words, shifted, out) -> None:
        """The moves of one piece per row (at ``anchor``, known to move one cell): that move
        and, under the slide metric, every further cell in the same direction.

        The cells entered on later steps lie beyond every cell the piece has covered, so
        they can be tested against the original board's empty cells."""
        parents, child_low, child_high = out
        without = words[word][rows] ^ (anchor << shift)  # the board without this piece
        same = words[1 - word][rows]
        position = anchor
        while rows.size:
            position = position << _u64(delta) if delta > 0 else position >> _u64(-delta)
            changed = without | (position << shift)
            parents.append(rows)
            child_low.append(changed if word == 0 else same)
            child_high.append(same if word == 0 else changed)
            if not self.slide:
                return
            further = position & movable
            for offset in offsets:
                further = further & shifted[offset][rows]
            keep = further != 0
            rows, position, without, same = rows[keep], position[keep], without[keep], same[keep]


def _check_same(low_a, high_a, low_b, high_b) -> None:
    if np.any((low_a != low_b) | (high_a != high_b)):
        raise HashCollision("two states share a 64-bit key")


def _unique(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted distinct keys, the first row of each, and each row's distinct-key number.

    What ``np.unique(..., return_index=True, return_inverse=True)`` returns, by one
    stable sort (faster here than the hash-based path of recent numpy)."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.ones(ordered.size, dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(ordered.size, dtype=np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return ordered[starts], order[starts], inverse


def klotski_numpy_space(problem: KlotskiProblem, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The start's component under the problem's move metric, and its edges, built layer by layer.

    States are numbered layer by layer from the start, by key within a layer.
    The successors of layer d lie in layers d - 1, d and d + 1, so every edge
    is numbered while its layer is processed, against those three sorted
    layers only.
    """
    moves = _Moves(problem.geometry, problem.metric)
    start_low, start_high = moves.split([problem.initial_state])
    empty = np.zeros(0, dtype=np.uint64)
    layer, offset = (moves.keys(start_low, start_high), start_low, start_high), 0
    previous, previous_offset = (empty, empty, empty), 0
    layers, sources, targets = [layer], [], []
    check = not moves.exact_keys  # keys that are the states themselves cannot collide
    while layer[0].size:
        _, low, high = layer
        if low.size <= _CHUNK:
            parents, child_low, child_high = moves.successors(low, high)
        else:
            pieces = [moves.successors(low[b:b + _CHUNK], high[b:b + _CHUNK]) for b in range(0, low.size, _CHUNK)]
            parents = np.concatenate([part[0] + b for part, b in zip(pieces, range(0, low.size, _CHUNK))])
            child_low = np.concatenate([part[1] for part in pieces])
            child_high = np.concatenate([part[2] for part in pieces])
        keys, first, inverse = _unique(moves.keys(child_low, child_high))
        unique_low, unique_high = child_low[first], child_high[first]
        if check:  # every successor sharing a key with the one kept must be that same state
            _check_same(child_low, child_high, unique_low[inverse], unique_high[inverse])
        index = np.full(keys.size, -1, dtype=np.int64)
        for (layer_keys, layer_low, layer_high), layer_offset in ((layer, offset), (previous, previous_offset)):
            if layer_keys.size == 0:
                continue
            at = np.minimum(np.searchsorted(layer_keys, keys), layer_keys.size - 1)
            hits = np.flatnonzero((layer_keys[at] == keys) & (index < 0))
            at = at[hits]
            if check:  # equal keys must be equal states
                _check_same(unique_low[hits], unique_high[hits], layer_low[at], layer_high[at])
            index[hits] = layer_offset + at
        fresh = index < 0
        next_offset = offset + low.size
        fresh_count = int(np.count_nonzero(fresh))
        index[fresh] = next_offset + np.arange(fresh_count)
        if next_offset + fresh_count > max_states:
            raise StateSpaceTooLarge(max_states)
        sources.append(parents + offset)
        targets.append(index[inverse])
        previous, previous_offset = layer, offset
        layer, offset = (keys[fresh], unique_low[fresh], unique_high[fresh]), next_offset
        if layer[0].size:
            layers.append(layer)
    keys = np.concatenate([entry[0] for entry in layers])
    low = np.concatenate([entry[1] for entry in layers])
    high = np.concatenate([entry[2] for entry in layers])
    ordered = np.sort(keys)
    if np.any(ordered[1:] == ordered[:-1]):  # a collision between layers further apart
        raise HashCollision("two states share a 64-bit key")
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
    """The numpy builder where it applies (boards of at most 32 cells), else plain Python."""
    if problem.metric in NUMPY_METRICS and problem.geometry.cells <= MAX_CELLS:
        try:
            return klotski_numpy_space(problem, max_states)
        except HashCollision:
            pass
    return explore(problem, max_states)


__all__ = ["HashCollision", "klotski_numpy_space", "klotski_state_space"]
