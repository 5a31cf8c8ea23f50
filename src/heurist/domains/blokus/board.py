"""Board geometry, precomputed placements and legal-move generation on integer bitboards.

A board of ``rows`` x ``cols`` squares is stored row by row in a Python
integer with one spare guard column, so square (row, col) is bit
``row * (cols + 1) + col``. Shifting by one moves a set of squares one column,
shifting by ``cols + 1`` moves it one row; masking with the board (which
leaves the guard column empty) drops whatever left the board. All the
Blokus tests are then a handful of integer operations:

* ``forbidden = own | orthogonal_neighbours(own)``: a new piece may not touch
  one of its player's tiles edge to edge (nor overlap one);
* ``anchors = diagonal_neighbours(own) & ~forbidden``: it must cover one of
  these, i.e. touch a tile corner to corner (on the empty board, the start).

Every placement of every orientation of every piece is computed once per
board and indexed by the squares it covers, so generating the legal moves of
a state visits only the placements through an anchor.

Coordinates are (row, col), as in the course: ``-s 4 7`` is 4 rows by 7
columns, ``-x 3 5`` is row 3, column 5. The course's ``Move`` names the
bounding box's top-left corner as ``x`` = column, ``y`` = row; here it is
``row``, ``col``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from heurist.domains.blokus.pieces import Cell, PieceSet


@dataclass(frozen=True, slots=True, eq=False)
class Placement:
    """One orientation of one piece put on the board with its bounding box at (row, col)."""

    piece: int
    orientation: int
    row: int
    col: int
    cells: tuple[Cell, ...]
    mask: int
    order: int  # rank in the course's enumeration: piece, then column, then row, then orientation

    @property
    def size(self) -> int:
        return len(self.cells)

    def __repr__(self) -> str:
        cells = " ".join(f"({r},{c})" for r, c in self.cells)
        tiles = "1 tile" if self.size == 1 else f"{self.size} tiles"
        return f"piece {self.piece + 1} ({tiles}) at {cells}"


class MoveArrays(NamedTuple):
    """Every placement of a board as numpy arrays, for code that handles many moves at once."""

    by_square: list  # per bit position, the orders of the placements covering that square (sorted)
    piece: Any  # per order, the piece's index
    size: Any  # per order, the number of tiles
    words: Any  # per order, the mask as 64-bit words, lowest first


class Board:
    """The geometry of one board with one piece set: bit layout, neighbourhoods, placements.

    ``legacy=True`` reproduces the course's board before 2020, whose move
    generator never put a piece's bounding box with its top-left corner in
    the last row or the last column.
    """

    def __init__(self, rows: int, cols: int, pieces: PieceSet, *, legacy: bool = False):
        if rows <= 0 or cols <= 0:
            raise ValueError("a board needs at least one row and one column")
        self.rows, self.cols, self.pieces, self.legacy = rows, cols, pieces, legacy
        self.stride = cols + 1
        self.full = 0
        for row in range(rows):
            self.full |= ((1 << cols) - 1) << (row * self.stride)
        self._balls: dict[int, list[int]] = {}
        self.placements = self._all_placements()
        # by_square[bit][piece] -> the placements of that piece covering that square
        self.by_square: list[list[list[Placement]]] = [
            [[] for _ in pieces.pieces] for _ in range(rows * self.stride)
        ]
        for placement in self.placements:
            for r, c in placement.cells:
                self.by_square[self.bit_index(r, c)][placement.piece].append(placement)

    # -- coordinates ---------------------------------------------------------------------

    def bit_index(self, row: int, col: int) -> int:
        return row * self.stride + col

    def bit(self, row: int, col: int) -> int:
        return 1 << (row * self.stride + col)

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def mask_of(self, cells) -> int:
        mask = 0
        for r, c in cells:
            mask |= self.bit(r, c)
        return mask

    def cells_of(self, mask: int) -> list[Cell]:
        """The (row, col) squares of a mask, in row-major order."""
        cells = []
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            cells.append(divmod(index, self.stride))
            mask ^= low
        return cells

    def cell_at(self, bit: int) -> Cell:
        """The (row, col) square of a one-bit mask."""
        return divmod(bit.bit_length() - 1, self.stride)

    def manhattan_balls(self, bit: int) -> list[int]:
        """Masks of the squares within Manhattan distance 0, 1, 2... of a square, cached."""
        balls = self._balls.get(bit)
        if balls is None:
            balls = [bit & self.full]
            while balls[-1] != self.full:
                balls.append(self.orthogonal(balls[-1]))
            self._balls[bit] = balls
        return balls

    @property
    def corners(self) -> tuple[Cell, Cell, Cell]:
        """The corners the corners puzzle must cover: all but (0, 0), in the course's order."""
        return ((0, self.cols - 1), (self.rows - 1, 0), (self.rows - 1, self.cols - 1))

    # -- neighbourhoods ------------------------------------------------------------------

    def orthogonal(self, mask: int) -> int:
        """Squares sharing an edge with a square of ``mask`` (those of ``mask`` included)."""
        s = self.stride
        return (mask | mask << 1 | mask >> 1 | mask << s | mask >> s) & self.full

    def diagonal(self, mask: int) -> int:
        """Squares sharing a corner with a square of ``mask``."""
        s = self.stride
        return (mask << (s + 1) | mask << (s - 1) | mask >> (s + 1) | mask >> (s - 1)) & self.full

    def king(self, mask: int) -> int:
        """``mask`` grown by one king move (edges and corners)."""
        s = self.stride
        row = mask | mask << 1 | mask >> 1
        return (row | row << s | row >> s) & self.full

    def forbidden(self, occupied: int) -> int:
        """Squares no new piece may cover: own tiles and squares edge-adjacent to them."""
        return self.orthogonal(occupied)

    def anchors(self, occupied: int, start: int) -> int:
        """Free squares a new piece may use to connect (the start square on an empty board)."""
        if not occupied:
            return start
        return self.diagonal(occupied) & ~self.orthogonal(occupied)

    # -- moves ---------------------------------------------------------------------------

    def _all_placements(self) -> list[Placement]:
        """Every in-bounds placement, in the course's enumeration order."""
        placements: list[Placement] = []
        last_row = self.rows - 1 if self.legacy else self.rows
        last_col = self.cols - 1 if self.legacy else self.cols
        for piece in self.pieces.pieces:
            for col in range(last_col):
                for row in range(last_row):
                    for number, shape in enumerate(piece.orientations):
                        cells = tuple((row + dr, col + dc) for dr, dc in shape)
                        if all(self.on_board(r, c) for r, c in cells):
                            placements.append(
                                Placement(
                                    piece=piece.index,
                                    orientation=number,
                                    row=row,
                                    col=col,
                                    cells=cells,
                                    mask=self.mask_of(cells),
                                    order=len(placements),
                                )
                            )
        return placements

    def legal_placements(self, occupied: int, used: int, start: int, within: int = -1) -> list[Placement]:
        """The legal moves of the player owning ``occupied`` with pieces ``used`` spent.

        A move is legal when its piece is unused, it covers only free squares
        not edge-adjacent to ``occupied``, and it covers an anchor. Returned
        in the course's order (piece, column, row, orientation). ``within``
        keeps only the moves covering one of its anchors.
        """
        forbidden = self.orthogonal(occupied)
        anchors = self.anchors(occupied, start) & within
        free = [p for p in range(len(self.pieces.pieces)) if not used >> p & 1]
        found: dict[int, Placement] = {}
        by_square = self.by_square
        while anchors:
            low = anchors & -anchors
            anchors ^= low
            lists = by_square[low.bit_length() - 1]
            for piece in free:
                for placement in lists[piece]:
                    if not placement.mask & forbidden:
                        found[placement.order] = placement
        return [found[order] for order in sorted(found)]

    def legal_orders(self, occupied: int, used: int, start: int, within: int = -1):
        """The same moves as :meth:`legal_placements`, as a sorted numpy array of their ``order``.

        For searches that look at all the moves of a state at once and turn
        only a few of them into :class:`Placement` objects: the placements
        through the anchors are gathered as index arrays, and the tests on
        pieces and squares are made on all of them together, the masks being
        stored as rows of 64-bit words.
        """
        import numpy as np

        by_square, piece_of, _, words = self.move_arrays()
        anchors = self.anchors(occupied, start) & within
        if not anchors:
            return np.zeros(0, dtype=np.int64)
        lists = []
        while anchors:
            low = anchors & -anchors
            anchors ^= low
            lists.append(by_square[low.bit_length() - 1])
        through = np.zeros(len(piece_of), dtype=bool)
        through[np.concatenate(lists)] = True
        orders = through.nonzero()[0]
        if used:
            orders = orders[(used >> piece_of[orders]) & 1 == 0]
        forbidden = _words(self.orthogonal(occupied), words.shape[1])
        clash = words[orders] & forbidden
        return orders[~clash.any(axis=1)]

    def move_arrays(self) -> MoveArrays:
        """The placements as numpy arrays indexed by ``order`` (built on first use)."""
        arrays = self.__dict__.get("_arrays")
        if arrays is None:
            import numpy as np

            width = (self.rows * self.stride + 63) // 64
            by_square = [
                np.array(sorted(p.order for pieces in lists for p in pieces), dtype=np.int64)
                for lists in self.by_square
            ]
            piece = np.array([p.piece for p in self.placements], dtype=np.int64)
            size = np.array([len(p.cells) for p in self.placements], dtype=np.int64)
            words = np.array([_words(p.mask, width) for p in self.placements], dtype=np.uint64).reshape(-1, width)
            arrays = self.__dict__["_arrays"] = MoveArrays(by_square, piece, size, words)
        return arrays

    def is_legal(self, placement: Placement, occupied: int, used: int, start: int) -> bool:
        """The course's ``check_move_valid`` for one placement."""
        if used >> placement.piece & 1:
            return False
        if placement.mask & self.orthogonal(occupied):
            return False
        return bool(placement.mask & self.anchors(occupied, start))

    def draw(self, occupied: int, marks: dict[Cell, str] | None = None) -> str:
        """Rows top (row 0) to bottom: ``#`` own tile, ``.`` empty, marks (e.g. targets) on top."""
        marks = marks or {}
        lines = []
        for row in range(self.rows):
            line = []
            for col in range(self.cols):
                tile = occupied >> self.bit_index(row, col) & 1
                mark = marks.get((row, col))
                if mark is not None:
                    line.append(mark.upper() if tile else mark)
                else:
                    line.append("#" if tile else ".")
            lines.append(" ".join(line))
        return "\n".join(lines)


def _words(mask: int, width: int):
    """A bitboard as ``width`` 64-bit words, lowest first (a numpy array)."""
    import numpy as np

    return np.array([mask >> (64 * i) & 0xFFFF_FFFF_FFFF_FFFF for i in range(width)], dtype=np.uint64)
