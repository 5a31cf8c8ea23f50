"""Klotski heuristics, each with its admissibility argument.

All are functions ``h(state, problem)`` registered in :data:`HEURISTICS`.
Costs count moves, whatever the metric; "admissible" below means never above
the cheapest number of moves to a goal under the problem's metric, and the
arguments for ``manhattan``, ``blocking`` and ``neighbors`` hold for the
``step`` metric (one cell per move), the one the write-ups use.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable

from heurist import cache
from heurist.domains.klotski.board import BIG, HORIZONTAL, SHAPES, SINGLE, VERTICAL, iter_bits
from heurist.domains.klotski.model import KlotskiProblem
from heurist.domains.klotski.pdb import build_table
from heurist.search import HeuristicRegistry
from heurist.search.assignment import minimum_assignment_cost

HEURISTICS = HeuristicRegistry("klotski")

PDB_MAX_STATES = 200_000
"""Abstract spaces larger than this are not tabulated (building one takes about 0.3 s per
100,000 states, less for the 1x1 pieces' pattern); that pattern database then contributes nothing."""


@HEURISTICS.register("zero", aliases=("blind",))
def zero(state: int, problem: KlotskiProblem) -> float:
    """0 everywhere: admissible and consistent, and uninformed."""
    return 0


@HEURISTICS.register("manhattan")
def manhattan(state: int, problem: KlotskiProblem) -> float:
    """Manhattan distance: of the 2x2 piece to the exit, or of every piece to the goal board.

    Exit goal: the 2x2 piece must travel at least its Manhattan distance, one
    cell per move, so this is admissible, and one move changes it by at most
    1, so it is consistent (the course's "relax the problem so pieces may
    overlap" argument). Under the ``slide`` metric a piece needs a move per
    axis it must travel along, under ``path`` one move if it is not home;
    those counts replace the distance, with the same argument.

    Goal board (V3): pieces of one shape are interchangeable, so each shape
    contributes the cheapest assignment of its pieces to its goal anchors
    (Hungarian algorithm, :mod:`heurist.search.assignment`). Any plan moves
    every piece along a path to the anchor it ends on, so the plan is at
    least the cheapest assignment; a move shifts one piece one cell and
    changes the sum by at most 1, so it is consistent. Piece counts that differ from the goal's make the goal
    unreachable: the value is infinity.
    """
    if problem.goal_state is None:
        return _exit_distance(state, problem)
    return _goal_board_distance(state, problem, SHAPES)


def moves_between(here: tuple[int, int], there: tuple[int, int], metric: str) -> int:
    """The fewest moves that can carry one piece from ``here`` to ``there`` on an empty board."""
    dr, dc = abs(here[0] - there[0]), abs(here[1] - there[1])
    if metric == "step":
        return dr + dc
    if metric == "slide":
        return (dr > 0) + (dc > 0)
    return int(dr + dc > 0)


def _exit_distance(state: int, problem: KlotskiProblem) -> float:
    cache = problem.tables.setdefault("exit-distance", {})
    big = state & problem.geometry.full
    distance = cache.get(big)
    if distance is None:
        geometry = problem.geometry
        target = geometry.row_col(problem.goal_anchor)
        distance = min(
            moves_between(geometry.row_col(a), target, problem.metric) for a in iter_bits(big)
        )
        cache[big] = distance
    return distance


def _goal_board_distance(state: int, problem: KlotskiProblem, shapes) -> float:
    geometry = problem.geometry
    cache = problem.tables.setdefault("assignment", {})
    total = 0
    for shape in shapes:
        mask = geometry.shape_mask(state, shape)
        key = (shape, mask)
        cost = cache.get(key)
        if cost is None:
            goal_mask = geometry.shape_mask(problem.goal_state, shape)
            cost = _assignment_cost(geometry, mask, goal_mask, problem.metric)
            cache[key] = cost
        total += cost
    return total


def _assignment_cost(geometry, mask: int, goal_mask: int, metric: str) -> float:
    here = [geometry.row_col(a) for a in iter_bits(mask)]
    there = [geometry.row_col(a) for a in iter_bits(goal_mask)]
    if len(here) != len(there):
        return math.inf
    # Pure Python: importing scipy for its linear_sum_assignment takes longer than a small search.
    return minimum_assignment_cost([[moves_between(h, t, metric) for t in there] for h in here])


def _big_anchor_and_target(state: int, problem: KlotskiProblem) -> tuple[int, int] | None:
    """The single 2x2 piece's anchor and where it must go, or None if that is not defined."""
    big = state & problem.geometry.full
    if problem.goal_anchor is None or not big or big & (big - 1):
        return None
    return big.bit_length() - 1, problem.goal_anchor


@HEURISTICS.register("blocking", aliases=("advanced-003",))
def blocking(state: int, problem: KlotskiProblem) -> float:
    """Seed write-up 003: Manhattan distance of the 2x2 piece plus the steps on its way that are blocked.

    As the write-up describes it: relax the puzzle so the 2x2 piece may pass
    over others, walk it to the exit (down or up to the exit rows first, then
    sideways), and add one for every step whose newly entered cells hold some
    other piece. That reproduces its worked example: 3 + 2 = 5 on the classic
    layout, where the horizontal piece and then the row of two 1x1 pieces
    are in the way.

    The write-up argues it is admissible because each piece in the way needs
    at least one move. That argument is not a proof: one move of a vertical
    piece can clear two consecutive steps, so the value can exceed the true
    distance. ``heurist check`` settles the claim.
    """
    located = _big_anchor_and_target(state, problem)
    if located is None:
        return manhattan(state, problem)
    anchor, target = located
    geometry = problem.geometry
    width = geometry.width
    occupied = geometry.occupied(state)
    r, c = geometry.row_col(anchor)
    gr, gc = geometry.row_col(target)
    distance = abs(r - gr) + abs(c - gc)
    blocked = 0
    row_step = 1 if gr > r else -1
    while r != gr:
        entered_row = r + 2 if row_step > 0 else r - 1
        entered = (1 << (entered_row * width + c)) | (1 << (entered_row * width + c + 1))
        if occupied & entered:
            blocked += 1
        r += row_step
    col_step = 1 if gc > c else -1
    while c != gc:
        entered_col = c + 2 if col_step > 0 else c - 1
        entered = (1 << (r * width + entered_col)) | (1 << ((r + 1) * width + entered_col))
        if occupied & entered:
            blocked += 1
        c += col_step
    return distance + blocked


@HEURISTICS.register("neighbors", aliases=("advanced-004",))
def neighbors(state: int, problem: KlotskiProblem) -> float:
    """Seed write-up 004: Manhattan distance plus moves for the pieces next to the 2x2 piece.

    The write-up's rules, with "middle" meaning the exit column:

    * on the bottom rows (not at the goal): the side neighbours, towards the middle;
    * in the middle column: the neighbours below;
    * in another column: both.

    Each distinct neighbouring piece adds its table value: below, a
    horizontal 1x2 piece adds 3 when the 2x2 piece is in the middle column
    and 1 otherwise, a vertical 1x2 or 1x1 piece adds 1; beside, every piece
    adds 1. The write-up claims admissibility because the neighbours must
    move out of the way; ``heurist check`` tests the claim.
    """
    located = _big_anchor_and_target(state, problem)
    if located is None:
        return manhattan(state, problem)
    anchor, target = located
    if anchor == target:
        return 0
    geometry = problem.geometry
    r, c = geometry.row_col(anchor)
    gr, gc = geometry.row_col(target)
    distance = abs(r - gr) + abs(c - gc)
    bottom_cells = [(r + 2, c), (r + 2, c + 1)] if r + 2 < geometry.height else []
    if c < gc:
        side_cells = [(r, c + 2), (r + 1, c + 2)]
    elif c > gc:
        side_cells = [(r, c - 1), (r + 1, c - 1)]
    else:
        side_cells = []
    if r == gr:
        look_below, look_beside = False, True
    elif c == gc:
        look_below, look_beside = True, False
    else:
        look_below, look_beside = True, True
    extra = 0
    seen: set[tuple[int, int]] = set()
    for cells, below in ((bottom_cells, True), (side_cells, False)):
        if not (look_below if below else look_beside):
            continue
        for rr, cc in cells:
            piece = geometry.piece_at(state, geometry.index(rr, cc))
            if piece is None or piece in seen:
                continue
            seen.add(piece)
            shape = piece[0]
            extra += 3 if below and shape == HORIZONTAL and c == gc else 1
    return distance + extra


PDB_FORMAT = 1
"""Version of the pattern databases' cache entries: raise it whenever their values could change."""
_PDB_CACHE = "klotski-pdb"  # the kind of entry, a sub-directory of the cache



def _pdb_shape(value: object) -> bool:
    """A cached table as :class:`PatternDatabase` stores it: None (too large), or (distances, size)."""
    if value is None:
        return True
    if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], dict) and isinstance(value[1], int)):
        return False
    return all(type(state) is int and type(distance) is int and distance >= 0
               for state, distance in value[0].items())

class PatternDatabase:
    """Exact goal distances in an abstraction that deletes some pieces.

    ``kept`` are the shapes that stay on the board; ``counted`` are the shapes
    whose moves cost 1 in the abstraction (the others move for free). Deleting
    pieces only frees cells, so every real move is a legal abstract move (or
    vanishes), and the abstract distance counting only ``counted`` moves is a
    lower bound on the real number of moves of ``counted`` pieces. Distances
    are computed by a 0-1 breadth-first search from the abstract goals over
    the component of the abstract start (moves are reversible).

    The table depends only on the board size, the metric, the abstraction,
    the abstract start and the goal, which make its key in the user's cache
    (:mod:`heurist.cache`): the next run on the same puzzle reads it instead
    of building it, with the same values. A component of more than
    ``PDB_MAX_STATES`` states raises ``OverflowError``, and that is cached too.
    """

    def __init__(self, problem: KlotskiProblem, kept: tuple[int, ...], counted: tuple[int, ...]):
        geometry = problem.geometry
        n = geometry.cells
        self.mask = sum(geometry.full << (shape * n) for shape in kept)
        self.kept = tuple(kept)
        self.counted = frozenset(counted)
        goal = None if problem.goal_state is None else problem.goal_state & self.mask
        start = problem.initial_state & self.mask
        key = (PDB_FORMAT, PDB_MAX_STATES, geometry.width, geometry.height, problem.metric, tuple(kept),
               tuple(sorted(self.counted)), start, ("exit", problem.goal_anchor) if goal is None else goal)
        stored = cache.load(_PDB_CACHE, key, _pdb_shape)
        if stored is cache.MISSING:
            try:
                distance, size = self._build(problem, start, goal)
            except OverflowError:
                cache.store(_PDB_CACHE, key, None)
                raise
            cache.store(_PDB_CACHE, key, (distance, size))
        elif stored is None:
            raise OverflowError("abstract space too large")
        else:
            distance, size = stored
        self.distance: dict[int, int] = distance
        self.size: int = size

    def _build(self, problem: KlotskiProblem, start: int, goal: int | None) -> tuple[dict[int, int], int]:
        """(distance by abstract state, component size), by :func:`~heurist.domains.klotski.pdb.build_table`."""
        return build_table(problem, self.kept, self.counted, start, goal, PDB_MAX_STATES)

    def __call__(self, state: int) -> float:
        return self.distance.get(state & self.mask, math.inf)


def _pattern_databases(problem: KlotskiProblem) -> Callable[[int], float]:
    """Build both pattern databases and return the function that sums them (cached per problem)."""
    evaluate = problem.tables.get("pdb")
    if evaluate is not None:
        return evaluate
    databases = []
    if manhattan(problem.initial_state, problem) < math.inf:  # else the goal is unreachable anyway
        for kept, counted in (
            ((BIG, VERTICAL, HORIZONTAL), (BIG, VERTICAL, HORIZONTAL)),
            ((BIG, SINGLE), (SINGLE,)),
        ):
            with contextlib.suppress(OverflowError):
                databases.append(PatternDatabase(problem, kept, counted))
    exit_goal = problem.goal_state is None
    if len(databases) == 2 and databases[0].counted >= {BIG} and exit_goal:
        # PDB A moves the 2x2 piece one cell per move, so A >= Manhattan distance already.
        (table_a, mask_a), (table_b, mask_b) = [(d.distance, d.mask) for d in databases]

        def evaluate(state: int) -> float:
            return table_a.get(state & mask_a, math.inf) + table_b.get(state & mask_b, math.inf)
    else:

        def evaluate(state: int) -> float:
            total = sum(database(state) for database in databases)
            distance = manhattan(state, problem)
            return total if total > distance else distance

    problem.tables["pdb"] = evaluate
    return evaluate


@HEURISTICS.register("pdb", aliases=("additive-pdb",))
def pdb(state: int, problem: KlotskiProblem) -> float:
    """Two additive pattern databases, the 2x2 and 1x2 pieces plus the 1x1 pieces, or Manhattan if larger.

    * PDB A keeps the 2x2 and the 1x2 pieces (the 1x1 pieces are deleted) and
      counts their moves.
    * PDB B keeps the 2x2 and the 1x1 pieces (the 1x2 pieces are deleted) and
      counts only the moves of 1x1 pieces: the 2x2 piece moves for free, but
      the 1x1 pieces must still get out of its way (and, for a goal board,
      reach their own goal cells).

    Admissible: project any real plan onto each abstraction. Deleted pieces
    only free cells, so the projection is a legal abstract plan; in A it costs
    the real plan's moves of 2x2 and 1x2 pieces, in B its moves of 1x1
    pieces. The two sets of moves are disjoint, so A + B is at most the real
    plan's length. Consistent for the same reason: a real move changes A or B
    (the one whose pieces it moves) by at most its cost, and the other not at
    all. The value is the larger of A + B and ``manhattan``; the maximum of
    admissible, consistent heuristics is both, and dominates ``manhattan`` by
    construction. The same argument holds under the ``slide`` and ``path``
    metrics. A pattern database whose abstract space exceeds
    ``PDB_MAX_STATES`` states is not built and contributes 0.
    """
    evaluate = problem.tables.get("pdb") or _pattern_databases(problem)
    return evaluate(state)


pdb.prepare = _pattern_databases  # build the tables before the search clock starts
