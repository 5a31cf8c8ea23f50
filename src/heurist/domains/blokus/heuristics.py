"""Heuristics for the Blokus puzzles.

* ``null`` (course name ``null_heuristic``): 0.
* ``corners`` and ``cover`` (course names ``blokus_corners_heuristic`` and
  ``blokus_cover_heuristic``): the distance estimate of the course write-ups,
  reproduced as they describe it. **Not admissible** in general, despite the
  write-ups' argument; see :func:`distance_estimate`.
* ``reach`` (the default): an admissible bound from the pieces still in hand,
  with dead-end detection. See :func:`reach`.

All of them read the squares to cover from ``problem.target_mask`` (the three
corners for the corners puzzle), so each works on every puzzle.
"""

from __future__ import annotations

import math

from heurist.domains.blokus.pieces import Cell
from heurist.search import HeuristicRegistry

HEURISTICS = HeuristicRegistry("blokus")


@HEURISTICS.register("null", aliases=("null_heuristic", "zero"))
def null(state, problem) -> float:
    """h = 0: admissible and consistent, and no help at all."""
    return 0


def distance_estimate(state, problem) -> float:
    """The write-ups' estimate: per uncovered target, an adjusted Manhattan distance; summed.

    For each uncovered target take d, the smallest Manhattan distance from a
    placed tile (from the start square on the empty board, unadjusted):
    d = 1 means the target touches a tile edge to edge and can never be
    covered, so infinity; otherwise d + 1 if a nearest tile is in the
    target's row or column, d - 1 if not.

    Not admissible, although the write-ups argue it is: the sum counts a piece
    once for every target it brings closer, and the "+1 in line" overshoots
    when a monomino is in hand. With a tile at (0, 0) only, the target (0, 3)
    gets 3 + 1 = 4, yet a monomino at (1, 1) and a domino on (0, 2)-(0, 3)
    cover it with 3 tiles. The infinity for edge-adjacent targets is exact.
    """
    occupied = state[0]
    uncovered = problem.target_mask & ~occupied
    if not uncovered:
        return 0
    board = problem.board
    targets = board.cells_of(uncovered)
    if not occupied:
        sr, sc = problem.start
        return sum(abs(r - sr) + abs(c - sc) for r, c in targets)
    tiles = board.cells_of(occupied)
    total = 0
    for r, c in targets:
        nearest = min(abs(r - tr) + abs(c - tc) for tr, tc in tiles)
        if nearest == 1:
            return math.inf
        in_line = any(abs(r - tr) + abs(c - tc) == nearest and (r == tr or c == tc) for tr, tc in tiles)
        total += nearest + 1 if in_line else nearest - 1
    return total


@HEURISTICS.register("corners", aliases=("blokus_corners_heuristic",))
def corners(state, problem) -> float:
    """The write-ups' adjusted Manhattan distances to the corners, summed (not admissible)."""
    return distance_estimate(state, problem)


@HEURISTICS.register("cover", aliases=("blokus_cover_heuristic",))
def cover(state, problem) -> float:
    """The write-ups' adjusted Manhattan distances to the targets, summed (not admissible)."""
    return distance_estimate(state, problem)


# -- the admissible bound ------------------------------------------------------------------


def _needs(state, problem, target_mask: int, guard_mask: int = 0) -> tuple[int, int] | None:
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

    ``guard_mask`` targets need not be covered but must stay coverable.
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
    reached = board.anchors(occupied, problem.start_bit) & free
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
    targets = [board.cell_at(bit) for bit in bits]
    if occupied:
        manhattan_root = _orthogonal_distances(board, occupied, bits)
        extra = 0
        half_perimeter = 0
    else:
        sr, sc = problem.start
        manhattan_root = [abs(r - sr) + abs(c - sc) for r, c in targets]
        extra = 2
        rows = [r for r, _ in targets] + [sr]
        cols = [c for _, c in targets] + [sc]
        half_perimeter = max(rows) - min(rows) + max(cols) - min(cols)
    cells = _tree_bound(problem, 0, bits, [king_root[bit] for bit in bits], chebyshev=True)
    budget = max(_tree_bound(problem, 1, bits, manhattan_root, chebyshev=False), half_perimeter) + extra
    return cells, budget


def _tree_bound(problem, metric: int, bits: list[int], root: list[int], *, chebyshev: bool) -> int:
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


def _orthogonal_distances(board, occupied: int, bits: list[int]) -> list[int]:
    """Manhattan distance from the nearest placed tile to each target square."""
    distances = []
    for bit in bits:
        for distance, ball in enumerate(board.manhattan_balls(bit)):
            if ball & occupied:
                distances.append(distance)
                break
    return distances


def _best_counts(problem, used: int) -> list[int]:
    """best[T] = the most pieces in hand whose sizes sum to exactly T (-1 if impossible)."""
    cache = problem.__dict__.setdefault("_blokus_best_counts", {})
    best = cache.get(used)
    if best is None:
        sizes = [size for piece, size in enumerate(problem.sizes) if not used >> piece & 1]
        best = [-1] * (sum(sizes) + 1)
        best[0] = 0
        reach_top = 0
        for size in sizes:
            for total in range(reach_top, -1, -1):
                if best[total] >= 0 and best[total] + 1 > best[total + size]:
                    best[total + size] = best[total] + 1
            reach_top += size
        cache[used] = best
    return best


def cheapest_pieces(problem, used: int, cells: int, budget: int) -> float:
    """The fewest tiles of pieces in hand with at least ``cells`` tiles and tiles + pieces >= ``budget``."""
    best = _best_counts(problem, used)
    for total in range(max(cells, 0), len(best)):
        if best[total] >= 0 and total + best[total] >= budget:
            return total
    return math.inf


@HEURISTICS.register("reach")
def reach(state, problem) -> float:
    """Admissible: the fewest tiles of pieces in hand that can reach every uncovered target.

    From :func:`_needs`, any plan's pieces (sizes s_1..s_k, cost T = sum s_i)
    satisfy T >= cells and T + k >= budget; the heuristic is the smallest T
    some subset of the pieces in hand achieves, so it never exceeds the cost
    of a real plan. It is infinite, correctly, when a target touches an own
    tile edge to edge, is walled off, or is out of reach of the pieces left.

    For the fill puzzle (cost 1 per move, every piece must be used) it is the
    number of pieces in hand, which every plan must still place.
    """
    if problem.kind == "fill":
        return len(problem.sizes) - state[1].bit_count()
    needs = _needs(state, problem, problem.target_mask, problem.protected_mask)
    if needs is None:
        return math.inf
    cells, budget = needs
    if cells == 0:
        return 0
    return cheapest_pieces(problem, state[1], cells, budget)


def target_bound(state, problem, target: Cell) -> float:
    """``reach`` for one target alone (used to pick the nearest target)."""
    needs = _needs(state, problem, problem.board.bit(*target))
    if needs is None:
        return math.inf
    return cheapest_pieces(problem, state[1], *needs)
