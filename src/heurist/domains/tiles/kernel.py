"""IDA* for sliding-tile puzzles with pattern databases, compiled with numba.

The generic :func:`heurist.search.idastar.iterative_deepening_astar_search`
calls a Python heuristic on every generated state, and a Python expansion
costs a few microseconds; on Korf's 15-puzzles that is hours. This module
runs the same algorithm in compiled code on one mutable board:

* the same depth-first order (the blank moving up, down, left, right), the
  same cycle check (a child equal to any state on the current path is
  skipped), the same f-bound rule and the same counters: ``expansions``,
  ``generated``, ``evaluations`` (one per child not on the path, plus the
  start), ``max_frontier`` (the path's length at an expansion) and
  ``expansions_until_last_jump``, so a result equals the generic one's in
  its plan and every statistic but the times;
* the heuristic evaluated incrementally: a move changes one tile's cell, so
  only the group holding that tile (and, for the reflection, the group
  holding the reflected tile) is ranked again; the other groups' ranks are
  kept along the path and only looked up with the blank's new cell;
* the cycle check compares the child only with path states an even number
  of moves back whose blank is on the same cell (the blank's cell
  alternates colour on the chequerboard), by a 64-bit Zobrist hash and then
  cell by cell;
* the search pauses after as many expansions as the limit watch allows
  between two checks, returns to Python for :meth:`LimitWatch.check`
  (time, expansions, memory, signals) and resumes where it stopped, so
  limits and interruptions behave as in every other search.

numba is imported when this module is, which happens only when such a
search runs; compiled code is cached on disk by numba (``cache=True``).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from heurist.domains.tiles.model import TilesProblem
from heurist.search.limits import Limits, LimitWatch, SearchStopped
from heurist.search.plan import finish
from heurist.search.statistics import SearchResult, Statistics, Status

_CHECK, _SOLVED, _EXHAUSTED, _GROW = 1, 2, 3, 4
# Slots of the counters array shared with the compiled loop.
(_DEPTH, _BOUND, _NEXT_BOUND, _EXPANSIONS, _GENERATED, _EVALUATIONS, _MAX_FRONTIER, _UNTIL_JUMP,
 _NEXT_CHECK, _ITERATIONS) = range(10)
_INFINITE = 1 << 40


@numba.njit(cache=True, nogil=True)
def _group_rank(group, where, mirror, reflected, labels, sizes, cells, buffer):  # pragma: no cover
    """The rank of one group's placement in the state (``reflected``: in the state's mirror image)."""
    index = 0
    size = sizes[group]
    for i in range(size):
        label = labels[group, i]
        cell = mirror[where[mirror[label]]] if reflected else where[label]
        buffer[i] = cell
        digit = cell
        for j in range(i):
            if buffer[j] < cell:
                digit -= 1
        index = index * (cells - i) + digit
    return index


@numba.njit(cache=True, nogil=True)
def _run(counters, board, where, blank_at, next_move, h_at, regular, reflected, hashes, boards,
         neighbours, group_of, labels, sizes, tables, mirror, use_mirror, zobrist,
         blank_label, cells, scratch):  # pragma: no cover
    """Advance the search until it is solved, exhausted, or due for a limit check (see the module's docstring)."""
    groups = sizes.shape[0]
    depth = counters[_DEPTH]
    while True:
        if depth < 0:
            if counters[_NEXT_BOUND] >= _INFINITE:
                counters[_DEPTH] = depth
                return _EXHAUSTED
            if counters[_NEXT_BOUND] + 2 > blank_at.shape[0]:  # the path may grow past the arrays
                counters[_DEPTH] = depth
                return _GROW
            counters[_BOUND] = counters[_NEXT_BOUND]
            counters[_NEXT_BOUND] = _INFINITE
            counters[_UNTIL_JUMP] = counters[_EXPANSIONS]
            counters[_ITERATIONS] += 1
            depth = 0
            next_move[0] = -1
            continue
        if next_move[depth] < 0:
            f = depth + h_at[depth]
            if f > counters[_BOUND]:
                if f < counters[_NEXT_BOUND]:
                    counters[_NEXT_BOUND] = f
                next_move[depth] = 4  # pruned: backtrack below
            else:
                if counters[_EXPANSIONS] >= counters[_NEXT_CHECK]:
                    counters[_DEPTH] = depth
                    return _CHECK
                counters[_EXPANSIONS] += 1
                if h_at[depth] == 0:
                    home = True
                    for cell in range(cells):
                        if board[cell] != cell:
                            home = False
                            break
                    if home:
                        counters[_DEPTH] = depth
                        return _SOLVED
                next_move[depth] = 0
                if depth + 1 > counters[_MAX_FRONTIER]:
                    counters[_MAX_FRONTIER] = depth + 1
        pushed = False
        blank = blank_at[depth]
        while next_move[depth] < 4:
            move = next_move[depth]
            next_move[depth] = move + 1
            target = neighbours[blank, move]
            if target < 0:
                continue
            counters[_GENERATED] += 1
            label = board[target]
            board[blank] = label
            board[target] = blank_label
            where[label] = blank
            where[blank_label] = target
            key = (hashes[depth] ^ zobrist[label, target] ^ zobrist[label, blank]
                   ^ zobrist[blank_label, blank] ^ zobrist[blank_label, target])
            seen = False
            back = depth - 1
            while back >= 0:
                if blank_at[back] == target and hashes[back] == key:
                    same = True
                    for cell in range(cells):
                        if boards[back, cell] != board[cell]:
                            same = False
                            break
                    if same:
                        seen = True
                        break
                back -= 2
            if seen:
                board[target] = label
                board[blank] = blank_label
                where[label] = target
                where[blank_label] = blank
                continue
            counters[_EVALUATIONS] += 1
            child = depth + 1
            for g in range(groups):
                regular[child, g] = regular[depth, g]
                reflected[child, g] = reflected[depth, g]
            group = group_of[label]
            regular[child, group] = _group_rank(group, where, mirror, False, labels, sizes, cells, scratch)
            total = 0
            for g in range(groups):
                total += tables[g][regular[child, g] * cells + target]
            if use_mirror:
                group = group_of[mirror[label]]
                reflected[child, group] = _group_rank(group, where, mirror, True, labels, sizes, cells, scratch)
                other = 0
                seen_blank = mirror[target]
                for g in range(groups):
                    other += tables[g][reflected[child, g] * cells + seen_blank]
                if other > total:
                    total = other
            h_at[child] = total
            blank_at[child] = target
            hashes[child] = key
            for cell in range(cells):
                boards[child, cell] = board[cell]
            next_move[child] = -1
            depth = child
            pushed = True
            break
        if pushed:
            continue
        if depth > 0:  # undo the move that made this node
            blank = blank_at[depth]
            parent_blank = blank_at[depth - 1]
            label = board[parent_blank]
            board[blank] = label
            board[parent_blank] = blank_label
            where[label] = blank
            where[blank_label] = parent_blank
        depth -= 1


def _tables(prepared: Any) -> tuple:
    """The databases as a tuple of read-only uint8 arrays (the compiled loop indexes it; nothing is copied)."""
    tables = []
    for table in prepared.tables:
        view = np.asarray(table, dtype=np.uint8).view()
        view.setflags(write=False)  # tables read from the cache are read-only; every table then has one type
        tables.append(view)
    return tuple(tables)


class _Search:
    """The arrays of one compiled search: the board, the path and the databases."""

    def __init__(self, problem: TilesProblem, prepared: Any):
        cells = problem.cells
        label = prepared.label
        self.cells = cells
        self.blank_label = label[0]
        self.board = np.array([label[tile] for tile in problem.start], dtype=np.int64)
        self.where = np.empty(cells, dtype=np.int64)
        self.where[self.board] = np.arange(cells)
        self.neighbours = np.full((cells, 4), -1, dtype=np.int64)
        for cell in range(cells):
            row, col = divmod(cell, problem.cols)
            for move, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if 0 <= row + dr < problem.rows and 0 <= col + dc < problem.cols:
                    self.neighbours[cell, move] = (row + dr) * problem.cols + col + dc
        groups = prepared.groups
        self.group_of = np.full(cells, 0, dtype=np.int64)
        self.labels = np.zeros((len(groups), max(len(g) for g in groups)), dtype=np.int64)
        self.sizes = np.array([len(g) for g in groups], dtype=np.int64)
        for g, group in enumerate(groups):
            for i, member in enumerate(group):
                self.group_of[member] = g
                self.labels[g, i] = member
        self.group_of[self.blank_label] = 0  # the blank is in no group; its moves never reach here
        self.tables = _tables(prepared)
        self.use_mirror = prepared.mirror is not None
        self.mirror = np.array(prepared.mirror if self.use_mirror else range(cells), dtype=np.int64)
        rng = np.random.default_rng(20021)  # fixed: the hashes only speed up the cycle check
        self.zobrist = rng.integers(0, 2**63 - 1, size=(cells, cells), dtype=np.int64)
        self.groups = len(groups)
        self.scratch = np.zeros(cells, dtype=np.int64)
        self._allocate(64)
        self.blank_at[0] = self.where[self.blank_label]
        self.hashes[0] = np.bitwise_xor.reduce(self.zobrist[self.board, np.arange(cells)])
        self.boards[0] = self.board
        blank = int(self.blank_at[0])
        h = other = 0
        for g in range(len(groups)):
            self.regular[0, g] = self._rank(g, False)
            h += int(self.tables[g][self.regular[0, g] * cells + blank])
            if self.use_mirror:
                self.reflected[0, g] = self._rank(g, True)
                other += int(self.tables[g][self.reflected[0, g] * cells + self.mirror[blank]])
        h = max(h, other)
        self.h_at[0] = h
        self.counters = np.zeros(10, dtype=np.int64)
        self.grow(h + 2)

    def _allocate(self, depth: int) -> None:
        self.blank_at = np.zeros(depth, dtype=np.int64)
        self.next_move = np.full(depth, -1, dtype=np.int64)
        self.h_at = np.zeros(depth, dtype=np.int64)
        self.regular = np.zeros((depth, self.groups), dtype=np.int64)
        self.reflected = np.zeros((depth, self.groups), dtype=np.int64)
        self.hashes = np.zeros(depth, dtype=np.int64)
        self.boards = np.zeros((depth, self.cells), dtype=np.int64)

    def grow(self, depth: int) -> None:
        """Make room for paths of ``depth`` states (at least twice the room there was), keeping the path."""
        old = len(self.blank_at)
        if depth <= old:
            return
        kept = [self.blank_at, self.next_move, self.h_at, self.regular, self.reflected, self.hashes, self.boards]
        self._allocate(max(depth, 2 * old))
        for new, before in zip([self.blank_at, self.next_move, self.h_at, self.regular, self.reflected,
                                self.hashes, self.boards], kept):
            new[:old] = before

    def _rank(self, group: int, reflected: bool) -> int:
        return int(_group_rank(group, self.where, self.mirror, reflected, self.labels, self.sizes, self.cells,
                               self.scratch))

    def run(self) -> int:
        return _run(self.counters, self.board, self.where, self.blank_at, self.next_move, self.h_at,
                    self.regular, self.reflected, self.hashes, self.boards, self.neighbours, self.group_of,
                    self.labels, self.sizes, self.tables, self.mirror, self.use_mirror,
                    self.zobrist, self.blank_label, self.cells, self.scratch)


def idastar_with_databases(problem: TilesProblem, prepared: Any, *,
                           limits: Limits | None = None) -> SearchResult:
    """IDA* on ``problem`` with the pattern databases ``prepared``: the generic IDA*'s result, compiled.

    ``prepared`` is a :class:`heurist.domains.tiles.pdb.Prepared` (groups, tables, labels, reflection).

    The statistics are filled as the generic search fills them (they have no
    slot for the number of f-bound iterations, which the result carries as
    its ``iterations`` attribute).
    """
    stats = Statistics()
    watch = LimitWatch(limits)
    search = _Search(problem, prepared)
    counters = search.counters
    h_start = int(search.h_at[0])
    stats.evaluations = 1
    stats.initial_h_value = h_start
    counters[_BOUND] = h_start
    counters[_NEXT_BOUND] = _INFINITE
    counters[_ITERATIONS] = 1
    counters[_DEPTH] = 0

    def sync() -> None:
        stats.expansions = int(counters[_EXPANSIONS])
        stats.generated = int(counters[_GENERATED])
        stats.evaluations = 1 + int(counters[_EVALUATIONS])
        stats.evaluated = stats.evaluations
        stats.max_frontier = int(counters[_MAX_FRONTIER])
        stats.expansions_until_last_jump = int(counters[_UNTIL_JUMP])

    try:
        while True:
            outcome = search.run()
            sync()
            if outcome == _GROW:
                search.grow(int(counters[_NEXT_BOUND]) + 2)
                continue
            if outcome == _CHECK:
                depth = int(counters[_DEPTH])
                limit = watch.check(stats.expansions, depth + 1, float(counters[_BOUND]))
                if limit:
                    return _finished(Status.LIMIT_REACHED, stats, watch, counters, limit=limit)
                counters[_NEXT_CHECK] = watch.next_check
                continue
            if outcome == _SOLVED:
                depth = int(counters[_DEPTH])
                actions, states = _plan(problem, [int(cell) for cell in search.blank_at[:depth + 1]])
                return _finished(Status.SOLVED, stats, watch, counters, actions=actions, states=states,
                                 cost=float(depth))
            return _finished(Status.UNSOLVABLE, stats, watch, counters)
    except SearchStopped as stopped:  # the CPU-time alarm or a second signal, between two runs
        sync()
        return _finished(Status.LIMIT_REACHED, stats, watch, counters, limit=stopped.reason)


def _finished(status: Status, stats: Statistics, watch: LimitWatch, counters, **details) -> SearchResult:
    result = finish("idastar", status, stats, watch, **details)
    result.iterations = int(counters[_ITERATIONS])  # type: ignore[attr-defined]
    return result


def _plan(problem: TilesProblem, blanks: list[int]):
    """The slides and states along the path whose blank visits ``blanks``, as the problem makes them."""
    state = problem.start
    states, actions = [state], []
    for target in blanks[1:]:
        action, child = next((a, c) for a, c, _ in problem.successors(state) if c[target] == 0)
        actions.append(action)
        states.append(child)
        state = child
    return actions, states


__all__ = ["idastar_with_databases"]
