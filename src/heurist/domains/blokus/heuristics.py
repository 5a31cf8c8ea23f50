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
from itertools import permutations

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
    """Write-up distance estimate over the corners (not admissible; see distance_estimate)."""
    return distance_estimate(state, problem)


@HEURISTICS.register("cover", aliases=("blokus_cover_heuristic",))
def cover(state, problem) -> float:
    """Write-up distance estimate over the targets (not admissible; see distance_estimate)."""
    return distance_estimate(state, problem)


# -- the admissible bound ------------------------------------------------------------------


def _needs(state, problem, target_mask: int, guard_mask: int = 0) -> tuple[int, int] | None:
    """(cells, budget) a plan covering ``target_mask`` must provide, or None at a dead end.

    Every future piece lies in ``free``: squares that are neither own tiles
    nor edge-adjacent to one, a set that only shrinks as pieces are added.
    The pieces that cover a target t form a chain back to the placed tiles,
    each touching the previous one corner to corner and the first covering an
    anchor. Two bounds follow, both needing only the pieces' sizes:

    * cells: the chain's squares are king-connected inside ``free`` from an
      anchor to t, so it has at least 1 + (king distance in ``free``) squares;
      if t cannot be reached that way, or is not free, t is dead.
    * budget: a polyomino of s tiles spans at most s - 1 rows plus columns,
      and the corner step into it spans 2, so a chain of pieces of sizes
      s_1..s_k reaches Manhattan distance at most sum(s_i + 1) from the tile
      it hangs on (sum(s_i + 1) - 2 from the start square, which the first
      piece covers). The same holds for all targets at once: the pieces,
      their edge-joints and the corner steps form a rectilinear tree of that
      length joining every target to the placed tiles, so the budget is also
      at least the length of a rectilinear Steiner tree, which is at least
      the half-perimeter of the targets' bounding box plus its distance to
      the tiles.

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
    cells = 1
    needed_cells = 0
    while True:
        hit = pending & reached
        if hit:
            pending ^= hit
            if hit & uncovered:
                needed_cells = cells
            if not pending:
                break
        grown = board.king(reached) & free
        if grown == reached:
            return None
        reached = grown
        cells += 1
    if not uncovered:
        return 0, 0
    budget = _manhattan_budget(board, occupied, problem.start, uncovered)
    return needed_cells, budget


def _manhattan_budget(board, occupied: int, start: Cell, uncovered: int) -> int:
    """The least tiles + pieces a plan needs to join every uncovered target to the placed tiles.

    The targets and a root (the start square on the empty board, else the
    placed tiles taken as one region) must be joined by a rectilinear tree
    of length at most tiles + pieces (- 2 from the start square). A tree is
    at least half of any closed tour through its terminals, here in the
    metric where the placed tiles cost nothing to cross; exact for up to 4
    targets, else bounded below by half the sum of nearest-neighbour distances.
    From a single start square the half-perimeter of the bounding box is a
    lower bound too.
    """
    targets = board.cells_of(uncovered)
    if occupied:
        to_root = _orthogonal_distances(board, occupied, uncovered, targets)
        extra = 0
        half_perimeter = 0
    else:
        sr, sc = start
        to_root = [abs(r - sr) + abs(c - sc) for r, c in targets]
        extra = 2
        rows = [r for r, _ in targets] + [sr]
        cols = [c for _, c in targets] + [sc]
        half_perimeter = max(rows) - min(rows) + max(cols) - min(cols)
    count = len(targets)
    between = [[0] * count for _ in range(count)]
    for i, (r1, c1) in enumerate(targets):
        for j in range(i + 1, count):
            r2, c2 = targets[j]
            direct = abs(r1 - r2) + abs(c1 - c2)
            if occupied:
                direct = min(direct, to_root[i] + to_root[j])
            between[i][j] = between[j][i] = direct
    if count <= 4:
        tour = min(
            to_root[order[0]]
            + sum(between[a][b] for a, b in zip(order, order[1:]))
            + to_root[order[-1]]
            for order in permutations(range(count))
        )
        tree = (tour + 1) // 2
    else:
        nearest = min(to_root) + sum(
            min([to_root[i]] + [between[i][j] for j in range(count) if j != i]) for i in range(count)
        )
        tree = max(max(to_root), (nearest + 1) // 2)
    return max(tree, half_perimeter) + extra


def _orthogonal_distances(board, occupied: int, uncovered: int, targets: list[Cell]) -> list[int]:
    """Manhattan distance from the nearest placed tile to each target, by growing the tiles."""
    distance = {}
    grown, steps, pending = occupied, 0, uncovered
    while pending:
        hit = pending & grown
        if hit:
            for cell in board.cells_of(hit):
                distance[cell] = steps
            pending ^= hit
        grown = board.orthogonal(grown)
        steps += 1
    return [distance[cell] for cell in targets]


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
