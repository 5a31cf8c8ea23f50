"""The machinery of the admissible Blokus bound ``reach`` (:func:`heurist.domains.blokus.heuristics.reach`).

``reach`` is the fewest tiles of pieces in hand that can join the placed
tiles to every uncovered target. It is built from:

* :func:`_needs`: the cells and the Manhattan budget that every plan covering
  the targets must provide (halves of Held-Karp tours and, for a few targets,
  exact Steiner trees from :func:`_steiner_trees`), or None at a dead end;
* :func:`cheapest_pieces`: the fewest tiles of pieces in hand that provide
  them (knapsack tables over the pieces, :func:`_piece_tables`);
* :func:`reach_below`: ``reach``, or a smaller value that already reaches a
  pruning limit, skipping the exact Steiner trees when it can;
* :func:`reach_children` and :func:`reach_floors`: ``reach`` of all the
  children of a state, and lower bounds on it, computed together with numpy
  (the mini-contest's searches, :mod:`.strategies`);
* :func:`target_bound`: ``reach`` for one target alone.

Kept apart from the registered heuristics, which are one function each. numpy
is imported inside the functions that use it, so that loading the domain
does not load it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from heurist.domains.blokus.board import Board
from heurist.domains.blokus.model import AnyState, BlokusProblem
from heurist.domains.blokus.pieces import Cell

if TYPE_CHECKING:
    import numpy as np

    SteinerTables = tuple[np.ndarray, np.ndarray, dict[int, int], dict[int, np.ndarray]]
    """King and Manhattan St(A + v) by square and subset of targets, the targets' indices by bit, and the
    partition matrices made so far (see :func:`_steiner_tables`)."""

PieceTables = tuple[list[int], list[int], list[int], list[int], list[int]]
"""Knapsack rows by tile total (most pieces, king and Manhattan sums) and prefix sums of the gains
(see :func:`_piece_tables`)."""


def _needs(
    state: AnyState,
    problem: BlokusProblem,
    target_mask: int,
    guard_mask: int = 0,
    settled: Callable[[int, int], bool] | None = None,
    steiner: tuple[int, int] | None = None,
) -> tuple[int, int] | None:
    """(cells, budget) every plan covering ``target_mask`` must provide, or None at a dead end.

    Every future piece lies in ``free``: squares that are neither own tiles
    nor edge-adjacent to one, a set that only shrinks as pieces are added.
    Each new piece touches an earlier one, or a placed tile through an
    anchor square, corner to corner; so the new pieces of a plan, together
    with a root standing for what is already placed, form a tree joining the
    root to every target. Two measures of that tree give the bounds, both
    needing only the pieces' sizes s_1..s_k (T = sum s_i tiles, k pieces):

    * cells, in the king-move metric: the new squares are king-connected
      within ``free``, the root being next to every anchor (on the empty
      board, the start square is the only anchor), so T is at least the
      number of edges of a king-move Steiner tree on the root and targets;
      a target that is not free, or cannot be reached within ``free``, is
      dead.
    * budget, in the Manhattan metric with the placed tiles costing nothing:
      a polyomino of s tiles is joined edge to edge by s - 1 unit steps and
      each corner contact is 2 unit steps, so the tree has length at most
      T + k (T + k - 2 from the start square, which the first piece covers
      with no contact), and at least that of a rectilinear Steiner tree on
      the root and the targets.

    A Steiner tree is at least half of any closed tour through its terminals
    (walking round the tree is such a tour), and the cheapest tour is computed
    exactly (Held-Karp, in a metric never longer than the true one: straight
    Chebyshev or Manhattan distances between targets, or through the root).
    From the start square the targets' bounding box's half-perimeter is a
    bound too.

    Sharper still, :func:`_steiner_trees` gives both trees exactly on the
    open board, for up to :data:`STEINER_TARGETS` targets; the larger of the
    two bounds is kept. ``settled(cells, budget)``, when given and true for
    the cheaper bounds alone, skips that step.

    ``guard_mask`` targets need not be covered but must stay coverable.
    ``steiner``, when given, is what :func:`_steiner_trees` returns for this
    state (computed with its siblings by :func:`_steiner_children`).
    """
    occupied = state[0]
    board = problem.board
    uncovered = target_mask & ~occupied
    guarded = guard_mask & ~occupied
    forbidden = board.orthogonal(occupied)
    if (uncovered | guarded) & forbidden:
        return None
    if not uncovered and not guarded:
        return 0, 0
    free = board.full & ~forbidden
    reached = anchors = board.anchors(occupied, problem.start_bit) & free
    pending = uncovered | guarded
    steps = 1
    king_root: dict[int, int] = {}
    while True:
        hit = pending & reached
        if hit:
            pending ^= hit
            hit &= uncovered
            while hit:
                low = hit & -hit
                king_root[low] = steps
                hit ^= low
            if not pending:
                break
        grown = board.king(reached) & free
        if grown == reached:
            return None
        reached = grown
        steps += 1
    if not uncovered:
        return 0, 0
    bits = sorted(king_root)
    if occupied:
        manhattan_root = _orthogonal_distances(board, occupied, bits)
        extra = 0
        half_perimeter = 0
    else:
        targets = [board.cell_at(bit) for bit in bits]
        sr, sc = problem.start
        manhattan_root = [abs(r - sr) + abs(c - sc) for r, c in targets]
        extra = 2
        rows = [r for r, _ in targets] + [sr]
        cols = [c for _, c in targets] + [sc]
        half_perimeter = max(rows) - min(rows) + max(cols) - min(cols)
    cells = _tree_bound(problem, 0, bits, [king_root[bit] for bit in bits], chebyshev=True)
    budget = max(_tree_bound(problem, 1, bits, manhattan_root, chebyshev=False), half_perimeter)
    if settled is not None and settled(cells, budget + extra):
        return cells, budget + extra
    if steiner is None:
        exact = _steiner_trees(problem, target_mask, uncovered, anchors, occupied or problem.start_bit)
    else:
        exact = steiner
    if exact is not None:
        cells = max(cells, exact[0])
        budget = max(budget, exact[1])
    return cells, budget + extra


def _tree_bound(problem: BlokusProblem, metric: int, bits: list[int], root: list[int], *, chebyshev: bool) -> int:
    """Half the cheapest closed tour from the root through every target (a Steiner tree bound)."""
    count = len(bits)
    if count == 1:
        return root[0]
    memo = problem.__dict__.setdefault("_blokus_tours", {})
    key = (metric, tuple(bits), tuple(root))
    known = memo.get(key)
    if known is not None:
        return known
    cells = [problem.board.cell_at(bit) for bit in bits]
    between = [[0] * count for _ in range(count)]
    for i, (r1, c1) in enumerate(cells):
        for j in range(i + 1, count):
            r2, c2 = cells[j]
            dr, dc = abs(r1 - r2), abs(c1 - c2)
            direct = max(dr, dc) if chebyshev else dr + dc
            between[i][j] = between[j][i] = min(direct, root[i] + root[j])
    # Held-Karp: best[subset][last] = cheapest path from the root through subset, ending at last.
    full = (1 << count) - 1
    best = [[INFINITE] * count for _ in range(full + 1)]
    for i in range(count):
        best[1 << i][i] = root[i]
    for subset in range(1, full + 1):
        row = best[subset]
        for last in range(count):
            cost = row[last]
            if cost == INFINITE:
                continue
            step = between[last]
            for following in range(count):
                bit = 1 << following
                if subset & bit:
                    continue
                candidate = cost + step[following]
                target_row = best[subset | bit]
                if candidate < target_row[following]:
                    target_row[following] = candidate
    tour = min(best[full][last] + root[last] for last in range(count))
    bound = (tour + 1) // 2
    if len(memo) > 200_000:
        memo.clear()
    memo[key] = bound
    return bound


INFINITE = 1 << 30

STEINER_TARGETS = 7
STEINER_SQUARES = 900
"""Exact Steiner-tree bounds (:func:`_steiner_trees`) for at most this many targets, on at most this many squares."""


def _steiner_trees(
    problem: BlokusProblem, target_mask: int, uncovered: int, anchors: int, roots: int
) -> tuple[int, int] | None:
    """Exact Steiner-tree lengths joining the root to the uncovered targets: (king, Manhattan).

    Both are lower bounds on the trees :func:`_needs` describes, computed
    exactly on the whole board, with no square barred:

    * king: the new squares of a plan, with a root adjacent to every anchor
      square, are king-connected, so they hold a tree joining the root to
      the targets with at most as many edges as new squares. Cut at the
      root, it falls into subtrees, each hanging from one anchor a (edge
      cost 1) and holding a group A of the targets, and such a subtree has
      at least St(A + a) edges, the king-move Steiner tree of A and a on
      the board (a tree within the free squares is one on the board). So
      the cells are at least the cheapest partition of the targets into
      groups, a group costing 1 + min over anchors a of St(A + a).
    * Manhattan: the tree of unit steps joining the root (the placed tiles,
      crossed for free, or the start square) to the targets falls likewise
      into subtrees hanging from a placed tile o, each at least the
      rectilinear Steiner tree St(A + o) of its targets and o.

    St(A + v) for every subset A of the problem's targets and every square
    v comes from one Dreyfus-Wagner pass per metric on the empty board,
    once per problem (exact: on the board the shortest paths are the plain
    king and Manhattan distances). A lower bound on each subtree makes the
    sum a lower bound whatever the true partition, so the minimum over all
    partitions is one too. Squares barred by the placed tiles are ignored,
    which only lowers the trees; :func:`_needs` keeps the larger of these
    and its own bounds, which do see them. None when the problem has too
    many targets or squares for the tables.
    """
    tables = _steiner_tables(problem, target_mask)
    if tables is None:
        return None
    import numpy as np

    king, manhattan, index_of, _ = tables
    subset = 0
    for bit, index in index_of.items():
        if uncovered & bit:
            subset |= 1 << index
    anchor_squares = _square_array(anchors)
    root_squares = _square_array(roots)
    if not anchor_squares.size or not root_squares.size:
        return None
    by_group = np.empty((2, king.shape[1]), dtype=np.float32)
    np.minimum(king[anchor_squares].min(axis=0) + 1, FLOOR_CLIP, out=by_group[0], casting="unsafe")
    np.minimum(manhattan[root_squares].min(axis=0), FLOOR_CLIP, out=by_group[1], casting="unsafe")
    best_king, best_manhattan = (by_group @ _partition_matrix(tables, subset)).min(axis=1).tolist()
    return int(best_king), int(best_manhattan)


def _square_array(mask: int) -> np.ndarray:
    """Bit positions of a mask, as a numpy array (for indexing the Steiner tables)."""
    import numpy as np

    if not mask:
        return np.zeros(0, dtype=np.int64)
    raw = np.frombuffer(mask.to_bytes((mask.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").nonzero()[0]


def _squares(mask: int) -> list[int]:
    """Bit positions of a mask."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length() - 1)
        mask ^= low
    return squares


def _steiner_tables(problem: BlokusProblem, target_mask: int) -> SteinerTables | None:
    """St(A + v) for every subset A of the targets and square v, king and Manhattan (Dreyfus-Wagner)."""
    cache = problem.__dict__.setdefault("_blokus_steiner", {})
    if target_mask in cache:
        return cache[target_mask]
    import numpy as np

    board = problem.board
    bits = []
    mask = target_mask
    while mask:
        low = mask & -mask
        bits.append(low)
        mask ^= low
    if len(bits) > STEINER_TARGETS or board.rows * board.cols > STEINER_SQUARES:
        cache[target_mask] = None
        return None
    rows, cols, stride = board.rows, board.cols, board.stride
    grid_r, grid_c = np.divmod(np.arange(rows * cols), cols)
    dr = np.abs(grid_r[:, None] - grid_r[None, :])
    dc = np.abs(grid_c[:, None] - grid_c[None, :])
    places = (grid_r * stride + grid_c)
    cells = [board.cell_at(bit) for bit in bits]
    count = len(bits)
    result = []
    for distance in (np.maximum(dr, dc), dr + dc):
        table = np.zeros((1 << count, rows * cols), dtype=np.int64)
        for i, (r, c) in enumerate(cells):
            table[1 << i] = distance[r * cols + c]
        for group in range(1, 1 << count):
            if group & (group - 1) == 0:
                continue
            low = group & -group
            rest = group ^ low
            joined = None
            sub = rest
            while True:
                a = sub | low
                b = group ^ a
                if b:
                    both = table[a] + table[b]
                    joined = both if joined is None else np.minimum(joined, both)
                if not sub:
                    break
                sub = (sub - 1) & rest
            table[group] = (joined[:, None] + distance).min(axis=0)
        spread = np.full((rows * stride, 1 << count), INFINITE, dtype=np.int32)
        spread[places] = table.T
        result.append(spread)
    index_of = {bit: i for i, bit in enumerate(bits)}
    tables: SteinerTables = (result[0], result[1], index_of, {})
    cache[target_mask] = tables
    return tables


def _orthogonal_distances(board: Board, occupied: int, bits: list[int]) -> list[int]:
    """Manhattan distance from the nearest placed tile to each target square."""
    distances = []
    for bit in bits:
        for distance, ball in enumerate(board.manhattan_balls(bit)):
            if ball & occupied:
                distances.append(distance)
                break
    return distances


def _piece_tables(problem: BlokusProblem, used: int) -> PieceTables:
    """Knapsack tables over the pieces in hand, by exact tile total T (-1: no subset sums to T).

    ``count[T]``: the most pieces; ``king[T]`` / ``manhattan[T]``: the largest
    sum of (king diameter + 1) / (Manhattan diameter + 2); and the prefix sums
    of the pieces' gains s - 1 - king diameter / s - 1 - Manhattan diameter,
    largest first. Shared between sets of pieces with the same kinds of piece.
    """
    cache = problem.__dict__.setdefault("_blokus_tables", {})
    tables = cache.get(used)
    if tables is None:
        kind_of = problem.__dict__.get("_blokus_piece_kinds")
        if kind_of is None:
            kind_of = problem.__dict__["_blokus_piece_kinds"] = [
                (piece.size, piece.king_diameter, piece.manhattan_diameter) for piece in problem.board.pieces.pieces
            ]
        kinds = tuple(sorted(kind for index, kind in enumerate(kind_of) if not used >> index & 1))
        shared = problem.board.__dict__.setdefault("_blokus_tables_by_kinds", {})  # for every problem on the board
        tables = shared.get(kinds)
        if tables is None:
            tables = shared[kinds] = _knapsacks(kinds)
        cache[used] = tables
    return tables


def _knapsacks(kinds: tuple[tuple[int, int, int], ...]) -> PieceTables:
    """The tables of :func:`_piece_tables` for pieces of these kinds: a 0/1 knapsack by exact tile total.

    One piece at a time, every total reached so far may take the piece on
    top (numpy shifts of the whole table, which read only the values before
    the piece, as the usual descending loop does).
    """
    import numpy as np

    total = sum(size for size, _, _ in kinds)
    # rows: the most pieces, the largest sum of king diameters + 1, of Manhattan diameters + 2
    tables = np.full((3, total + 1), -1, dtype=np.int64)
    tables[:, 0] = 0
    for size, king_diameter, manhattan_diameter in kinds:
        before = tables[:, : total + 1 - size]
        grown = np.where(before[0] >= 0, before + [[1], [king_diameter + 1], [manhattan_diameter + 2]], -1)
        np.maximum(tables[:, size:], grown, out=tables[:, size:])
    count, king, manhattan = tables.tolist()
    king_gains = sorted((size - 1 - d for size, d, _ in kinds), reverse=True)
    manhattan_gains = sorted((size - 1 - d for size, _, d in kinds), reverse=True)
    return count, king, manhattan, _prefix_sums(king_gains), _prefix_sums(manhattan_gains)


def _knapsacks_by_loop(kinds: tuple[tuple[int, int, int], ...]) -> PieceTables:
    """:func:`_knapsacks` as a plain loop over the totals, the reference its tests compare with."""
    total = sum(size for size, _, _ in kinds)
    count, king, manhattan = [-1] * (total + 1), [-1] * (total + 1), [-1] * (total + 1)
    count[0] = king[0] = manhattan[0] = 0
    top = 0
    for size, king_diameter, manhattan_diameter in kinds:
        for tiles in range(top, -1, -1):
            if count[tiles] < 0:
                continue
            more = tiles + size
            count[more] = max(count[more], count[tiles] + 1)
            king[more] = max(king[more], king[tiles] + king_diameter + 1)
            manhattan[more] = max(manhattan[more], manhattan[tiles] + manhattan_diameter + 2)
        top += size
    king_gains = sorted((size - 1 - d for size, d, _ in kinds), reverse=True)
    manhattan_gains = sorted((size - 1 - d for size, _, d in kinds), reverse=True)
    return count, king, manhattan, _prefix_sums(king_gains), _prefix_sums(manhattan_gains)


def _prefix_sums(values: list[int]) -> list[int]:
    sums = [0]
    for value in values:
        sums.append(sums[-1] + value)
    return sums


def cheapest_pieces(problem: BlokusProblem, used: int, cells: int, budget: int, targets: int = 1) -> float:
    """The fewest tiles T of pieces in hand that can provide ``cells`` and ``budget``.

    See :func:`.heuristics.reach` for why this bounds the cost of a plan.
    """
    count, king, manhattan, king_gains, manhattan_gains = _piece_tables(problem, used)
    branching = min(max(targets - 1, 0), len(king_gains) - 1)
    king_extra, manhattan_extra = king_gains[branching], manhattan_gains[branching]
    for total in range(max(cells, 0), len(count)):
        if (
            count[total] >= 0
            and total + count[total] >= budget
            and king[total] + king_extra >= cells
            and manhattan[total] + manhattan_extra >= budget
        ):
            return total
    return math.inf


def reach_below(state: AnyState, problem: BlokusProblem, limit: float) -> float:
    """``reach``, or a smaller admissible value that is already at least ``limit``.

    The exact Steiner trees are the costly part of ``reach``: when the bound
    without them reaches ``limit`` (a search about to prune the state), that
    bound is returned.
    """
    return _reach(state, problem, limit)


def _reach(
    state: AnyState, problem: BlokusProblem, limit: float, steiner: tuple[int, int] | None = None
) -> float:
    """:func:`reach_below`, with the exact Steiner trees ``steiner`` when already known."""
    if problem.kind == "fill":
        return len(problem.sizes) - state[1].bit_count()
    used = state[1]
    targets = (problem.target_mask & ~state[0]).bit_count()

    def settled(cells: int, budget: int) -> bool:
        return cells == 0 or cheapest_pieces(problem, used, cells, budget, targets) >= limit

    needs = _needs(
        state, problem, problem.target_mask, problem.protected_mask, settled if limit < math.inf else None, steiner
    )
    if needs is None:
        return math.inf
    cells, budget = needs
    if cells == 0:
        return 0
    return cheapest_pieces(problem, used, cells, budget, targets)


def reach_children(problem: BlokusProblem, state: AnyState, orders: np.ndarray) -> list[float]:
    """``reach`` of every child of ``state`` (the moves' ``order`` numbers, a numpy array), in that order.

    The same values as ``reach`` one child at a time; only the exact Steiner
    trees are computed for all the children together
    (:func:`_steiner_children`).
    """
    occupied, used = state[0], state[1]
    placements = problem.board.placements
    trees = _steiner_children(problem, state, orders) if len(orders) else None
    values = []
    for number, order in enumerate(orders.tolist()):
        move = placements[order]
        child = (occupied | move.mask, used | 1 << move.piece)
        values.append(_reach(child, problem, math.inf, None if trees is None else trees[number]))
    return values


def _steiner_children(
    problem: BlokusProblem, state: AnyState, orders: np.ndarray
) -> list[tuple[int, int]] | None:
    """:func:`_steiner_trees` of every child of ``state`` with its own anchors, all at once; None without tables.

    A child's anchors, the free corner squares of its tiles, are the
    parent's anchors not edge-adjacent to the new piece (nor under it) and
    the new piece's free corners not edge-adjacent to the parent's tiles;
    its placed tiles are the parent's and the new piece's. The king values
    are the minimum over those anchors, the Manhattan values over those
    tiles, and the partition is the one of :func:`reach_floors`. Only used
    with ``_needs``, which reaches the trees only for a child with anchors.
    """
    import numpy as np

    if problem.kind == "fill" or problem.protected_mask:
        return None
    tables = _steiner_tables(problem, problem.target_mask)
    if tables is None:
        return None
    king, manhattan, index_of, _ = tables
    _, new_manhattan, covers, _, corner_squares, around_words = _floor_tables(problem, tables)
    occupied = state[0]
    board = problem.board
    forbidden = board.orthogonal(occupied)
    king_plus_one = _clipped_rows(problem, tables)
    count = len(orders)
    # the parent's anchors that stay anchors
    anchor_squares = _square_array(board.anchors(occupied, problem.start_bit) & board.full & ~forbidden)
    child_king = np.full((count, king.shape[1]), FLOOR_CLIP, dtype=np.float32)
    if anchor_squares.size:
        around = around_words[orders][:, anchor_squares // 64] >> (anchor_squares % 64).astype(np.uint64)
        stays = (around & np.uint64(1)) == 0
        rows = np.where(stays[:, :, None], king_plus_one[anchor_squares][None], FLOOR_CLIP)
        np.minimum(child_king, rows.min(axis=1), out=child_king)
    # the new piece's corners not edge-adjacent to the parent's tiles
    corners = corner_squares[orders]
    barred = np.zeros(board.rows * board.stride, dtype=bool)
    barred[_square_array(forbidden)] = True
    rows = np.where(barred[corners][:, :, None], FLOOR_CLIP, king_plus_one[corners])
    np.minimum(child_king, rows.min(axis=1), out=child_king)
    child_manhattan = new_manhattan[orders]
    if occupied:
        roots = np.minimum(manhattan[_square_array(occupied)].min(axis=0), FLOOR_CLIP).astype(np.float32)
        child_manhattan = np.minimum(child_manhattan, roots)
    parent_subset = 0
    for bit, index in index_of.items():
        if not occupied & bit:
            parent_subset |= 1 << index
    left = parent_subset & ~covers[orders]
    cells, budget = _partition_costs(tables, parent_subset, left, child_king, child_manhattan)
    return list(zip(cells.astype(np.int64).tolist(), budget.astype(np.int64).tolist()))


def _clipped_rows(problem: BlokusProblem, tables: SteinerTables) -> np.ndarray:
    """The king Steiner table plus one, clipped to FLOOR_CLIP, as float32 (cached)."""
    cache = problem.__dict__.setdefault("_blokus_king_rows", {})
    rows = cache.get(id(tables))
    if rows is None:
        import numpy as np

        rows = cache[id(tables)] = np.minimum(tables[0] + 1, FLOOR_CLIP).astype(np.float32)
    return rows


def _partition_costs(
    tables: SteinerTables,
    parent_subset: int,
    left: np.ndarray,
    child_king: np.ndarray,
    child_manhattan: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The cheapest partitions of each child's uncovered targets ``left``, king and Manhattan (see reach_floors).

    A child's uncovered targets are ``left``, a part of the parent's: a
    group A then costs what A & left does (nothing when empty), so that
    every partition of the parent's targets is one of the child's, each
    group's covered targets merged into it for free, and the cheapest
    partition of the parent's targets under these costs is the cheapest of
    the child's targets. ``child_king`` and ``child_manhattan`` are changed.
    """
    import numpy as np

    child_king[:, 0] = child_manhattan[:, 0] = 0  # the empty group
    covering = np.flatnonzero(left != parent_subset)
    if covering.size:
        groups = np.arange(child_king.shape[1]) & left[covering, None]
        child_king[covering] = np.take_along_axis(child_king[covering], groups, axis=1)
        child_manhattan[covering] = np.take_along_axis(child_manhattan[covering], groups, axis=1)
    partitions = _partition_matrix(tables, parent_subset)
    return _cheapest_partitions(child_king, partitions), _cheapest_partitions(child_manhattan, partitions)


def reach_floors(problem: BlokusProblem, state: AnyState, orders: np.ndarray, cap: int) -> np.ndarray | None:
    """Lower bounds on ``reach`` of every child of ``state``, all at once, or None when there are none.

    ``orders`` are the ``order`` numbers of the moves played from ``state``
    (a numpy array, see ``Board.legal_orders``). Each child's floor is
    ``cheapest_pieces`` of the exact Steiner-tree bounds of
    :func:`_steiner_trees` alone, with the child's anchors widened to the
    parent's anchors plus the free corners of the new piece, or ``cap`` when
    it is at least ``cap``: a search that prunes every state with
    ``reach >= limit`` (for a limit at most ``cap``) can prune a child whose
    floor reaches it, and compute ``reach`` only for the others.

    Why each is at most the child's ``reach`` (so that pruning on it is what
    pruning on ``reach`` does):

    * a child whose uncovered target touches the new piece edge to edge is
      a dead end (``reach`` is infinite), so its floor is ``cap``;
    * the child's anchors are free corner squares of its tiles, so each is
      an anchor of the parent or a corner square of the new piece that is
      not edge-adjacent to it: a minimum over that wider set is no larger.
      The child's placed tiles are the parent's plus the new piece's, so
      the Manhattan minimum is exact. The partition over the uncovered
      targets, the same sum over groups as :func:`_steiner_trees`, is taken
      over every partition at once (a product with a 0/1 matrix). So
      ``cells`` and ``budget`` are at most those :func:`_needs` returns,
      which also takes the larger with its own bounds;
    * :func:`cheapest_pieces` only grows with ``cells`` and ``budget`` (its
      four inequalities only get harder), and is computed here with the
      child's pieces in hand and uncovered targets, over all children at
      once.

    None when the problem has no Steiner tables (too many targets or
    squares) or is a fill puzzle.
    """
    import numpy as np

    count = len(orders)
    if problem.kind == "fill" or not count:
        return None
    tables = _steiner_tables(problem, problem.target_mask)
    if tables is None:
        return None
    if cap <= 0:
        return np.full(count, cap, dtype=np.int64)
    king, manhattan, index_of, _ = tables
    by_placement = _floor_tables(problem, tables)
    new_king, new_manhattan, covers, touches = by_placement[:4]
    occupied, used = state[0], state[1]
    board = problem.board
    forbidden = board.orthogonal(occupied)
    anchor_squares = _square_array(board.anchors(occupied, problem.start_bit) & board.full & ~forbidden)
    root_squares = _square_array(occupied or problem.start_bit)
    parent_subset = 0
    for bit, index in index_of.items():
        if not occupied & bit:
            parent_subset |= 1 << index
    child_king = new_king[orders]
    if anchor_squares.size:
        parent_king = np.minimum(king[anchor_squares].min(axis=0) + 1, FLOOR_CLIP).astype(np.float32)
        np.minimum(child_king, parent_king, out=child_king)
    parent_manhattan = np.minimum(manhattan[root_squares].min(axis=0), FLOOR_CLIP).astype(np.float32)
    child_manhattan = np.minimum(new_manhattan[orders], parent_manhattan)
    left = parent_subset & ~covers[orders]
    dead = (left & touches[orders]) != 0
    cells, budget = _partition_costs(tables, parent_subset, left, child_king, child_manhattan)
    # the pieces: the child's pieces in hand are the parent's but the one played (a row per piece)
    pieces = board.move_arrays().piece[orders]
    capacity, king_sum, manhattan_sum, king_gains, manhattan_gains = _child_piece_tables(problem, used, cap)
    branching = np.minimum(np.maximum(_popcounts(len(index_of)) - 1, 0), king_gains.shape[1] - 1)[left]
    cells[dead] = cap  # no total below cap will do
    totals = np.arange(capacity.shape[1])
    fits = (
        (totals >= cells[:, None])
        & (capacity[pieces] >= budget[:, None])
        & (king_sum[pieces] >= (cells - king_gains[pieces, branching])[:, None])
        & (manhattan_sum[pieces] >= (budget - manhattan_gains[pieces, branching])[:, None])
    )
    floors = np.where(fits.any(axis=1), fits.argmax(axis=1), cap)
    return floors


def _child_piece_tables(problem: BlokusProblem, used: int, cap: int) -> tuple[np.ndarray, ...]:
    """:func:`_piece_tables` after each piece in hand is spent, as numpy arrays with a row per piece.

    The knapsack rows are cut to the totals T below ``cap`` (padded with -1:
    no subset of that total); instead of the count of pieces, T plus that
    count, what :func:`cheapest_pieces` compares with the budget. The prefix sums of the gains are padded with
    their last value, which is what :func:`cheapest_pieces` reads beyond
    their end. The rows of pieces already spent are left at -1. Cached by
    ``used`` and ``cap``: many states share their pieces in hand.
    """
    import numpy as np

    stacked_by_hand = problem.__dict__.setdefault("_blokus_child_tables", {})
    stacked = stacked_by_hand.get((used, cap))
    if stacked is not None:
        return stacked
    pieces = len(problem.sizes)
    width = max(cap, 1)
    gains_width = STEINER_TARGETS + 1  # branching, the index read, is at most the targets less one
    knapsacks = np.full((3, pieces, width), -1, dtype=np.int64)
    gains = np.full((2, pieces, gains_width), -1, dtype=np.int64)
    for piece in range(pieces):
        if used >> piece & 1:
            continue
        tables = _piece_tables(problem, used | 1 << piece)
        for part in range(3):
            values = tables[part][:width]
            knapsacks[part, piece, : len(values)] = values
        for part in range(2):
            values = tables[3 + part][:gains_width]
            gains[part, piece, : len(values)] = values
            gains[part, piece, len(values) :] = values[-1]
    most = knapsacks[0]
    # T + the most pieces of total T: what the Manhattan budget can reach (-1: no subset of total T)
    capacity = np.where(most >= 0, np.arange(width) + most, -1)
    stacked = (capacity, knapsacks[1], knapsacks[2], gains[0], gains[1])
    if len(stacked_by_hand) > 2_000:  # about 15 KB each with the 21-piece set
        stacked_by_hand.clear()
    stacked_by_hand[(used, cap)] = stacked
    return stacked


def _popcounts(count: int) -> np.ndarray:
    """The number of targets in each subset of ``count`` targets (a numpy array)."""
    import numpy as np

    return np.array([bin(subset).count("1") for subset in range(1 << count)], dtype=np.int64)


def _floor_tables(problem: BlokusProblem, tables: SteinerTables) -> tuple[np.ndarray, ...]:
    """Per placement (by ``order``): the Steiner values through its free corners (king, + 1) and its tiles
    (Manhattan), and the targets (as subsets of the tables' indices) it covers and touches edge to edge."""
    # on the board, for every problem with these targets (the mini-contest's searches each have their own)
    cache = problem.board.__dict__.setdefault("_blokus_floors", {})
    known = cache.get(problem.target_mask)
    if known is not None:
        return known
    import numpy as np

    king, manhattan, index_of, _ = tables
    board = problem.board
    guard = board.cols  # a guard-column position: its rows hold INFINITE
    corners, tiles, covers, touches, arounds = [], [], [], [], []
    for placement in board.placements:
        mask = placement.mask
        around = board.orthogonal(mask)
        arounds.append(around)
        corners.append(_squares(board.diagonal(mask) & ~around))
        tiles.append(_squares(mask))
        covers.append(sum(1 << index for bit, index in index_of.items() if mask & bit))
        touches.append(sum(1 << index for bit, index in index_of.items() if around & bit))
    width = (board.rows * board.stride + 63) // 64
    around_words = np.array(
        [[around >> (64 * i) & 0xFFFF_FFFF_FFFF_FFFF for i in range(width)] for around in arounds], dtype=np.uint64
    ).reshape(-1, width)
    # float32 for a fast product with the partition matrices; clipped so that every sum stays exact
    # (a lower value is still a lower bound, and FLOOR_CLIP is beyond any cap)
    new_king = np.minimum(_minimum_over(king, corners, guard) + 1, FLOOR_CLIP).astype(np.float32)
    new_manhattan = np.minimum(_minimum_over(manhattan, tiles, guard), FLOOR_CLIP).astype(np.float32)
    known = cache[problem.target_mask] = (
        new_king,
        new_manhattan,
        np.array(covers, dtype=np.int64),
        np.array(touches, dtype=np.int64),
        _padded(corners, guard),
        around_words,
    )
    return known


FLOOR_CLIP = 1 << 16
"""Tree lengths above this are cut to it in :func:`reach_floors` (float32 sums of them stay exact)."""


def _padded(squares: list[list[int]], pad: int) -> np.ndarray:
    """Lists of squares as the rows of a numpy array, ``pad`` filling the short ones."""
    import numpy as np

    width = max((len(row) for row in squares), default=0) or 1
    index = np.full((len(squares), width), pad, dtype=np.int64)
    for number, row in enumerate(squares):
        index[number, : len(row)] = row
    return index


def _minimum_over(table: np.ndarray, squares: list[list[int]], pad: int) -> np.ndarray:
    """For each list of squares, the row-wise minimum of ``table`` over them (``pad`` fills short lists)."""
    import numpy as np

    index = _padded(squares, pad)
    width = index.shape[1]
    result = table[index[:, 0]].copy()
    for column in range(1, width):
        np.minimum(result, table[index[:, column]], out=result)
    return result


def _cheapest_partitions(costs: np.ndarray, partitions: np.ndarray) -> np.ndarray:
    """Row by row, the smallest sum of ``costs`` over the groups of a partition (a column of ``partitions``).

    The products are made a few rows at a time: OpenBLAS, numpy's usual
    BLAS, spreads a product of more than 2**19 multiply-adds over threads
    (one per 2**18), and on products this small the threads cost several
    times the CPU time they save (ten times, measured on a busy 2-core
    machine).
    """
    import numpy as np

    rows = len(costs)
    step = max(8, PRODUCT_SIZE // (partitions.shape[0] * partitions.shape[1]))
    if rows <= step:
        return (costs @ partitions).min(axis=1)
    sums = np.empty((rows, partitions.shape[1]), dtype=np.float32)
    for first in range(0, rows, step):
        np.matmul(costs[first : first + step], partitions, out=sums[first : first + step])
    return sums.min(axis=1)


PRODUCT_SIZE = (1 << 19) - 1
"""Most multiply-adds per matrix product in :func:`_cheapest_partitions`: OpenBLAS keeps them on one thread."""


def _partition_matrix(tables: SteinerTables, subset: int) -> np.ndarray:
    """Columns: the partitions of ``subset`` into groups; rows: the groups (0/1, float32 for a fast product).

    Cached in the Steiner ``tables`` of the targets whose subsets these are.
    """
    cache = tables[3]
    matrix = cache.get(subset)
    if matrix is None:
        import numpy as np

        partitions = list(_partitions(subset))
        matrix = np.zeros((tables[0].shape[1], len(partitions)), dtype=np.float32)
        for column, groups in enumerate(partitions):
            matrix[groups, column] = 1
        cache[subset] = matrix
    return matrix


def _partitions(subset: int) -> Iterator[list[int]]:
    """Every partition of the bits of ``subset`` into groups, as lists of group masks."""
    if not subset:
        yield []
        return
    low = subset & -subset
    rest = subset ^ low
    sub = rest
    while True:
        for others in _partitions(rest ^ sub):
            yield [sub | low, *others]
        if not sub:
            break
        sub = (sub - 1) & rest


def target_bound(state: AnyState, problem: BlokusProblem, target: Cell) -> float:
    """``reach`` for one target alone (used to pick the nearest target)."""
    needs = _needs(state, problem, problem.board.bit(*target))
    if needs is None:
        return math.inf
    return cheapest_pieces(problem, state[1], *needs)
