"""Blokus piece files, read exactly as the course's ``pieces.PieceList`` reads them.

Format: the first line holds the number of pieces ``n``; then, for each piece,
a line with its number of rows ``L`` followed by ``L`` rows of drawing. Every
character other than a space is a tile (``#`` usually; ``O``/``o``/``0`` marked
the course's unused "origin"). Column index in a row is the tile's column, row
index its row. Text after the ``n``-th piece is ignored by the course; heurist
reads an optional instance section from it (see :func:`parse_instance`).

Each piece may be placed in any of its distinct orientations: the four
rotations of the drawing and of its mirror image, de-duplicated (91 for the
standard 21-piece set).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from heurist.errors import InputError, read_text

MAX_TILES = 5
"""The course rejects pieces with more tiles than this."""

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


@dataclass(frozen=True)
class Piece:
    """One piece of a piece file: its drawing and every distinct orientation.

    ``orientations`` are sorted (row, col) offsets normalised so that the
    smallest row and column are 0; the drawing as given comes first.
    """

    index: int
    line: int
    orientations: tuple[Shape, ...]

    @property
    def size(self) -> int:
        return len(self.orientations[0])

    @property
    def drawing(self) -> Shape:
        return self.orientations[0]

    @property
    def manhattan_diameter(self) -> int:
        """The largest Manhattan distance between two tiles."""
        cells = self.drawing
        return max(abs(r1 - r2) + abs(c1 - c2) for r1, c1 in cells for r2, c2 in cells)

    @property
    def king_diameter(self) -> int:
        """The most king moves needed between two tiles, moving over the piece's own tiles."""
        cells = set(self.drawing)
        longest = 0
        for source in cells:
            distance = {source: 0}
            frontier = [source]
            while frontier:
                following = []
                for r, c in frontier:
                    for dr in (-1, 0, 1):
                        for dc in (-1, 0, 1):
                            cell = (r + dr, c + dc)
                            if cell in cells and cell not in distance:
                                distance[cell] = distance[(r, c)] + 1
                                following.append(cell)
                frontier = following
            longest = max(longest, *distance.values())
        return longest


@dataclass(frozen=True)
class Instance:
    """Puzzle settings stored after the pieces (written by ``heurist generate blokus``)."""

    puzzle: str | None = None
    board_size: tuple[int, int] | None = None
    start: Cell | None = None
    targets: tuple[Cell, ...] | None = None
    source: str | None = None
    """The file the section was read from, for error messages."""
    lines: dict[str, int] = field(default_factory=dict, compare=False)
    """The line of each setting (``puzzle``, ``board``, ``start``, ``targets``), for error messages."""

    def where(self, key: str, option: str) -> tuple[str, int | None]:
        """(source, line) of a setting for an :class:`InputError`: the file's line, else the option."""
        if self.source is not None and key in self.lines:
            return self.source, self.lines[key]
        return option, None


@dataclass(frozen=True)
class PieceSet:
    """The pieces of one file, in file order, plus any instance settings stored after them."""

    name: str
    pieces: tuple[Piece, ...]
    instance: Instance = field(default_factory=Instance)

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(piece.size for piece in self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)


def normalise(cells) -> Shape:
    """Shift cells so the smallest row and column are 0, and sort them."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def orientations(cells) -> tuple[Shape, ...]:
    """The distinct rotations and reflections of a shape, the shape itself first."""
    found: list[Shape] = []
    for mirrored in (False, True):
        current = [(r, -c) if mirrored else (r, c) for r, c in cells]
        for _ in range(4):
            shape = normalise(current)
            if shape not in found:
                found.append(shape)
            current = [(c, -r) for r, c in current]
    return tuple(found)


def is_connected(cells: Shape) -> bool:
    """True if the tiles form one polyomino (joined edge to edge)."""
    remaining = set(cells)
    stack = [remaining.pop()]
    while stack:
        r, c = stack.pop()
        for neighbour in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if neighbour in remaining:
                remaining.remove(neighbour)
                stack.append(neighbour)
    return not remaining


def parse_pieces(text: str, source: str | Path) -> PieceSet:
    """Parse a piece file; every malformation raises :class:`InputError` with its line.

    Beyond the course's own checks (0 tiles, more than 5 tiles, missing pieces)
    a piece whose tiles are not joined edge to edge is rejected: Blokus pieces
    are polyominoes, and the heuristics' admissibility arguments rely on it.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    count = _read_int(lines, 0, source, "the number of pieces")
    if count < 0:
        raise InputError(f"the number of pieces must not be negative, got {count}", source, 1)
    pieces: list[Piece] = []
    position = 1
    for index in range(count):
        if position >= len(lines) or not lines[position].strip():
            raise InputError(
                f"count mismatch: the file says {count} pieces but holds only {index}",
                source,
                min(position + 1, len(lines)),
            )
        header = position + 1
        rows = _read_int(lines, position, source, f"the number of rows of piece {index + 1}")
        if rows <= 0:
            raise InputError(f"piece {index + 1} must have at least one row, got {rows}", source, header)
        drawing = lines[position + 1 : position + 1 + rows]
        if len(drawing) < rows:
            raise InputError(
                f"piece {index + 1} announces {rows} rows but the file ends after {len(drawing)}",
                source,
                header,
            )
        cells = [(r, c) for r, row in enumerate(drawing) for c, char in enumerate(row) if char != " "]
        if not cells:
            raise InputError(f"piece {index + 1} has no tiles", source, header)
        if len(cells) > MAX_TILES:
            raise InputError(
                f"piece {index + 1} has {len(cells)} tiles; at most {MAX_TILES} are allowed", source, header
            )
        shape = normalise(cells)
        if not is_connected(shape):
            raise InputError(f"piece {index + 1} is not one polyomino: its tiles must join edge to edge", source, header)
        pieces.append(Piece(index=index, line=header, orientations=orientations(shape)))
        position += 1 + rows
    instance = parse_instance(lines[position:], source, position + 1)
    return PieceSet(name=Path(source).name, pieces=tuple(pieces), instance=instance)


INSTANCE_PUZZLES = ("fill", "corners", "cover")
INSTANCE_HEADER = "# heurist blokus instance"
"""First line of the optional instance section that may follow the pieces."""


MAX_BOARD_CELLS = 2500
"""The largest board heurist accepts, in squares (50 x 50).

Every placement of every orientation is built once per board: with the
21-piece set that is about 85 placements per square, 0.27 s on the course's
largest board (20 x 20, 400 squares), 2.5 s at 50 x 50 and 11 s at 100 x 100,
before any search. No course command uses more than 400 squares, and a
search over thousands of squares is hopeless anyway (the 15 x 15 mini-contest
already has about 300 moves per state)."""


def check_board_size(rows: int, cols: int, source: str | Path = "--board-size", line: int | None = None) -> None:
    """Refuse a board with no square or with more than :data:`MAX_BOARD_CELLS` squares."""
    if rows <= 0 or cols <= 0:
        raise InputError(f"the board needs at least one row and one column, got {rows} {cols}", source, line)
    if rows * cols > MAX_BOARD_CELLS:
        raise InputError(
            f"a {rows}x{cols} board has {rows * cols} squares; at most {MAX_BOARD_CELLS} (e.g. 50x50) are "
            "supported: building every placement of every piece would take longer than any search can use",
            source,
            line,
        )


def parse_instance(lines: list[str], source: str | Path, first_line: int) -> Instance:
    """Read ``key: value`` settings after :data:`INSTANCE_HEADER`; other trailing text is ignored.

    Keys: ``puzzle`` (fill, corners, cover), ``board`` (ROWS COLS), ``start``
    (ROW COL) and ``targets`` (a Python-style list of (row, col) pairs). Values
    that are wrong whatever the board (a board of no square or too many, a
    negative coordinate, targets for a puzzle that takes none, squares off the
    section's own board) are reported at their line.
    """
    try:
        begin = next(i for i, line in enumerate(lines) if line.strip() == INSTANCE_HEADER)
    except StopIteration:
        return Instance()
    values: dict = {}
    where: dict[str, int] = {}
    for offset, line in enumerate(lines[begin + 1 :], start=first_line + begin + 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in ("puzzle", "board", "start", "targets"):
            raise InputError(
                f"expected 'puzzle:', 'board:', 'start:' or 'targets:', got {_clip(line.strip())!r}", source, offset
            )
        try:
            if key == "puzzle":
                if value.strip() not in INSTANCE_PUZZLES:
                    raise InputError(
                        f"unknown puzzle {value.strip()!r}; choose one of {', '.join(INSTANCE_PUZZLES)}",
                        source,
                        offset,
                    )
                values[key] = value.strip()
            elif key == "targets":
                values[key] = parse_targets(value, source, offset)
            else:
                numbers = tuple(int(part) for part in value.split())
                if len(numbers) != 2:
                    raise ValueError
                if key == "board":
                    check_board_size(*numbers, source, offset)
                elif min(numbers) < 0:
                    raise InputError(f"the start square must not be negative, got {numbers[0]} {numbers[1]}",
                                     source, offset)
                values["board_size" if key == "board" else key] = numbers
        except InputError:
            raise
        except ValueError:
            raise InputError(f"cannot read {key}: {_clip(value.strip())!r}", source, offset) from None
        where[key] = offset
    if values.get("targets") is not None and values.get("puzzle") in ("fill", "corners"):
        raise InputError(f"a {values['puzzle']} puzzle takes no targets", source, where["targets"])
    instance = Instance(**values, source=str(source), lines=where)
    if instance.board_size is not None:
        check_on_board(instance, *instance.board_size)
    return instance


def check_on_board(instance: Instance, rows: int, cols: int) -> None:
    """Refuse the section's start square or a target off a ``rows`` x ``cols`` board, at the file's line."""
    for key, cells in (("start", (instance.start,) if instance.start else ()), ("targets", instance.targets or ())):
        for row, col in cells:
            if not (0 <= row < rows and 0 <= col < cols):
                what = "the start square" if key == "start" else "target"
                raise InputError(
                    f"{what} ({row}, {col}) is off the {rows}x{cols} board "
                    f"(rows 0-{rows - 1}, columns 0-{cols - 1})",
                    *instance.where(key, "--start" if key == "start" else "--targets"),
                )


def _clip(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters, so a huge value does not make a huge error line."""
    return text if len(text) <= width else text[: width - 3] + "..."


def parse_targets(text: str, source: str | Path = "targets", line: int | None = None) -> tuple[Cell, ...]:
    """Parse a target list such as ``[(2,2), (5, 5)]`` the way the course does (a Python literal)."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise InputError(f"cannot parse the target list {_clip(text.strip())!r}; expected e.g. \"[(2,2), (5,5)]\"", source, line) from None
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        value = [value]  # a single pair, as in "(2, 2)"
    if not isinstance(value, (list, tuple)):
        raise InputError(f"the target list must be a list of (row, col) pairs, got {_clip(text.strip())!r}", source, line)
    targets = []
    for item in value:
        if not (
            isinstance(item, (tuple, list))
            and len(item) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise InputError(f"each target must be a (row, col) pair of integers, got {_clip(repr(item))}", source, line)
        targets.append((item[0], item[1]))
    return tuple(targets)


def _read_int(lines: list[str], index: int, source, what: str) -> int:
    text = lines[index].strip() if index < len(lines) else ""
    try:
        return int(text)
    except ValueError:
        raise InputError(f"expected {what}, got {_clip(text)!r}", source, index + 1) from None


LAYOUTS = "layouts"
"""Package folder holding the course's piece files, found by name like ``game.py -p NAME``."""


def bundled_piece_files() -> list[str]:
    """Names of the piece files shipped with heurist."""
    folder = resources.files(__package__) / LAYOUTS
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".txt"))


def resolve_piece_file(name: str | Path) -> Path:
    """A path as given if it exists, else a bundled piece file of that name (``layouts/NAME`` too)."""
    path = Path(name)
    if path.is_file():
        return path
    bundled = Path(str(resources.files(__package__) / LAYOUTS / path.name))
    if bundled.is_file() and (path.parent == Path(".") or path.parent.name == LAYOUTS):
        return bundled
    if path.exists():
        return path  # a directory: read_text reports it
    known = ", ".join(bundled_piece_files())
    raise InputError(f"no such piece file (bundled ones: {known})", name)


def format_pieces(pieces: PieceSet) -> str:
    """A piece file for ``pieces`` (each drawn as given, with ``#`` tiles), without instance settings."""
    lines = [str(len(pieces))]
    for piece in pieces.pieces:
        shape = set(piece.drawing)
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        lines.append(str(height))
        lines += ["".join("#" if (r, c) in shape else " " for c in range(width)).rstrip() for r in range(height)]
    return "\n".join(lines) + "\n"


def load_pieces(name: str | Path) -> PieceSet:
    """Read a piece file by path or by bundled name."""
    path = resolve_piece_file(name)
    return parse_pieces(read_text(path), name if not Path(name).is_file() else path)


def format_instance(
    pieces: PieceSet, puzzle: str, board_size: tuple[int, int], start: Cell,
    targets: tuple[Cell, ...] = (), comment: str = "",
) -> str:
    """A piece file followed by its instance section, which :func:`parse_instance` reads back."""
    lines = format_pieces(pieces).rstrip("\n").split("\n")
    section = ["", INSTANCE_HEADER]
    if comment:
        section.append(f"# {comment}")
    section += [f"puzzle: {puzzle}", f"board: {board_size[0]} {board_size[1]}", f"start: {start[0]} {start[1]}"]
    if targets:
        section.append("targets: [" + ", ".join(f"({r}, {c})" for r, c in targets) + "]")
    return "\n".join(lines + section) + "\n"
