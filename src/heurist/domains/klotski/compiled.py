"""Klotski's two hot loops compiled with numba: breadth-first search, and whole state spaces.

The interpreted engine spends about 5 µs of Python on each Klotski expansion
(generating the moves, folding each child by the mirror, the visited set),
so the classic layout's path-metric search (11,902 expansions) takes about
65 ms, and the numpy layer builder makes a fixed number of numpy calls for
each of the classic component's 168 layers. Here both run as compiled loops
over states held as two ``uint64`` words (as in :mod:`.space`):

* :func:`compiled_bfs` is :func:`heurist.search.breadth_first_search` for
  Klotski problems under the ``step`` and ``path`` metrics, mirror reduction
  included: the same states in the same order, so the same plan and the
  same statistics (expansions, generated states, largest frontier); limits
  are checked between slices of expansions exactly where the interpreted
  loop checks them. It is an algorithm for :func:`heurist.search.search`
  (``search(problem, compiled_bfs, "zero")``); :func:`breadth_first_search`
  calls it so;
* :func:`klotski_compiled_space` is
  :func:`heurist.domains.klotski.space.klotski_numpy_space`: the same states
  numbered the same way, the same edges in the same order.

numba is imported when this module is, and this module only when a compiled
kernel is asked for: importing numba costs about 0.25 s of CPU, more than a
small puzzle's whole command. The kernels are compiled once per machine and
kept in numba's disk cache (``cache=True``); :func:`warm_up` compiles or
loads them, and says how long that took.
"""

from __future__ import annotations

import contextlib
import time

import numpy as np
from numba import njit

from heurist.domains.klotski.board import DIRECTIONS, SHAPE_SIZE, SHAPES, Geometry
from heurist.domains.klotski.model import KlotskiProblem
from heurist.search.limits import Limits, LimitWatch, SearchStopped
from heurist.search.plan import finish
from heurist.search.space import DEFAULT_MAX_STATES, StateSpace, StateSpaceTooLarge
from heurist.search.statistics import SearchResult, Statistics, Status

MAX_CELLS = 32
"""Boards up to this many cells fit two 64-bit words (as in :mod:`.space`)."""

METRIC_CODE = {"step": 0, "slide": 1, "path": 2}
SEARCH_METRICS = ("step", "path")
"""Metrics :func:`breadth_first_search` compiles; ``slide`` runs in the interpreted engine."""

# Kernel return codes.
PAUSED, SOLVED, EXHAUSTED, GROW, COLLISION, TOO_LARGE = range(6)

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_CHUNK = 1 << 17  # as space._CHUNK: layers are cut into pieces of this many states


class Tables:
    """One board size's geometry as arrays for the kernels."""

    def __init__(self, geometry: Geometry):
        n = geometry.cells
        if n > MAX_CELLS:
            raise ValueError(f"boards of more than {MAX_CELLS} cells do not fit two words")
        self.n, self.w = n, geometry.width
        self.full = np.uint64(geometry.full)
        self.valid = np.array(geometry.valid_anchors, dtype=np.uint64)
        rules = geometry.step_rules
        self.rule_shape = np.array([rule[0] for rule in rules], dtype=np.int64)
        self.rule_delta = np.array([rule[1] for rule in rules], dtype=np.int64)
        self.rule_movable = np.array([rule[2] for rule in rules], dtype=np.uint64)
        self.rule_first = np.array([rule[3][0] for rule in rules], dtype=np.int64)
        self.rule_second = np.array([rule[3][1] if len(rule[3]) > 1 else rule[3][0] for rule in rules],
                                    dtype=np.int64)
        self.cover = np.zeros((4, n), dtype=np.uint64)  # cells covered by a piece at each anchor
        for shape in SHAPES:
            for anchor, mask in geometry.piece_cells[shape].items():
                self.cover[shape, anchor] = mask
        self.target = np.full((4, 4, n), -1, dtype=np.int64)  # anchor one step on, per direction
        for shape in SHAPES:
            for direction in DIRECTIONS:
                for anchor, nxt in geometry.step_targets[shape][direction].items():
                    self.target[shape, direction, anchor] = nxt
        self.mirrored = np.array(geometry.mirrored_anchors, dtype=np.int64)
        self.shape_cells = np.zeros(4, dtype=np.uint64)  # the cells of each shape anchored at cell 0
        for shape in SHAPES:
            rows, cols = SHAPE_SIZE[shape]
            self.shape_cells[shape] = sum(1 << (r * self.w + c) for r in range(rows) for c in range(cols))


_TABLES: dict[Geometry, Tables] = {}


def tables(geometry: Geometry) -> Tables:
    found = _TABLES.get(geometry)
    if found is None:
        found = _TABLES[geometry] = Tables(geometry)
    return found


# ----- shared pieces of the kernels ---------------------------------------------------------------

@njit(cache=True, inline="always")
def _hash(lo, hi):
    return (lo * np.uint64(0x9E3779B97F4A7C15)) ^ ((hi ^ (hi >> np.uint64(29))) * np.uint64(0xC2B2AE3D27D4EB4F))


@njit(cache=True, inline="always")
def _slot(key, mask):
    return np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & mask


@njit(cache=True, inline="always")
def _empty_cells(lo, hi, n, w, full):
    big = lo & full
    vertical = lo >> np.uint64(n)
    horizontal = hi & full
    single = hi >> np.uint64(n)
    one = np.uint64(1)
    uw = np.uint64(w)
    occupied = (big | (big << one) | (big << uw) | (big << (uw + one)) | vertical | (vertical << uw)
                | horizontal | (horizontal << one) | single)
    return full & ~occupied


@njit(cache=True, inline="always")
def _shape_mask(lo, hi, shape, n, full):
    word = lo if shape < 2 else hi
    if shape % 2 == 1:
        return word >> np.uint64(n)
    return word & full


@njit(cache=True, inline="always")
def _shifted(empty, offset):
    if offset >= 0:
        return empty >> np.uint64(offset)
    return empty << np.uint64(-offset)


@njit(cache=True, inline="always")
def _moved(lo, hi, shape, source, target, n):
    """The state with the piece of ``shape`` at ``source`` moved to ``target``."""
    change = (np.uint64(1) << np.uint64(source)) | (np.uint64(1) << np.uint64(target))
    if shape % 2 == 1:
        change = change << np.uint64(n)
    if shape < 2:
        return lo ^ change, hi
    return lo, hi ^ change


_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_OF = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _BIT_OF[((1 << _bit) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _bit
del _bit


@njit(cache=True, inline="always")
def _bit_index(low):
    """The index of the single set bit of ``low`` (a de Bruijn multiplication and a table lookup)."""
    return _BIT_OF[(low * _DE_BRUIJN) >> np.uint64(58)]


@njit(cache=True)
def _mirror(lo, hi, n, full, mirrored):
    """The left-right mirror image of a state (each anchor moved to its mirrored anchor)."""
    out_lo = np.uint64(0)
    out_hi = np.uint64(0)
    for shape in range(4):
        mask = _shape_mask(lo, hi, shape, n, full)
        image = np.uint64(0)
        while mask:
            low = mask & (~mask + np.uint64(1))
            mask ^= low
            anchor = _bit_index(low)
            image |= np.uint64(1) << np.uint64(mirrored[shape, anchor])
        if shape % 2 == 1:
            image <<= np.uint64(n)
        if shape < 2:
            out_lo |= image
        else:
            out_hi |= image
    return out_lo, out_hi


@njit(cache=True)
def _flood(shape, anchor, empty, cover, target, places):
    """Places the piece at ``anchor`` reaches along any path, in breadth-first order
    (directions up, down, left, right), as :meth:`Geometry._piece_path_moves` lists them.
    ``places[0]`` is the anchor; returns how many places were written."""
    free = empty | cover[shape, anchor]
    places[0] = anchor
    count = 1
    reached = np.uint64(1) << np.uint64(anchor)
    i = 0
    while i < count:
        position = places[i]
        i += 1
        for direction in range(4):
            nxt = target[shape, direction, position]
            if nxt < 0:
                continue
            bit = np.uint64(1) << np.uint64(nxt)
            if reached & bit:
                continue
            if cover[shape, nxt] & ~free:
                continue
            reached |= bit
            places[count] = nxt
            count += 1
    return count


@njit(cache=True)
def _successors(lo, hi, metric, n, w, full, valid, rule_shape, rule_delta, rule_movable, rule_first,
                rule_second, cover, target, out_lo, out_hi, out_action, places):
    """Every move of one state in the order the interpreted move generators give them; returns how many.

    step: by rule (shape, then up, down, left, right), then anchor; path: by shape, then anchor,
    then place in breadth-first order. Actions are ``shape << 16 | source << 8 | target``."""
    empty = _empty_cells(lo, hi, n, w, full)
    count = 0
    if metric == 0:
        for rule in range(rule_shape.size):
            shape = rule_shape[rule]
            anchors = (_shape_mask(lo, hi, shape, n, full) & rule_movable[rule]
                       & _shifted(empty, rule_first[rule]) & _shifted(empty, rule_second[rule]))
            while anchors:
                low = anchors & (~anchors + np.uint64(1))
                anchors ^= low
                source = _bit_index(low)
                destination = source + rule_delta[rule]
                out_lo[count], out_hi[count] = _moved(lo, hi, shape, source, destination, n)
                out_action[count] = (shape << 16) | (source << 8) | destination
                count += 1
        return count
    for shape in range(4):
        movable = np.uint64(0)
        for rule in range(rule_shape.size):
            if rule_shape[rule] == shape:
                movable |= rule_movable[rule] & _shifted(empty, rule_first[rule]) & _shifted(empty, rule_second[rule])
        anchors = _shape_mask(lo, hi, shape, n, full) & movable
        while anchors:
            low = anchors & (~anchors + np.uint64(1))
            anchors ^= low
            source = _bit_index(low)
            reached = _flood(shape, source, empty, cover, target, places)
            for k in range(1, reached):
                destination = places[k]
                out_lo[count], out_hi[count] = _moved(lo, hi, shape, source, destination, n)
                out_action[count] = (shape << 16) | (source << 8) | destination
                count += 1
    return count


# ----- breadth-first search ---------------------------------------------------------------------------

@njit(cache=True)
def _insert(table, lo_array, hi_array, lo, hi, index):
    """Put state ``index`` in the open-addressing table (the caller knows it is absent)."""
    mask = table.size - 1
    slot = _slot(_hash(lo, hi), mask)
    while table[slot] != 0:
        slot = (slot + 1) & mask
    table[slot] = index + 1


@njit(cache=True)
def _find(table, lo_array, hi_array, lo, hi):
    """The slot of the state in the table, negative (``-slot - 1``) where it would go if absent."""
    mask = table.size - 1
    slot = _slot(_hash(lo, hi), mask)
    while True:
        entry = table[slot]
        if entry == 0:
            return -slot - 1
        if lo_array[entry - 1] == lo and hi_array[entry - 1] == hi:
            return slot
        slot = (slot + 1) & mask


@njit(cache=True)
def _rehash(table, lo_array, hi_array, count):
    for index in range(count):
        _insert(table, lo_array, hi_array, lo_array[index], hi_array[index], index)


@njit(cache=True)
def _bfs(lo_array, hi_array, parent, action, table, counters, stop_at, metric, symmetric, goal_kind,
         goal_lo, goal_hi, n, w, full, valid, rule_shape, rule_delta, rule_movable, rule_first, rule_second,
         cover, target, mirrored, child_lo, child_hi, child_action, places):
    """The loop of :func:`heurist.search.breadth_first_search`, over states numbered in the order they are
    reached. ``counters`` = [expansions, generated, max_frontier, count, goal index]; the frontier is the
    states from ``expansions`` to ``count``. Runs until ``expansions`` reaches ``stop_at``, a goal is
    generated, the frontier empties, or the arrays need to grow."""
    expansions, generated, max_frontier, count = counters[0], counters[1], counters[2], counters[3]
    room = child_lo.size
    code = EXHAUSTED
    image_lo, image_hi = np.uint64(0), np.uint64(0)
    while expansions < count:
        if expansions >= stop_at:
            code = PAUSED
            break
        if count + room > lo_array.size or 2 * (count + room) > table.size:
            code = GROW
            break
        if count - expansions > max_frontier:
            max_frontier = count - expansions
        state = expansions
        expansions += 1
        lo, hi = lo_array[state], hi_array[state]
        moves = _successors(lo, hi, metric, n, w, full, valid, rule_shape, rule_delta, rule_movable, rule_first,
                            rule_second, cover, target, child_lo, child_hi, child_action, places)
        if symmetric:
            image_lo, image_hi = _mirror(lo, hi, n, full, mirrored)
        found = False
        for k in range(moves):
            generated += 1
            c_lo, c_hi = child_lo[k], child_hi[k]
            if symmetric:
                code_k = child_action[k]
                shape = code_k >> 16
                source = (code_k >> 8) & 255
                destination = code_k & 255
                m_lo, m_hi = _moved(image_lo, image_hi, shape, mirrored[shape, source],
                                    mirrored[shape, destination], n)
                if m_hi < c_hi or (m_hi == c_hi and m_lo < c_lo):
                    c_lo, c_hi = m_lo, m_hi
            slot = _find(table, lo_array, hi_array, c_lo, c_hi)
            if slot >= 0:
                continue
            lo_array[count], hi_array[count] = c_lo, c_hi
            parent[count] = state
            action[count] = child_action[k]
            table[-slot - 1] = count + 1
            count += 1
            if goal_kind == 0:
                is_goal = (c_lo & goal_lo) != np.uint64(0)
            else:
                is_goal = c_lo == goal_lo and c_hi == goal_hi
            if is_goal:
                counters[4] = count - 1
                found = True
                break
        if found:
            # the goal child is recorded but not in the frontier: the interpreted loop returns first
            code = SOLVED
            break
    counters[0], counters[1], counters[2], counters[3] = expansions, generated, max_frontier, count
    return code


def _words(state: int, n: int) -> tuple[np.uint64, np.uint64]:
    return np.uint64(state & ((1 << 2 * n) - 1)), np.uint64(state >> 2 * n)


def supports_search(problem: KlotskiProblem) -> bool:
    """Whether :func:`breadth_first_search` compiles this problem (else it runs interpreted)."""
    return (isinstance(problem, KlotskiProblem) and problem.metric in SEARCH_METRICS
            and problem.geometry.cells <= MAX_CELLS)


class _Search:
    """The arrays of one compiled breadth-first search, grown as it goes."""

    def __init__(self, problem: KlotskiProblem, capacity: int = 1 << 14):
        self.problem = problem
        self.tables = tables(problem.geometry)
        n = self.tables.n
        self.lo = np.zeros(capacity, dtype=np.uint64)
        self.hi = np.zeros(capacity, dtype=np.uint64)
        self.parent = np.full(capacity, -1, dtype=np.int64)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.table = np.zeros(2 * _power_of_two(capacity), dtype=np.int64)
        room = n * n + 1  # more than any state has: at most n pieces, each to fewer than n places
        self.child_lo = np.zeros(room, dtype=np.uint64)
        self.child_hi = np.zeros(room, dtype=np.uint64)
        self.child_action = np.zeros(room, dtype=np.int64)
        self.places = np.zeros(n + 1, dtype=np.int64)
        self.lo[0], self.hi[0] = _words(problem.initial_state, n)
        self.counters = np.zeros(5, dtype=np.int64)
        self.counters[3] = 1
        _insert(self.table, self.lo, self.hi, self.lo[0], self.hi[0], 0)
        if problem.goal_state is None:
            self.goal_kind, self.goal_lo, self.goal_hi = 0, np.uint64(1 << problem.goal_anchor), np.uint64(0)
        else:
            self.goal_kind = 1
            self.goal_lo, self.goal_hi = _words(problem.goal_state, n)
        self.metric = METRIC_CODE[problem.metric]

    def run(self, stop_at: int) -> int:
        t = self.tables
        while True:
            code = _bfs(self.lo, self.hi, self.parent, self.action, self.table, self.counters, stop_at,
                        self.metric, self.problem.symmetry, self.goal_kind, self.goal_lo, self.goal_hi,
                        t.n, t.w, t.full, t.valid, t.rule_shape, t.rule_delta, t.rule_movable, t.rule_first,
                        t.rule_second, t.cover, t.target, t.mirrored, self.child_lo, self.child_hi,
                        self.child_action, self.places)
            if code != GROW:
                return code
            self._grow()

    def _grow(self) -> None:
        count = int(self.counters[3])
        capacity = 2 * self.lo.size
        for name in ("lo", "hi", "parent", "action"):
            old = getattr(self, name)
            new = np.zeros(capacity, dtype=old.dtype)
            new[:count] = old[:count]
            setattr(self, name, new)
        self.table = np.zeros(2 * _power_of_two(capacity), dtype=np.int64)
        _rehash(self.table, self.lo, self.hi, count)

    @property
    def expansions(self) -> int:
        return int(self.counters[0])

    @property
    def frontier(self) -> int:
        return int(self.counters[3] - self.counters[0])

    def plan(self, goal: int) -> tuple[list, list[int], int]:
        """(actions, states, cost) back from state number ``goal``, as :func:`extract_plan` gives them."""
        numbers = []
        while goal >= 0:
            numbers.append(goal)
            goal = int(self.parent[goal])
        numbers.reverse()
        shift = 2 * self.tables.n
        states = [int(self.lo[i]) | int(self.hi[i]) << shift for i in numbers]
        actions = []
        for i in numbers[1:]:
            code = int(self.action[i])
            actions.append((code >> 16, (code >> 8) & 255, code & 255))
        return actions, states, len(actions)


def _power_of_two(value: int) -> int:
    return 1 << max(int(value) - 1, 1).bit_length()


def _bfs_run(problem: KlotskiProblem, limits: Limits | None) -> SearchResult:
    """The body of :func:`heurist.search.breadth_first_search`, with the loop compiled."""
    stats = Statistics()
    watch = LimitWatch(limits)
    run = _Search(problem)

    def stop(status: Status, limit: str | None = None, goal: int | None = None,
             generated: bool = False) -> SearchResult:
        stats.expansions, stats.generated = run.expansions, int(run.counters[1])
        # a generated goal is numbered but was never put in the frontier
        stats.max_frontier = max(int(run.counters[2]), run.frontier - generated)
        if goal is None:
            return finish("bfs", status, stats, watch, limit=limit)
        actions, states, cost = run.plan(goal)
        return finish("bfs", status, stats, watch, actions=actions, states=states, cost=cost)

    if problem.is_goal(problem.initial_state):
        return stop(Status.SOLVED, goal=0)
    next_check = 0
    try:
        while run.frontier:
            if run.expansions >= next_check:
                limit = watch.check(run.expansions, run.frontier)
                if limit:
                    return stop(Status.LIMIT_REACHED, limit)
                next_check = watch.next_check
            if run.run(next_check) == SOLVED:
                return stop(Status.SOLVED, goal=int(run.counters[4]), generated=True)
    except SearchStopped as stopped:  # the CPU-time alarm or a second signal, between slices
        return stop(Status.LIMIT_REACHED, stopped.reason)
    return stop(Status.UNSOLVABLE)


def compiled_bfs(problem: KlotskiProblem, heuristic: object = None, *, limits: Limits | None = None) -> SearchResult:
    """An algorithm for :func:`heurist.search.search`: :func:`heurist.search.breadth_first_search` with its loop
    compiled, for the problems :func:`supports_search` accepts (the others run in the interpreted loop). The
    heuristic is ignored, as breadth-first search ignores it."""
    from heurist.search import breadth_first_search as interpreted

    if not supports_search(problem):
        return interpreted(problem, limits=limits)
    return _bfs_run(problem, limits)


def breadth_first_search(problem: KlotskiProblem, *, limits: Limits | None = None, progress: bool = False) -> SearchResult:
    """``heurist.search.search(problem, "bfs", limits=limits)`` with the loop compiled.

    The same plan (unfolded from mirror representatives, as :func:`~heurist.search.search` unfolds it)
    and the same statistics; only the times differ. Problems it does not compile (the ``slide``
    metric, boards of more than 32 cells) run in the interpreted loop.
    """
    from heurist.search import search, zero_heuristic

    return search(problem, compiled_bfs, zero_heuristic, limits=limits, progress=progress)


# ----- whole state spaces ------------------------------------------------------------------------------

@njit(cache=True)
def _layer_moves(lo_array, hi_array, begin, end, metric, n, w, full, valid, rule_shape, rule_delta,
                 rule_movable, rule_first, rule_second, cover, shape_cells, out_row, out_lo, out_hi, out_key):
    """The moves of states ``begin`` to ``end`` in the order of :class:`.space._Moves`: by (rule, piece
    number, distance) for step and slide, by (shape, piece number, place number) for path, then by state.
    Returns how many (-1 when the output arrays are too small)."""
    count = 0
    one = np.uint64(1)
    for row in range(begin, end):
        lo, hi = lo_array[row], hi_array[row]
        empty = _empty_cells(lo, hi, n, w, full)
        if metric == 2:
            for shape in range(4):
                anchors = _shape_mask(lo, hi, shape, n, full)
                piece = 0
                while anchors:
                    low = anchors & (~anchors + one)
                    anchors ^= low
                    source = _bit_index(low)
                    free = empty | cover[shape, source]
                    open_places = valid[shape]
                    cells = shape_cells[shape]
                    # open places: where the piece fits in its own cells and the empty ones
                    for offset in range(n):
                        if cells & (one << np.uint64(offset)):
                            open_places &= free >> np.uint64(offset)
                    reached = low
                    while True:
                        grown = reached
                        for rule in range(rule_shape.size):
                            if rule_shape[rule] != shape:
                                continue
                            here = reached & rule_movable[rule]
                            delta = rule_delta[rule]
                            grown |= (here << np.uint64(delta)) if delta > 0 else (here >> np.uint64(-delta))
                        grown &= open_places
                        if grown == reached:
                            break
                        reached = grown
                    places = reached ^ low
                    number = 0
                    while places:
                        place = places & (~places + one)
                        places ^= place
                        if count >= out_row.size:
                            return -1
                        out_row[count] = row
                        out_lo[count], out_hi[count] = _moved(lo, hi, shape, source, _bit_index(place), n)
                        out_key[count] = (shape * 32 + piece) * 32 + number
                        number += 1
                        count += 1
                    piece += 1
            continue
        for rule in range(rule_shape.size):
            shape = rule_shape[rule]
            delta = rule_delta[rule]
            free = (_shape_mask(lo, hi, shape, n, full) & rule_movable[rule]
                    & _shifted(empty, rule_first[rule]) & _shifted(empty, rule_second[rule]))
            piece = 0
            while free:
                low = free & (~free + one)
                free ^= low
                source = _bit_index(low)
                position = low
                distance = 0
                while True:
                    position = (position << np.uint64(delta)) if delta > 0 else (position >> np.uint64(-delta))
                    if count >= out_row.size:
                        return -1
                    out_row[count] = row
                    out_lo[count], out_hi[count] = _moved(lo, hi, shape, source, _bit_index(position), n)
                    out_key[count] = (rule * 32 + piece) * 32 + distance
                    count += 1
                    distance += 1
                    if metric == 0:
                        break
                    further = (position & rule_movable[rule] & _shifted(empty, rule_first[rule])
                               & _shifted(empty, rule_second[rule]))
                    if not further:
                        break
                piece += 1
    return count


@njit(cache=True)
def _stable_order(keys, count):
    """``np.argsort(keys[:count], kind="stable")`` for small non-negative keys: a counting sort."""
    top = 0
    for i in range(count):
        if keys[i] > top:
            top = keys[i]
    starts = np.zeros(top + 2, dtype=np.int64)
    for i in range(count):
        starts[keys[i] + 1] += 1
    for key in range(top + 1):
        starts[key + 1] += starts[key]
    order = np.empty(count, dtype=np.int64)
    for i in range(count):
        key = keys[i]
        order[starts[key]] = i
        starts[key] += 1
    return order


@njit(cache=True)
def _space(start_lo, start_hi, metric, exact_keys, max_states, chunk, n, w, full, valid, rule_shape,
           rule_delta, rule_movable, rule_first, rule_second, cover, shape_cells):
    """The component of the start, numbered as :func:`.space.klotski_numpy_space` numbers it: layer by
    layer, by key within a layer; edges in the order that builder makes them.

    Returns (code, states' low words, high words, edge sources, edge targets)."""
    shift = np.uint64(2 * n)
    capacity = 1024
    lo_array = np.zeros(capacity, dtype=np.uint64)
    hi_array = np.zeros(capacity, dtype=np.uint64)
    keys = np.zeros(capacity, dtype=np.uint64)
    table = np.zeros(2 * capacity, dtype=np.int64)  # key -> state number + 1 (or -(new number + 1))
    edge_capacity = 4096
    sources = np.zeros(edge_capacity, dtype=np.int64)
    targets = np.zeros(edge_capacity, dtype=np.int64)
    edges = 0
    lo_array[0], hi_array[0] = start_lo, start_hi
    keys[0] = (start_lo | (start_hi << shift)) if exact_keys else _hash(start_lo, start_hi)
    table_mask = table.size - 1
    table[_slot(keys[0], table_mask)] = 1
    count = 1
    layer_begin, layer_end = 0, 1
    buffer = 4096
    out_row = np.zeros(buffer, dtype=np.int64)
    out_lo = np.zeros(buffer, dtype=np.uint64)
    out_hi = np.zeros(buffer, dtype=np.uint64)
    out_key = np.zeros(buffer, dtype=np.int64)
    while layer_begin < layer_end:
        # every move of the layer, chunk by chunk, each chunk in builder order
        moves = 0
        rows_all = np.zeros(0, dtype=np.int64)
        lo_all = np.zeros(0, dtype=np.uint64)
        hi_all = np.zeros(0, dtype=np.uint64)
        for begin in range(layer_begin, layer_end, chunk):
            end = min(begin + chunk, layer_end)
            while True:
                got = _layer_moves(lo_array, hi_array, begin, end, metric, n, w, full, valid, rule_shape,
                                   rule_delta, rule_movable, rule_first, rule_second, cover, shape_cells,
                                   out_row, out_lo, out_hi, out_key)
                if got >= 0:
                    break
                buffer *= 2
                out_row = np.zeros(buffer, dtype=np.int64)
                out_lo = np.zeros(buffer, dtype=np.uint64)
                out_hi = np.zeros(buffer, dtype=np.uint64)
                out_key = np.zeros(buffer, dtype=np.int64)
            arrangement = _stable_order(out_key, got)
            rows_all = np.concatenate((rows_all, out_row[:got][arrangement]))
            lo_all = np.concatenate((lo_all, out_lo[:got][arrangement]))
            hi_all = np.concatenate((hi_all, out_hi[:got][arrangement]))
            moves += got
        # look every child up; new ones get provisional numbers in the order first met
        found = np.zeros(moves, dtype=np.int64)
        fresh_lo = np.zeros(moves, dtype=np.uint64)
        fresh_hi = np.zeros(moves, dtype=np.uint64)
        fresh_key = np.zeros(moves, dtype=np.uint64)
        fresh = 0
        if 2 * (count + moves) > table.size:
            size = table.size
            while 2 * (count + moves) > size:
                size *= 2
            table = np.zeros(size, dtype=np.int64)
            table_mask = size - 1
            for i in range(count):
                s = _slot(keys[i], table_mask)
                while table[s] != 0:
                    s = (s + 1) & table_mask
                table[s] = i + 1
        for k in range(moves):
            c_lo, c_hi = lo_all[k], hi_all[k]
            key = (c_lo | (c_hi << shift)) if exact_keys else _hash(c_lo, c_hi)
            s = _slot(key, table_mask)
            while True:
                entry = table[s]
                if entry == 0:
                    table[s] = -(fresh + 1)
                    fresh_lo[fresh], fresh_hi[fresh], fresh_key[fresh] = c_lo, c_hi, key
                    found[k] = -(fresh + 1)
                    fresh += 1
                    break
                if entry > 0:
                    i = entry - 1
                    if keys[i] == key:
                        if lo_array[i] != c_lo or hi_array[i] != c_hi:
                            return COLLISION, lo_array[:0], hi_array[:0], sources[:0], targets[:0]
                        found[k] = i
                        break
                else:
                    j = -entry - 1
                    if fresh_key[j] == key:
                        if fresh_lo[j] != c_lo or fresh_hi[j] != c_hi:
                            return COLLISION, lo_array[:0], hi_array[:0], sources[:0], targets[:0]
                        found[k] = entry
                        break
                s = (s + 1) & table_mask
        next_offset = count
        if next_offset + fresh > max_states:
            return TOO_LARGE, lo_array[:0], hi_array[:0], sources[:0], targets[:0]
        # the new layer, by key
        by_key = np.argsort(fresh_key[:fresh], kind="mergesort")
        number = np.zeros(fresh, dtype=np.int64)
        for rank in range(fresh):
            number[by_key[rank]] = next_offset + rank
        if count + fresh > lo_array.size:
            size = lo_array.size
            while count + fresh > size:
                size *= 2
            lo_array = np.concatenate((lo_array, np.zeros(size - lo_array.size, dtype=np.uint64)))
            hi_array = np.concatenate((hi_array, np.zeros(size - hi_array.size, dtype=np.uint64)))
            keys = np.concatenate((keys, np.zeros(size - keys.size, dtype=np.uint64)))
        for rank in range(fresh):
            j = by_key[rank]
            lo_array[next_offset + rank] = fresh_lo[j]
            hi_array[next_offset + rank] = fresh_hi[j]
            keys[next_offset + rank] = fresh_key[j]
        # provisional table entries become state numbers
        for k in range(moves):
            if found[k] < 0:
                j = -found[k] - 1
                found[k] = number[j]
        for j in range(fresh):
            s = _slot(fresh_key[j], table_mask)
            while table[s] != -(j + 1):
                s = (s + 1) & table_mask
            table[s] = number[j] + 1
        if edges + moves > sources.size:
            size = sources.size
            while edges + moves > size:
                size *= 2
            sources = np.concatenate((sources, np.zeros(size - sources.size, dtype=np.int64)))
            targets = np.concatenate((targets, np.zeros(size - targets.size, dtype=np.int64)))
        for k in range(moves):
            sources[edges + k] = rows_all[k]
            targets[edges + k] = found[k]
        edges += moves
        count += fresh
        layer_begin, layer_end = layer_end, count
    return EXHAUSTED, lo_array[:count], hi_array[:count], sources[:edges], targets[:edges]


def supports_space(problem: KlotskiProblem) -> bool:
    return problem.geometry.cells <= MAX_CELLS


def klotski_compiled_space(problem: KlotskiProblem, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """:func:`.space.klotski_numpy_space` with the layers compiled: the same states, numbers and edges.

    Raises :class:`.space.HashCollision` where that builder would (two states with one 64-bit key)."""
    from heurist.domains.klotski.space import HashCollision, _Moves

    t = tables(problem.geometry)
    n = t.n
    moves = _Moves(problem.geometry, problem.metric)
    start_lo, start_hi = _words(problem.initial_state, n)
    code, low, high, source, target = _space(
        start_lo, start_hi, METRIC_CODE[problem.metric], moves.exact_keys, max_states, _CHUNK, n, t.w, t.full,
        t.valid, t.rule_shape, t.rule_delta, t.rule_movable, t.rule_first, t.rule_second, t.cover, t.shape_cells,
    )
    if code == COLLISION:
        raise HashCollision("two states share a 64-bit key")
    if code == TOO_LARGE:
        raise StateSpaceTooLarge(max_states)
    if problem.goal_state is None:
        goal = ((low >> np.uint64(problem.goal_anchor)) & np.uint64(1)).astype(bool)
    else:
        goal_low, goal_high = moves.split([problem.goal_state])
        goal = (low == goal_low[0]) & (high == goal_high[0])
    return StateSpace(
        problem, moves.join(low, high), goal, source, target, np.ones(source.size), method="compiled"
    )


def warm_up() -> float:
    """Compile (on a machine's first run) or load from numba's disk cache every kernel, by running each
    on the classic layout for a moment; returns the CPU seconds that took (numba's import not included)."""
    from heurist.domains.klotski import parse_puzzle, problem_from_puzzle

    puzzle = parse_puzzle("^11^\nv11v\n^<>^\nv22v\n2..2\n", "<warm-up>")
    started = time.process_time()
    for metric in SEARCH_METRICS:
        for symmetry in (False, True):
            _bfs_run(problem_from_puzzle(puzzle, metric, symmetry), Limits(max_expansions=10))
    for metric in METRIC_CODE:
        with contextlib.suppress(StateSpaceTooLarge):
            klotski_compiled_space(problem_from_puzzle(puzzle, metric, False), max_states=50)
    return time.process_time() - started


__all__ = ["breadth_first_search", "compiled_bfs", "klotski_compiled_space", "supports_search", "supports_space",
           "warm_up"]
