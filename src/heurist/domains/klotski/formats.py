"""Reading and writing the three CSC384 Hua Rong Dao formats.

* **V1** (numeric, Fall 2022): input digits ``0`` empty, ``1`` the 2x2 piece,
  ``2``-``6`` one 1x2 piece each (orientation from the neighbouring digit;
  ``8`` and ``9`` too, as the students' programs accept), ``7`` a 1x1 piece. Output: ``Cost of the solution: N``, then every state in
  the output digits ``0`` empty, ``1`` 2x2, ``2`` horizontal, ``3`` vertical,
  ``4`` 1x1, each state followed by an empty line.
* **V2** (characters, 2023-2024): ``.`` empty, ``1`` 2x2, ``2`` 1x1,
  ``<`` ``>`` horizontal, ``^`` ``v`` vertical. Output: the states, each
  followed by an empty line.
* **V3** (goal boards, 2024-2025): V2 characters; the start board, a blank
  line, then the goal board. Output as V2, or ``No solution``.

Readers accept CRLF line endings, a UTF-8 byte order mark and trailing blank
lines; every problem is reported as an :class:`~heurist.errors.InputError`
naming the line (an invisible character inside a row by its column and name).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heurist.domains.klotski.board import (
    BIG,
    HORIZONTAL,
    SHAPES,
    SINGLE,
    VERTICAL,
    Geometry,
    iter_bits,
)
from heurist.errors import InputError, read_text
from heurist.search.solutions import Solution

V1, V2, V3 = "v1", "v2", "v3"

CHARS = {".": None, "1": BIG, "2": SINGLE, "<": HORIZONTAL, ">": HORIZONTAL, "^": VERTICAL, "v": VERTICAL}
V1_OUTPUT_DIGITS = {BIG: "1", HORIZONTAL: "2", VERTICAL: "3", SINGLE: "4"}
V2_SHAPE_CHARS = {BIG: ("1", "1", "1", "1"), VERTICAL: ("^", "v"), HORIZONTAL: ("<", ">"), SINGLE: ("2",)}


@dataclass(frozen=True)
class Puzzle:
    """A parsed instance: the board size, the start state and, for V3, the goal state."""

    geometry: Geometry
    start: int
    goal: int | None
    variant: str
    source: str = "<string>"


@dataclass(frozen=True)
class _Row:
    text: str
    line: int  # 1-based line number in the file


def read_puzzle(path: str | Path) -> Puzzle:
    """Read a puzzle file of any variant, detecting which from its content."""
    return parse_puzzle(read_text(path), str(path))


def parse_puzzle(text: str, source: str = "<string>") -> Puzzle:
    blocks = _blocks(text, source)
    if not blocks:
        raise InputError("empty file: expected a board", source, 1)
    if len(blocks) > 2:
        raise InputError(
            "more than two boards: expected a start board, optionally a blank line and a goal board",
            source,
            blocks[2][0].line,
        )
    numeric = _looks_numeric(blocks[0])
    if numeric and len(blocks) == 2:
        raise InputError("a goal board is only allowed in the character format", source, blocks[1][0].line)
    notation = "v1-input" if numeric else "chars"
    geometry, start = parse_board(blocks[0], notation, source)
    if len(blocks) == 1:
        return Puzzle(geometry, start, None, V1 if numeric else V2, source)
    goal_geometry, goal = parse_board(blocks[1], "chars", source)
    if goal_geometry != geometry:
        raise InputError(
            f"the goal board is {goal_geometry.width}x{goal_geometry.height}, "
            f"the start board {geometry.width}x{geometry.height}",
            source,
            blocks[1][0].line,
        )
    return Puzzle(geometry, start, goal, V3, source)


MAX_CELLS = 1024
"""The largest board heurist reads, in cells (the course's boards have 20 to 24).

A state packs four bits per cell into one integer, and the move generator,
the mirror map and the pattern databases are built for the whole board
before the search starts: about a second at 1,000 cells, 20 seconds at
3,600 (900x4), minutes at 40,000 (200x200). A board that large also has far
more states than any search can visit, so it is refused up front."""

_CONTROL_NAMES = {
    "\t": "CHARACTER TABULATION", "\x0b": "LINE TABULATION", "\x0c": "FORM FEED", "\r": "CARRIAGE RETURN",
    "\x00": "NULL", "\x1c": "FILE SEPARATOR", "\x1d": "GROUP SEPARATOR", "\x1e": "RECORD SEPARATOR",
    "\x1f": "UNIT SEPARATOR", "\x85": "NEXT LINE", "\x7f": "DELETE",
}


def _invisible(char: str) -> bool:
    """True for a character an editor does not show: controls, format characters, spaces other than ' '."""
    return char != " " and unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


def describe_char(char: str) -> str:
    """``U+000C (FORM FEED)``: the code point and the Unicode name of a character."""
    name = unicodedata.name(char, None) or _CONTROL_NAMES.get(char, "control character")
    return f"U+{ord(char):04X} ({name})"


def _lines(text: str) -> list[str]:
    """The lines of ``text``: split at LF, CRLF or CR only (not at form feeds or U+2028,
    which :meth:`str.splitlines` also breaks at), a leading UTF-8 byte order mark dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return re.split(r"\r\n|\r|\n", text)


def _blocks(text: str, source: str) -> list[list[_Row]]:
    """Split the text into boards separated by blank lines, keeping line numbers."""
    blocks: list[list[_Row]] = []
    current: list[_Row] = []
    for number, raw in enumerate(_lines(text), start=1):
        line = raw.rstrip()  # trailing spaces, tabs and CR are invisible in an editor: ignored
        if line == "":
            if current:
                blocks.append(current)
                current = []
            continue
        for column, char in enumerate(line, start=1):
            if _invisible(char):
                raise InputError(f"column {column}: invisible character {describe_char(char)}", source, number)
        if line != line.lstrip():
            raise InputError("unexpected spaces before the row (they would shift its cells)", source, number)
        current.append(_Row(line, number))
    if current:
        blocks.append(current)
    return blocks


V2_ONLY = set(".<>^v")
"""Characters that only the character format (V2, V3) uses."""

V1_ONLY = set("03456789")
"""Digits that only the V1 digit format uses."""


def _looks_numeric(rows: list[_Row]) -> bool:
    """The V1 digit format, unless the board holds a V2 character anywhere.

    The whole board decides: a V2 board with a stray ``0`` (V1's empty cell)
    is still V2, and the ``0`` is then reported at its own line and column.
    """
    chars = set("".join(row.text for row in rows))
    return not chars & V2_ONLY and bool(chars & V1_ONLY)


def parse_board(rows: list[_Row] | list[str], notation: str, source: str = "<string>") -> tuple[Geometry, int]:
    """Parse one board in ``notation`` (``v1-input``, ``v1-output`` or ``chars``)."""
    rows = [row if isinstance(row, _Row) else _Row(row, i + 1) for i, row in enumerate(rows)]
    width = len(rows[0].text)
    if width * len(rows) > MAX_CELLS:
        raise InputError(
            f"a board of {width} columns and {len(rows)} rows has {width * len(rows)} cells; at most {MAX_CELLS} "
            "are supported (a search on a board that large cannot finish)",
            source,
            rows[0].line,
        )
    for row in rows:
        if len(row.text) != width:
            raise InputError(f"ragged board: this row has {len(row.text)} cells, the first has {width}", source, row.line)
    geometry = Geometry(width, len(rows))
    grid = [row.text for row in rows]
    kinds = _cell_kinds(rows, notation, source)
    masks = {BIG: 0, VERTICAL: 0, HORIZONTAL: 0, SINGLE: 0}
    taken = [[False] * width for _ in rows]

    def fail(message: str, r: int, c: int) -> None:
        raise InputError(f"{message} (column {c + 1})", source, rows[r].line)

    def claim(shape: int, r: int, c: int, cells: list[tuple[int, int]], what: str, partner: str | None = None) -> None:
        """Mark ``cells`` as one piece; every cell but the first must hold ``partner``
        (by default the same character as the first)."""
        expected = grid[r][c] if partner is None else partner
        for rr, cc in cells[1:]:
            if not (0 <= rr < len(rows) and 0 <= cc < width) or taken[rr][cc] or grid[rr][cc] != expected:
                fail(f"broken piece: {what}", r, c)
        for rr, cc in cells:
            taken[rr][cc] = True
        masks[shape] |= 1 << geometry.index(r, c)

    for r, line in enumerate(grid):
        for c, char in enumerate(line):
            if taken[r][c]:
                continue
            kind = kinds[r][c]
            if kind is None:
                continue
            if kind == BIG:
                claim(BIG, r, c, [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)],
                      f"'{char}' must fill a 2x2 square")
            elif kind == SINGLE:
                taken[r][c] = True
                masks[SINGLE] |= 1 << geometry.index(r, c)
            elif kind == HORIZONTAL:
                if notation != "chars":
                    claim(HORIZONTAL, r, c, [(r, c), (r, c + 1)], f"'{char}' must pair with the cell to its right")
                elif char == ">":
                    fail("broken piece: '>' without '<' on its left", r, c)
                else:
                    claim(HORIZONTAL, r, c, [(r, c), (r, c + 1)], "'<' must be followed by '>'", ">")
            elif kind == VERTICAL:
                if notation != "chars":
                    claim(VERTICAL, r, c, [(r, c), (r + 1, c)], f"'{char}' must pair with the cell below it")
                elif char == "v":
                    fail("broken piece: 'v' without '^' above it", r, c)
                else:
                    claim(VERTICAL, r, c, [(r, c), (r + 1, c)], "'^' must have 'v' below it", "v")
            else:  # V1 input digit 2-6, 8, 9: one 1x2 piece, orientation from its partner
                if c + 1 < width and grid[r][c + 1] == char and not taken[r][c + 1]:
                    claim(HORIZONTAL, r, c, [(r, c), (r, c + 1)], "")
                elif r + 1 < len(rows) and grid[r + 1][c] == char:
                    claim(VERTICAL, r, c, [(r, c), (r + 1, c)], "")
                else:
                    fail(f"broken piece: digit {char} has no neighbouring {char} to form a 1x2 piece", r, c)
    if notation == "v1-input":
        for digit in PAIR_DIGITS:
            count = sum(line.count(digit) for line in grid)
            if count not in (0, 2):
                first = next(row.line for row in rows if digit in row.text)
                raise InputError(f"digit {digit} marks one 1x2 piece and must appear twice, not {count} times", source, first)
    return geometry, geometry.pack(masks[BIG], masks[VERTICAL], masks[HORIZONTAL], masks[SINGLE])


PAIR_DIGITS = "2345689"
"""V1 input digits that mark a 1x2 piece: the handout numbers the five 1x2 pieces 2-6, and the students'
programs accept any digit but 0, 1 and 7 (a public submission's input uses 8), taking the orientation
from the two cells' shape."""

_NUMERIC_INPUT = {"0": None, "1": BIG, "7": SINGLE, **{d: "pair" for d in PAIR_DIGITS}}
_NUMERIC_OUTPUT = {"0": None, "1": BIG, "2": HORIZONTAL, "3": VERTICAL, "4": SINGLE}


def _cell_kinds(rows: list[_Row], notation: str, source: str) -> list[list[object]]:
    table = {"v1-input": _NUMERIC_INPUT, "v1-output": _NUMERIC_OUTPUT, "chars": CHARS}[notation]
    kinds = []
    for row in rows:
        out = []
        for c, char in enumerate(row.text):
            if char not in table:
                allowed = " ".join(table)
                shown = repr(char) if char.isprintable() else describe_char(char)
                hint = ""
                if notation == "chars" and char in V1_ONLY:
                    hint = " (this board uses the character format, where '.' is an empty cell)"
                raise InputError(
                    f"unknown character {shown} at column {c + 1}; expected one of {allowed}{hint}", source, row.line
                )
            out.append(table[char])
        kinds.append(out)
    return kinds


# ----- writing ---------------------------------------------------------------------------

def board_lines(geometry: Geometry, state: int, notation: str = "chars") -> list[str]:
    """The rows of a board, in ``chars`` (V2/V3) or ``v1-output`` digits."""
    empty = "0" if notation == "v1-output" else "."
    grid = [[empty] * geometry.width for _ in range(geometry.height)]
    for shape, anchor in geometry.pieces(state):
        marks = (V1_OUTPUT_DIGITS[shape],) * 4 if notation == "v1-output" else V2_SHAPE_CHARS[shape]
        # Cells in increasing index order: top-left first, as the marks are listed.
        for cell, mark in zip(iter_bits(geometry.piece_cells[shape][anchor]), marks):
            r, c = geometry.row_col(cell)
            grid[r][c] = mark
    return ["".join(row) for row in grid]


def format_board(geometry: Geometry, state: int, notation: str = "chars") -> str:
    return "\n".join(board_lines(geometry, state, notation))


def format_puzzle(geometry: Geometry, start: int, goal: int | None = None, variant: str = V2) -> str:
    """An instance file that :func:`parse_puzzle` reads back: V1 input digits, V2 characters,
    or V3 (the start, a blank line, the goal)."""
    if variant == V1:
        return "\n".join(_v1_input_lines(geometry, start)) + "\n"
    text = format_board(geometry, start) + "\n"
    if goal is not None:
        text += "\n" + format_board(geometry, goal) + "\n"
    return text


def _v1_input_lines(geometry: Geometry, state: int) -> list[str]:
    """V1 input digits: ``1`` the 2x2 piece, ``7`` a 1x1, each 1x2 piece its own digit from 2 to 6."""
    grid = [["0"] * geometry.width for _ in range(geometry.height)]
    pairs = iter("23456")
    for shape, anchor in sorted(geometry.pieces(state), key=lambda piece: piece[1]):
        if shape in (VERTICAL, HORIZONTAL):
            mark = next(pairs, None)
            if mark is None:
                raise ValueError("V1 files number at most five 1x2 pieces (digits 2-6)")
        else:
            mark = "1" if shape == BIG else "7"
        for cell in iter_bits(geometry.piece_cells[shape][anchor]):
            r, c = geometry.row_col(cell)
            grid[r][c] = mark
    return ["".join(row) for row in grid]


def parse_state_lines(lines: list[str], geometry: Geometry, source: str, first_line: int) -> int:
    """One character board (as :func:`format_board` writes it) of ``geometry``, from line ``first_line``."""
    rows = [_Row(line.rstrip(), first_line + offset) for offset, line in enumerate(lines)]
    board_geometry, state = parse_board(rows, "chars", source)
    if board_geometry != geometry:
        raise InputError(
            f"a {board_geometry.width}x{board_geometry.height} board for a "
            f"{geometry.width}x{geometry.height} instance", source, first_line,
        )
    return state


def format_solution(geometry: Geometry, states: list[int] | None, variant: str, cost: float | None = None) -> str:
    """The course's output file for a plan (``None``: no solution)."""
    if states is None:
        return "No solution\n"
    notation = "v1-output" if variant == V1 else "chars"
    body = "".join(format_board(geometry, state, notation) + "\n\n" for state in states)
    if variant == V1:
        return f"Cost of the solution: {int(cost if cost is not None else len(states) - 1)}\n" + body
    return body


def parse_solution(text: str, geometry: Geometry, variant: str, source: str = "<string>") -> list[int] | None:
    """Read an output file back into states (``None`` for ``No solution``)."""
    lines = text.splitlines()
    if lines and lines[0].strip() == "No solution":
        return None
    rows = _blocks(text, source)
    notation = "chars"
    if variant == V1:
        if not rows or not rows[0][0].text.startswith("Cost of the solution"):
            raise InputError("expected 'Cost of the solution: N' on the first line", source, 1)
        first = rows[0][1:]
        rows = ([first] if first else []) + rows[1:]
        notation = "v1-output"
    states = []
    for block in rows:
        board_geometry, state = parse_board(block, notation, source)
        if board_geometry != geometry:
            raise InputError(
                f"a {board_geometry.width}x{board_geometry.height} board in a solution for "
                f"{geometry.width}x{geometry.height}",
                source,
                block[0].line,
            )
        states.append(state)
    return states


# ----- solution files ----------------------------------------------------------------------

SOLUTION_FORMAT = (
    "a CSC384 output file: V1 ('Cost of the solution: N' then digit boards), "
    "V2/V3 (character boards separated by blank lines) or 'No solution'"
)
"""What :func:`read_solution` reads, in a few words (for help texts)."""

_COST_LINE = re.compile(r"^Cost of the solution:\s*(\d+)\s*$")


def read_solution(text: str, problem: Any, source: str) -> Solution:
    """A CSC384 output file (any variant) for ``problem``."""
    lines = text.splitlines()
    if lines and lines[0].strip() == "No solution":
        extra = next((n for n, line in enumerate(lines[1:], start=2) if line.strip()), None)
        if extra is not None:
            raise InputError("unexpected text after 'No solution'", source, extra)
        return Solution(source, "klotski", unsolvable=True)
    geometry = problem.geometry
    stated_cost = None
    variant = V2
    first_board_line = 1
    if lines and lines[0].startswith("Cost of the solution"):
        match = _COST_LINE.match(lines[0].rstrip("\r"))
        if match is None:
            raise InputError("expected 'Cost of the solution: N' with a whole number N", source, 1)
        stated_cost, variant, first_board_line = int(match.group(1)), V1, 2
    blocks = _board_blocks(lines, first_board_line)
    if not blocks:
        raise InputError("no board: the solution is empty", source, max(1, len(lines)))
    for start, rows in blocks:
        if rows < geometry.height:
            where = "the last board" if (start, rows) == blocks[-1] else "this board"
            raise InputError(
                f"truncated: {where} has {rows} of the instance's {geometry.height} rows", source, start
            )
    states = parse_solution(text, geometry, variant, source)
    counts = [geometry.shape_mask(problem.initial_state, shape).bit_count() for shape in SHAPES]
    for state, (line, _) in zip(states, blocks):
        if [geometry.shape_mask(state, shape).bit_count() for shape in SHAPES] != counts:
            raise InputError(
                "this board has other pieces than the instance (a solution for another instance?)", source, line
            )
    return Solution(source, "klotski", states=states, lines=[line for line, _ in blocks],
                    stated_cost=stated_cost, stated_cost_line=1 if stated_cost is not None else None)


def _board_blocks(lines: list[str], first: int) -> list[tuple[int, int]]:
    """(first line, number of rows) of every run of non-blank lines from line ``first`` on."""
    blocks: list[tuple[int, int]] = []
    start, rows = None, 0
    for number, line in enumerate(lines[first - 1:], start=first):
        if line.strip():
            if start is None:
                start, rows = number, 0
            rows += 1
        elif start is not None:
            blocks.append((start, rows))
            start = None
    if start is not None:
        blocks.append((start, rows))
    return blocks
