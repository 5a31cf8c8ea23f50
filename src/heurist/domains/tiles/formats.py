"""Reading and writing sliding-tile puzzle files and boards.

A puzzle file holds one board row per line, the tiles as whole numbers
separated by blanks, ``0`` for the blank (``.`` is read as the blank too)::

    # the 8-puzzle, 20 moves from the goal
    8 1 3
    4 0 2
    7 6 5

Every row has the same length and the board holds each number 0 to N-1 once
(N = rows x cols, at least 2). Lines starting with ``#`` are comments and
are ignored, as are blank lines before the first board and at the end. A
second board after a blank line is the goal, of the same size; without it
the goal is 1 to N-1 in reading order with the blank last. Every deviation
is an :class:`~heurist.errors.InputError` naming the file and the line.

States (``heurist solve``'s output, solution files) are written by
:func:`format_board`: the same rows, right-aligned, with the blank shown as
``.``; :func:`parse_board_lines` reads them back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from heurist.domains.tiles.model import State, TilesProblem
from heurist.errors import InputError, read_text

BLANK_MARK = "."
"""How :func:`format_board` shows the blank; the readers take it or ``0``."""


def load_tiles(path: str | Path) -> TilesProblem:
    """Read and check a puzzle file."""
    return parse_tiles(read_text(path), str(path))


def _boards(text: str) -> list[list[tuple[int, str]]]:
    """Groups of (line number, line) separated by blank lines; comment lines left out."""
    boards: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    # lines end at LF, CRLF or CR, as in every course format (not at form feeds or U+2028)
    for number, raw in enumerate(re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")), start=1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if current:
                boards.append(current)
                current = []
            continue
        current.append((number, line))
    if current:
        boards.append(current)
    return boards


def _read_rows(rows: Sequence[tuple[int, str]], source: str, what: str) -> tuple[int, int, State]:
    """(rows, cols, state) of one board given as (line number, text) pairs."""
    width = None
    tiles: list[int] = []
    lines: list[int] = []
    for number, line in rows:
        row = []
        for word in line.split():
            if word == BLANK_MARK:
                row.append(0)
                continue
            if not (word.isascii() and word.isdigit()):
                raise InputError(f"{word!r} is not a tile number (whole numbers, 0 or '.' for the blank)",
                                 source, number)
            row.append(int(word))
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InputError(f"this row of the {what} has {len(row)} numbers; the first row has {width}",
                             source, number)
        tiles.extend(row)
        lines.extend([number] * len(row))
    first = rows[0][0]
    cells = len(tiles)
    if cells < 2:
        raise InputError(f"the {what} has {cells} cell; a board needs at least 2", source, first)
    seen: dict[int, int] = {}
    for tile, number in zip(tiles, lines):
        if tile >= cells:
            raise InputError(f"{tile} is not a tile of a {cells}-cell board (0 to {cells - 1})", source, number)
        if tile in seen:
            where = "on the same line" if seen[tile] == number else f"first on line {seen[tile]}"
            raise InputError(f"{tile} appears twice in the {what} ({where})", source, number)
        seen[tile] = number
    missing = [str(tile) for tile in range(cells) if tile not in seen]
    if missing:  # pragma: no cover - with no duplicates and no number too large, nothing is missing
        raise InputError(f"the {what} lacks {', '.join(missing)}", source, first)
    return len(rows), cells // len(rows), tuple(tiles)


def parse_tiles(text: str, source: str = "<tiles>") -> TilesProblem:
    """Parse a puzzle file's text; raise :class:`InputError` (with the line number) on any problem."""
    boards = _boards(text)
    if not boards:
        raise InputError("empty file: expected a board, one row of numbers per line", source, 1)
    if len(boards) > 2:
        raise InputError("expected a start board and at most one goal board; this is a third board",
                         source, boards[2][0][0])
    rows, cols, start = _read_rows(boards[0], source, "start board")
    goal = None
    if len(boards) == 2:
        goal_rows, goal_cols, goal = _read_rows(boards[1], source, "goal board")
        if (goal_rows, goal_cols) != (rows, cols):
            raise InputError(f"the goal board is {goal_rows}x{goal_cols}; the start board is {rows}x{cols}",
                             source, boards[1][0][0])
    return TilesProblem(rows, cols, start, goal, name=Path(source).name)


def format_rows(rows: int, cols: int, state: Sequence[int], blank: str = "0") -> str:
    """The board as lines of right-aligned numbers, ``blank`` for the blank."""
    width = len(str(rows * cols - 1))
    words = [str(tile) if tile else blank for tile in state]
    return "\n".join(
        " ".join(word.rjust(width) for word in words[row * cols:(row + 1) * cols]) for row in range(rows)
    )


def format_tiles(problem: TilesProblem) -> str:
    """The instance as a puzzle file's text that :func:`parse_tiles` reads back (the goal only if not the default)."""
    text = f"# {problem.kind()}: one row per line, 0 for the blank\n"
    text += format_rows(problem.rows, problem.cols, problem.start) + "\n"
    if not problem.has_default_goal:
        text += "\n# goal\n" + format_rows(problem.rows, problem.cols, problem.goal) + "\n"
    return text


# ----- states --------------------------------------------------------------------------------

def format_board(rows: int, cols: int, state: Sequence[int]) -> str:
    """A state as text: one line per row, numbers right-aligned, the blank as ``.``."""
    return format_rows(rows, cols, state, BLANK_MARK)


def parse_board_lines(lines: Sequence[str], problem: TilesProblem, source: str, first_line: int) -> State:
    """The inverse of :func:`format_board` for a board of ``problem``'s size; ``first_line`` is ``lines[0]``'s line."""
    rows = [(first_line + offset, line.strip()) for offset, line in enumerate(lines)]
    if not rows or any(not line for _, line in rows):
        blank = next((number for number, line in rows if not line), first_line)
        raise InputError(f"expected {problem.rows} rows of {problem.cols} numbers, got a blank line",
                         source, blank)
    board_rows, board_cols, state = _read_rows(rows, source, "board")
    if (board_rows, board_cols) != (problem.rows, problem.cols):
        raise InputError(f"a {board_rows}x{board_cols} board for a {problem.rows}x{problem.cols} instance",
                         source, first_line)
    return state
