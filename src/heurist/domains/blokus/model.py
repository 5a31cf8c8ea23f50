"""The course's Blokus puzzles as search problems.

One player places pieces; a state is ``(occupied, used)``: the bitboard of
the player's tiles and the bit set of spent pieces (piece i is bit i), which
is exactly what the course's ``Board.__eq__`` compares.

* :class:`FillProblem`: use every piece; each move costs 1.
* :class:`CornersProblem`: cover (0, w-1), (h-1, 0) and (h-1, w-1); a move costs its tiles.
* :class:`CoverProblem`: cover the given targets; a move costs its tiles.
* :class:`TreeOrderCoverProblem`: the cover problem with its plans in one
  canonical order, for the mini-contest.

The course's two search strategies, ``sub-optimal`` and ``mini-contest``, are
in :mod:`.strategies`.

``problem.expanded`` counts calls to ``successors``, which is what the course
prints as "Expanded nodes" (its ``get_successors`` increments it). heurist's
engine also counts the goal node it pops in ``expansions``, so for the
best-first searches and depth-first search the course's number is one less.
"""

from __future__ import annotations

from collections.abc import Iterator

from heurist.domains import ShowsItself
from heurist.domains.blokus.board import Board, Placement
from heurist.domains.blokus.pieces import Cell, PieceSet, check_board_size
from heurist.errors import InputError

State = tuple[int, int]
"""(occupied bitboard, used-pieces bit set)."""

AnyState = tuple[int, ...]
"""A state of any problem here: a :data:`State`, or ``(occupied, used, last_mask)`` in
:class:`TreeOrderCoverProblem`. Heuristics read only the first two."""

PUZZLES = ("fill", "corners", "cover")
"""Puzzles that are plain search problems (``heurist solve blokus --puzzle``)."""


class BlokusProblem(ShowsItself):
    """Common ground of the puzzles: start, targets, successors and the course's counter."""

    domain_name = "blokus"

    kind = "blokus"
    tile_cost = True  # a move costs its number of tiles (corners, cover); fill overrides

    def __init__(
        self,
        board: Board,
        start: Cell = (0, 0),
        targets: tuple[Cell, ...] = (),
        *,
        initial: AnyState = (0, 0),
        protected: tuple[Cell, ...] = (),
    ):
        for name, cells in (("start", (start,)), ("target", targets)):
            for row, col in cells:
                if not board.on_board(row, col):
                    raise InputError(
                        f"{name} ({row}, {col}) is off the {board.rows}x{board.cols} board "
                        f"(rows 0-{board.rows - 1}, columns 0-{board.cols - 1})",
                        f"--{name}" if name == "start" else "targets",
                    )
        self.board = board
        self.start = start
        self.start_bit = board.bit(*start)
        self.targets = tuple(targets)
        self.target_mask = board.mask_of(targets)
        self.protected_mask = board.mask_of(protected) & ~self.target_mask
        """Targets a sub-search must keep coverable (see :func:`.strategies.closest_location_search`)."""
        self.sizes = board.pieces.sizes
        self.all_used = (1 << len(self.sizes)) - 1
        self._initial = initial
        self.expanded = 0

    @property
    def initial_state(self) -> AnyState:
        return self._initial

    def is_goal(self, state: AnyState) -> bool:
        return state[0] & self.target_mask == self.target_mask

    def legal_moves(self, state: AnyState) -> list[Placement]:
        return self.board.legal_placements(state[0], state[1], self.start_bit)

    def successors(self, state: AnyState) -> Iterator[tuple[Placement, AnyState, int]]:
        self.expanded += 1
        occupied, used = state
        tile_cost = self.tile_cost
        for move in self.board.legal_placements(occupied, used, self.start_bit):
            yield move, (occupied | move.mask, used | 1 << move.piece), move.size if tile_cost else 1

    def apply(self, state: State, move: Placement) -> State:
        """Play one move, checking it as the course's ``add_move`` does."""
        if not self.board.is_legal(move, state[0], state[1], self.start_bit):
            raise ValueError("Move is not allowed")
        return state[0] | move.mask, state[1] | 1 << move.piece

    def score(self, state: AnyState) -> int:
        """Tiles placed: what the course prints as "score"."""
        return state[0].bit_count()

    def draw(self, state: AnyState) -> str:
        marks = {target: "x" for target in self.targets}
        if not state[0]:
            marks.setdefault(self.start, "s")
        return self.board.draw(state[0], marks)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.describe()!r})"

    def describe(self) -> str:
        board = self.board
        text = f"{self.kind} on {board.rows}x{board.cols} with {board.pieces.name} from {self.start}"
        if self.targets and self.kind != "corners":
            text += f", targets {list(self.targets)}"
        return text + (" (legacy board)" if board.legacy else "")


class FillProblem(BlokusProblem):
    """Place every piece; a move costs 1 (the course's ``BlokusFillProblem``)."""

    kind = "fill"
    tile_cost = False

    def is_goal(self, state: AnyState) -> bool:
        return state[1] == self.all_used


class CornersProblem(BlokusProblem):
    """Cover the three corners other than (0, 0) with as few tiles as possible."""

    kind = "corners"

    def __init__(self, board: Board, start: Cell = (0, 0), **options):
        super().__init__(board, start, board.corners, **options)


class CoverProblem(BlokusProblem):
    """Cover every target square with as few tiles as possible."""

    kind = "cover"

    def __init__(self, board: Board, start: Cell = (0, 0), targets: tuple[Cell, ...] = ((0, 0),), **options):
        if not targets:
            raise InputError("cover puzzles require at least one target to cover", "targets")
        super().__init__(board, start, targets, **options)


class TreeOrderCoverProblem(CoverProblem):
    """The cover problem with its plans put in one canonical order; same optimal cost, far fewer moves.

    In a cheapest cover every piece lies on the way to a target: the pieces
    form a tree of corner contacts from the first one, and a leaf covering
    no target could be taken away. Placing the pieces in depth-first order
    of such a tree, each piece either touches the piece placed just before
    it corner to corner or follows a piece that covered a target. So only
    those moves are generated; the state remembers the last piece when it
    covered no target: ``(occupied, used, last_mask)`` (``last_mask`` is 0
    when any legal move may follow).
    """

    def __init__(self, board: Board, start: Cell = (0, 0), targets: tuple[Cell, ...] = ((0, 0),), **options):
        super().__init__(board, start, targets, **options)
        self._initial = (*self._initial[:2], 0)

    def successors(self, state):
        self.expanded += 1
        occupied, used, last = state
        board = self.board
        within = board.diagonal(last) if last else -1
        targets = self.target_mask
        for move in board.legal_placements(occupied, used, self.start_bit, within):
            follows = 0 if move.mask & targets else move.mask
            yield move, (occupied | move.mask, used | 1 << move.piece, follows), move.size

    def _legal_orders(self, state):
        """The placements legal in ``state`` as an array of placement orders, in the order above."""
        occupied, used, last = state
        within = self.board.diagonal(last) if last else -1
        return self.board.legal_orders(occupied, used, self.start_bit, within)


def make_problem(
    kind: str,
    pieces: PieceSet,
    board_size: tuple[int, int] = (20, 20),
    start: Cell = (0, 0),
    targets: tuple[Cell, ...] = (),
    *,
    legacy: bool = False,
) -> BlokusProblem:
    """Build a puzzle; ``sub-optimal`` and ``mini-contest`` give the cover problem they solve."""
    rows, cols = board_size
    check_board_size(rows, cols)
    board = Board(rows, cols, pieces, legacy=legacy)
    if kind == "fill":
        return FillProblem(board, start)
    if kind == "corners":
        return CornersProblem(board, start)
    if kind in ("cover", "sub-optimal", "mini-contest"):
        return CoverProblem(board, start, targets)
    raise InputError(
        f"unknown puzzle {kind!r}; choose one of fill, corners, cover, sub-optimal, mini-contest", "--puzzle"
    )
