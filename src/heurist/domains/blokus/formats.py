"""Blokus solution files read back: a move list.

One placement per line, ``piece N ... at (r,c) (r,c) ...``, as ``heurist
solve blokus`` and ``heurist blokus --moves`` print it; the boards, the
``start:`` line, the statistics, the course's ``Expanded nodes: N, score: S``
line and the mini-contest's note are skipped, and ``cost: N`` is read as the
stated cost. :func:`read_solution` is
the domain's ``read_solution`` hook, used by ``heurist validate`` and
``heurist render --plan``.
"""

from __future__ import annotations

import re
from typing import Any

from heurist.errors import InputError
from heurist.search.solutions import Solution

SOLUTION_FORMAT = "one move per line, 'piece N ... at (row,col) (row,col) ...', as 'heurist solve blokus' prints"
"""What :func:`read_solution` reads, in a few words (for help texts)."""

_PLACEMENT = re.compile(r"piece\s+(\d+)\b.*?\bat\s+((?:\(\s*\d+\s*,\s*\d+\s*\)\s*)+)$")
_CELL = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)")
_BOARD_ROW = re.compile(r"^[.#xXs ]+$")
_STATISTIC = re.compile(r"^[a-z_]+: ")
_COURSE_LINE = re.compile(r"^Expanded nodes: \d+, score: \d+$")
_CONTEST_NOTE = re.compile(r"^(plan from |A\* did not finish )")


def read_solution(text: str, problem: Any, source: str) -> Solution:
    """One placement per line (``piece N ... at (r,c) ...``); boards, ``start:`` and statistics are skipped."""
    board = problem.board
    moves, lines = [], []
    stated_cost = stated_line = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or line == "start:" or _BOARD_ROW.match(line):
            continue
        if line.startswith("cost: "):
            try:
                stated_cost, stated_line = float(line.split()[1]), number
            except ValueError:
                raise InputError("expected 'cost: N'", source, number) from None
            continue
        if line.startswith(("status: no solution", "no solution: ")) or line == "No solution":
            return Solution(source, "blokus", unsolvable=True)
        if _COURSE_LINE.match(line) or _CONTEST_NOTE.match(line):
            continue
        match = _PLACEMENT.search(line)
        if match is None:
            if _STATISTIC.match(line):
                continue
            raise InputError("expected a move 'piece N at (row,col) (row,col) ...'", source, number)
        piece = int(match.group(1)) - 1
        cells = {(int(r), int(c)) for r, c in _CELL.findall(match.group(2))}
        if not 0 <= piece < len(board.pieces.pieces):
            raise InputError(f"there is no piece {piece + 1}: the set has {len(board.pieces.pieces)}", source, number)
        off_board = sorted(cell for cell in cells if not board.on_board(*cell))
        if off_board:
            raise InputError(f"square {off_board[0]} is off the {board.rows}x{board.cols} board", source, number)
        first = min(cells)
        candidates = board.by_square[board.bit_index(*first)][piece]
        placement = next((p for p in candidates if set(p.cells) == cells), None)
        if placement is None:
            raise InputError(f"piece {piece + 1} cannot cover exactly these squares", source, number)
        moves.append(placement)
        lines.append(number)
    return Solution(source, "blokus", moves=moves, lines=lines, stated_cost=stated_cost, stated_cost_line=stated_line)
