"""Klotski boards as bitboards: geometry tables, states packed in one integer, move generation.

A board is ``width`` x ``height`` cells, numbered row-major from the top-left:
cell ``r * width + c``. A piece is known by its shape and its anchor, the
top-left cell it covers. Pieces of the same shape are interchangeable, so a
state is, per shape, the set of anchors: four bitmasks of ``width * height``
bits, packed into one Python integer::

    state = big | vertical << n | horizontal << 2n | single << 3n

Hashing, comparing and copying a state is then one integer operation, and
the moves of every piece of one shape in one direction are found with a few
shifts and ANDs (as chess engines do with bitboards).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

BIG, VERTICAL, HORIZONTAL, SINGLE = range(4)
SHAPES = (BIG, VERTICAL, HORIZONTAL, SINGLE)
SHAPE_SIZE = {BIG: (2, 2), VERTICAL: (2, 1), HORIZONTAL: (1, 2), SINGLE: (1, 1)}  # (rows, cols)
SHAPE_NAME = {BIG: "2x2", VERTICAL: "vertical 1x2", HORIZONTAL: "horizontal 1x2", SINGLE: "1x1"}

UP, DOWN, LEFT, RIGHT = range(4)
DIRECTIONS = {UP: (-1, 0), DOWN: (1, 0), LEFT: (0, -1), RIGHT: (0, 1)}
DIRECTION_NAME = {UP: "up", DOWN: "down", LEFT: "left", RIGHT: "right"}

PATH_MEMO_SIZE = 1 << 18
"""Most (empty cells, shape, anchor) patterns whose moves :meth:`Geometry.path_successors` remembers."""

Action = tuple[int, int, int]
"""(shape, from_anchor, to_anchor) -- which piece moved, and where to."""


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _shifted(expression: str, shift: int) -> str:
    """Source text for ``expression`` shifted ``shift`` bits up (down when negative)."""
    if shift > 0:
        return f"{expression} << {shift}"
    if shift < 0:
        return f"{expression} >> {-shift}"
    return expression


@dataclass(frozen=True)
class Geometry:
    """Precomputed tables for one board size. Create one per size and share it."""

    width: int
    height: int

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError("a board needs at least one row and one column")

    # ----- basic masks -------------------------------------------------------------------
    @cached_property
    def cells(self) -> int:
        return self.width * self.height

    @cached_property
    def full(self) -> int:
        return (1 << self.cells) - 1

    def index(self, row: int, col: int) -> int:
        return row * self.width + col

    def row_col(self, index: int) -> tuple[int, int]:
        return divmod(index, self.width)

    def shape_mask(self, state: int, shape: int) -> int:
        return (state >> (shape * self.cells)) & self.full

    def pack(self, big: int, vertical: int, horizontal: int, single: int) -> int:
        n = self.cells
        return big | vertical << n | horizontal << 2 * n | single << 3 * n

    def unpack(self, state: int) -> tuple[int, int, int, int]:
        n, full = self.cells, self.full
        return state & full, (state >> n) & full, (state >> 2 * n) & full, state >> 3 * n

    @cached_property
    def valid_anchors(self) -> tuple[int, ...]:
        """Per shape, the cells where a piece of that shape may have its anchor."""
        masks = []
        for shape in SHAPES:
            rows, cols = SHAPE_SIZE[shape]
            mask = 0
            for r in range(self.height - rows + 1):
                for c in range(self.width - cols + 1):
                    mask |= 1 << self.index(r, c)
            masks.append(mask)
        return tuple(masks)

    @cached_property
    def piece_cells(self) -> tuple[dict[int, int], ...]:
        """Per shape, anchor -> mask of the cells the piece covers."""
        tables = []
        for shape in SHAPES:
            rows, cols = SHAPE_SIZE[shape]
            table = {}
            for anchor in iter_bits(self.valid_anchors[shape]):
                r, c = self.row_col(anchor)
                mask = 0
                for dr in range(rows):
                    for dc in range(cols):
                        mask |= 1 << self.index(r + dr, c + dc)
                table[anchor] = mask
            tables.append(table)
        return tuple(tables)

    def covered(self, shape: int, anchors: int) -> int:
        """Cells covered by pieces of ``shape`` anchored at every bit of ``anchors``."""
        w = self.width
        if shape == BIG:
            return anchors | anchors << 1 | anchors << w | anchors << (w + 1)
        if shape == VERTICAL:
            return anchors | anchors << w
        if shape == HORIZONTAL:
            return anchors | anchors << 1
        return anchors

    def occupied(self, state: int) -> int:
        big, vertical, horizontal, single = self.unpack(state)
        w = self.width
        return (
            big | big << 1 | big << w | big << (w + 1)
            | vertical | vertical << w
            | horizontal | horizontal << 1
            | single
        )

    # ----- single steps ------------------------------------------------------------------
    @cached_property
    def step_rules(self) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
        """(shape, delta, movable_mask, leading_offsets) for every shape and direction.

        A piece anchored at ``a`` moves by ``delta`` when ``a`` is in ``movable_mask``
        (the piece stays on the board) and the cells ``a + offset`` for each leading
        offset are empty.
        """
        rules = []
        for shape in SHAPES:
            rows, cols = SHAPE_SIZE[shape]
            valid = self.valid_anchors[shape]
            for direction, (dr, dc) in DIRECTIONS.items():
                movable = 0
                for anchor in iter_bits(valid):
                    r, c = self.row_col(anchor)
                    nr, nc = r + dr, c + dc
                    if 0 <= nr <= self.height - rows and 0 <= nc <= self.width - cols:
                        movable |= 1 << anchor
                if dr == 1:
                    leading = [(rows, k) for k in range(cols)]
                elif dr == -1:
                    leading = [(-1, k) for k in range(cols)]
                elif dc == 1:
                    leading = [(k, cols) for k in range(rows)]
                else:
                    leading = [(k, -1) for k in range(rows)]
                offsets = tuple(lr * self.width + lc for lr, lc in leading)
                rules.append((shape, dr * self.width + dc, movable, offsets, direction))
        return tuple(rules)

    @cached_property
    def step_successors(self) -> Callable[[int], list[tuple[Action, int, int]]]:
        """Every move of one piece by one cell: the course metric.

        For each shape and direction, the anchors that can move are found for
        all pieces at once, ``anchors & movable & (empty >> offset)`` for each
        cell the piece moves into, and only the pieces that can move are
        visited. The function is generated for this board size with every
        mask written in as a constant, which makes it about twice as fast as
        looping over :attr:`step_rules`; :meth:`_step_successors_source` shows
        what it runs.
        """
        namespace: dict = {}
        exec(compile(self._step_successors_source(), f"<klotski step moves {self.width}x{self.height}>", "exec"), namespace)
        return namespace["step_successors"]

    @cached_property
    def canonical_step_successors(self) -> Callable[[int], list[tuple[Action, int, int]]]:
        """:attr:`step_successors` with each child replaced by the smaller of it and its mirror image.

        For searching over mirror-symmetry representatives. The mirror image
        is a permutation of the state's bits, so the child's image is the
        parent's image with the moved piece's mirrored bits flipped: one
        mirror per expansion instead of one per child. The actions are the
        real moves from ``state``.
        """
        namespace: dict = {"MIRRORED_ANCHOR": self.mirrored_anchors}
        source = self._step_successors_source(canonical=True)
        exec(compile(source, f"<klotski canonical step moves {self.width}x{self.height}>", "exec"), namespace)
        return namespace["canonical_step_successors"]

    @cached_property
    def mirrored_anchors(self) -> tuple[tuple[int, ...], ...]:
        """Per shape, anchor cell -> the anchor of the same piece mirrored left to right."""
        tables = []
        for shape in SHAPES:
            cols = SHAPE_SIZE[shape][1]
            table = []
            for cell in range(self.cells):
                r, c = self.row_col(cell)
                table.append(self.index(r, self.width - cols - c) if c <= self.width - cols else -1)
            tables.append(tuple(table))
        return tuple(tables)

    def _step_successors_source(self, canonical: bool = False) -> str:
        n, w = self.cells, self.width
        offsets = sorted({o for rule in self.step_rules for o in rule[3]})
        names = {o: f"e{i}" for i, o in enumerate(offsets)}
        lines = [
            f"def {'canonical_' if canonical else ''}step_successors(state):",
            f"    big = state & {self.full:#x}",
            f"    vertical = (state >> {n}) & {self.full:#x}",
            f"    horizontal = (state >> {2 * n}) & {self.full:#x}",
            f"    single = state >> {3 * n}",
            f"    empty = {self.full:#x} & ~(big | big << 1 | big << {w} | big << {w + 1}"
            f" | vertical | vertical << {w} | horizontal | horizontal << 1 | single)",
        ]
        for o in offsets:
            lines.append(f"    {names[o]} = empty {'>>' if o >= 0 else '<<'} {abs(o)}")
        if canonical:
            lines.append(self._mirror_source("state", "image").rstrip("\n"))
            lines.append("    mirrored_anchor = MIRRORED_ANCHOR")
        lines.append("    moves = []")
        shape_names = ("big", "vertical", "horizontal", "single")
        for shape, delta, movable, leading, direction in self.step_rules:
            free = " & ".join(names[o] for o in leading)
            moved = _shifted("low", delta)
            lines += [
                f"    # {SHAPE_NAME[shape]} {DIRECTION_NAME[direction]}",
                f"    anchors = {shape_names[shape]} & {movable:#x} & {free}",
                "    while anchors:",
                "        low = anchors & -anchors",
                "        anchors ^= low",
                "        source = low.bit_length() - 1",
            ]
            action = f"({shape}, source, source {'+' if delta > 0 else '-'} {abs(delta)})"
            child = f"state ^ {_shifted(f'(low | {moved})', shape * n)}"
            if not canonical:
                lines.append(f"        moves.append(({action}, {child}, 1))")
                continue
            mirrored_delta = -delta if direction in (LEFT, RIGHT) else delta
            mirrored_piece = f"(mirrored | {_shifted('mirrored', mirrored_delta)})"
            lines += [
                f"        child = {child}",
                f"        mirrored = 1 << mirrored_anchor[{shape}][source]",
                f"        mirrored = image ^ {_shifted(mirrored_piece, shape * n)}",
                f"        moves.append(({action}, mirrored if mirrored < child else child, 1))",
            ]
        lines.append("    return moves")
        return "\n".join(lines) + "\n"

    # ----- left-right mirror ----------------------------------------------------------------
    @cached_property
    def mirror(self) -> Callable[[int], int]:
        """The function mapping a state to its left-right mirror image.

        Every field of the packed state starts on a row boundary, so column
        ``c`` of all four fields is one mask; moving each column to
        ``width - 1 - c`` mirrors the cells, and anchors of two-wide pieces
        then move one column back (their anchor is their left cell).
        """
        source = "def mirror(state):\n" + self._mirror_source("state", "image") + "    return image\n"
        namespace: dict = {}
        exec(compile(source, f"<klotski mirror {self.width}x{self.height}>", "exec"), namespace)
        return namespace["mirror"]

    def _mirror_source(self, name: str, result: str) -> str:
        """Python statements setting ``result`` to the mirror image of the state in ``name``."""
        w, n = self.width, self.cells
        rows = 4 * self.height
        columns = [sum(1 << (r * w + c) for r in range(rows)) for c in range(w)]
        wide = (self.full << (BIG * n)) | (self.full << (HORIZONTAL * n))
        narrow = ((1 << (4 * n)) - 1) ^ wide
        flipped = " | ".join(
            _shifted(f"({name} & {mask:#x})", w - 1 - 2 * c) for c, mask in enumerate(columns)
        )
        return f"    flipped = {flipped}\n    {result} = (flipped & {narrow:#x}) | ((flipped & {wide:#x}) >> 1)\n"

    # ----- longer moves ------------------------------------------------------------------
    @cached_property
    def step_targets(self) -> tuple[tuple[dict[int, int], ...], ...]:
        """Per shape and direction, anchor -> anchor one cell further (where on the board)."""
        tables = []
        for shape in SHAPES:
            per_direction = []
            for rule in self.step_rules[shape * 4 : shape * 4 + 4]:
                _, delta, movable, _, _ = rule
                per_direction.append({a: a + delta for a in iter_bits(movable)})
            tables.append(tuple(per_direction))
        return tuple(tables)

    def _pieces(self, state: int) -> Iterator[tuple[int, int]]:
        for shape in SHAPES:
            for anchor in iter_bits(self.shape_mask(state, shape)):
                yield shape, anchor

    def slide_successors(self, state: int) -> Iterator[tuple[Action, int, int]]:
        """Every move of one piece any number of cells in one straight line."""
        occupied = self.occupied(state)
        n = self.cells
        for shape, anchor in self._pieces(state):
            cells = self.piece_cells[shape]
            others = occupied & ~cells[anchor]
            for targets in self.step_targets[shape]:
                position = anchor
                while position in targets and not cells[targets[position]] & others:
                    position = targets[position]
                    yield (
                        (shape, anchor, position),
                        state ^ (((1 << anchor) | (1 << position)) << (shape * n)),
                        1,
                    )

    @cached_property
    def path_successors(self) -> Callable[[int], list[tuple[Action, int, int]]]:
        """Every move of one piece to any cell it can reach, along any path, as one move.

        Pieces are taken by shape and anchor; each one's places in the order a
        breadth-first search (up, down, left, right) reaches them. A piece that
        cannot take a single step has no move at all, so the pieces that can
        are first picked out for all pieces of a shape at once, with the
        bitboard tests of :attr:`step_successors` (in a function generated for
        the board size, as that one is). Where a piece can go depends only on
        the empty cells, its shape and its anchor, and a puzzle has few
        patterns of empty cells, so each piece's moves (as changes of the
        state) are remembered under those three, up to ``PATH_MEMO_SIZE`` of them.
        """
        return self._path_function(canonical=False)

    @cached_property
    def canonical_path_successors(self) -> Callable[[int], list[tuple[Action, int, int]]]:
        """:attr:`path_successors` with each child replaced by the smaller of it and its mirror image.

        As :attr:`canonical_step_successors` does for steps: the state is
        mirrored once per expansion, and each child's image is that image with
        the moved piece's mirrored bits flipped (remembered with the move).
        """
        return self._path_function(canonical=True)

    def _path_function(self, canonical: bool) -> Callable[[int], list[tuple[Action, int, int]]]:
        memo: dict[int, tuple] = {}
        piece_path_moves = self._piece_path_moves
        mirrored_anchors = self.mirrored_anchors
        n = self.cells

        def moves_of_piece(key: int, shape: int, anchor: int, occupied: int) -> tuple:
            if len(memo) >= PATH_MEMO_SIZE:
                memo.clear()
            moves = piece_path_moves(shape, anchor, occupied)
            if canonical:  # (action, change of the state, change of its mirror image)
                table = mirrored_anchors[shape]
                moves = tuple(
                    (action, change, ((1 << table[action[1]]) | (1 << table[action[2]])) << (shape * n))
                    for action, change in moves
                )
            memo[key] = moves
            return moves

        namespace: dict = {"memo_get": memo.get, "moves_of_piece": moves_of_piece}
        source = self._path_successors_source(canonical)
        name = "canonical path" if canonical else "path"
        exec(compile(source, f"<klotski {name} moves {self.width}x{self.height}>", "exec"), namespace)
        return namespace[f"{'canonical_' if canonical else ''}path_successors"]

    def _path_successors_source(self, canonical: bool = False) -> str:
        n, w, full = self.cells, self.width, self.full
        offsets = sorted({o for rule in self.step_rules for o in rule[3]})
        names = {o: f"e{i}" for i, o in enumerate(offsets)}
        lines = [
            f"def {'canonical_' if canonical else ''}path_successors(state):",
            f"    big = state & {full:#x}",
            f"    vertical = (state >> {n}) & {full:#x}",
            f"    horizontal = (state >> {2 * n}) & {full:#x}",
            f"    single = state >> {3 * n}",
            f"    occupied = big | big << 1 | big << {w} | big << {w + 1}"
            f" | vertical | vertical << {w} | horizontal | horizontal << 1 | single",
            f"    empty = {full:#x} & ~occupied",
            "    pattern = empty << 2",
        ]
        for o in offsets:
            lines.append(f"    {names[o]} = empty {'>>' if o >= 0 else '<<'} {abs(o)}")
        if canonical:
            lines.append(self._mirror_source("state", "image").rstrip("\n"))
        lines.append("    moves = []")
        shape_names = ("big", "vertical", "horizontal", "single")
        for shape in SHAPES:
            tests = " | ".join(
                f"({movable:#x} & {' & '.join(names[o] for o in leading)})"
                for rule_shape, _, movable, leading, _ in self.step_rules if rule_shape == shape
            )
            lines += [
                f"    # {SHAPE_NAME[shape]}",
                f"    movable = {shape_names[shape]} & ({tests})",
                "    while movable:",
                "        low = movable & -movable",
                "        movable ^= low",
                "        anchor = low.bit_length() - 1",
                f"        key = (pattern | {shape}) * {n} + anchor",
                "        piece_moves = memo_get(key)",
                "        if piece_moves is None:",
                f"            piece_moves = moves_of_piece(key, {shape}, anchor, occupied)",
            ]
            if canonical:
                lines += [
                    "        for action, change, mirrored in piece_moves:",
                    "            child = state ^ change",
                    "            mirrored ^= image",
                    "            moves.append((action, mirrored if mirrored < child else child, 1))",
                ]
            else:
                lines += [
                    "        for action, change in piece_moves:",
                    "            moves.append((action, state ^ change, 1))",
                ]
        lines.append("    return moves")
        return "\n".join(lines) + "\n"

    def _piece_path_moves(self, shape: int, anchor: int, occupied: int) -> tuple[tuple[Action, int], ...]:
        """(action, change of the state) of every place the piece at ``anchor`` can reach, breadth first."""
        cells = self.piece_cells[shape]
        directions = self.step_targets[shape]
        others = occupied & ~cells[anchor]
        reached = {anchor}
        places = [anchor]
        for position in places:  # grows while it is read: a breadth-first search
            for targets in directions:
                nxt = targets.get(position)
                if nxt is not None and nxt not in reached and not cells[nxt] & others:
                    reached.add(nxt)
                    places.append(nxt)
        shift = shape * self.cells
        return tuple(((shape, anchor, position), ((1 << anchor) | (1 << position)) << shift)
                     for position in places[1:])

    def successor_function(self, metric: str):
        try:
            return {
                "step": self.step_successors,
                "slide": self.slide_successors,
                "path": self.path_successors,
            }[metric]
        except KeyError:
            raise ValueError(f"unknown move metric {metric!r}; choose step, slide or path") from None

    # ----- looking at pieces ---------------------------------------------------------------
    @cached_property
    def covering(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per cell, the (shape, anchor) pairs whose piece would cover that cell."""
        table: list[list[tuple[int, int]]] = [[] for _ in range(self.cells)]
        for shape in SHAPES:
            for anchor, mask in self.piece_cells[shape].items():
                for cell in iter_bits(mask):
                    table[cell].append((shape, anchor))
        return tuple(tuple(entries) for entries in table)

    def piece_at(self, state: int, cell: int) -> tuple[int, int] | None:
        """The (shape, anchor) of the piece covering ``cell``, or None if it is empty."""
        for shape, anchor in self.covering[cell]:
            if (state >> (shape * self.cells + anchor)) & 1:
                return shape, anchor
        return None

    def pieces(self, state: int) -> list[tuple[int, int]]:
        """All (shape, anchor) pairs of a state, by shape then anchor."""
        return list(self._pieces(state))
