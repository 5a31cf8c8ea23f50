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

from heurist.domains.blokus.board import Placement
from heurist.errors import InputError
from heurist.search import SearchResult
from heurist.search.solutions import Solution

SOLUTION_FORMAT = "one move per line, 'piece N ... at (row,col) (row,col) ...', as 'heurist solve blokus' prints"
"""What :func:`read_solution` reads, in a few words (for help texts)."""

_PLACEMENT = re.compile(r"piece\s+(\d+)\b.*?\bat\s+((?:\(\s*\d+\s*,\s*\d+\s*\)\s*)+)$")
MAX_MOVE_LINE = 2000
"""No move line is longer (a piece covers a few squares); longer lines are refused before any matching."""
_CELL = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)")
_BOARD_ROW = re.compile(r"^[.#xXs ]+$")
_STATISTIC = re.compile(r"^[a-z_]+: ")
_COURSE_LINE = re.compile(r"^Expanded nodes: \d+, score: \d+$")
_CONTEST_NOTE = re.compile(r"^(plan from |A\* did not finish )")


def parse_placement(problem: Any, text: str, source: str, line: int) -> Placement:
    """A move as ``format_placement`` writes it (``piece N (K tiles) at (r,c) ...``), checked against the board."""
    board = problem.board
    _check_length(text, source, line)
    match = _PLACEMENT.search(text.strip())
    if match is None:
        raise InputError("expected a move 'piece N at (row,col) (row,col) ...'", source, line)
    piece = int(match.group(1)) - 1
    cells = {(int(r), int(c)) for r, c in _CELL.findall(match.group(2))}
    if not 0 <= piece < len(board.pieces.pieces):
        raise InputError(f"there is no piece {piece + 1}: the set has {len(board.pieces.pieces)}", source, line)
    off_board = sorted(cell for cell in cells if not board.on_board(*cell))
    if off_board:
        raise InputError(f"square {off_board[0]} is off the {board.rows}x{board.cols} board", source, line)
    first = min(cells)
    candidates = board.by_square[board.bit_index(*first)][piece]
    placement = next((p for p in candidates if set(p.cells) == cells), None)
    if placement is None:
        raise InputError(f"piece {piece + 1} cannot cover exactly these squares", source, line)
    return placement


def _check_length(text: str, source: str, line: int) -> None:
    if len(text) > MAX_MOVE_LINE:
        raise InputError(f"a line of {len(text):,} characters is not a move (at most {MAX_MOVE_LINE:,})",
                         source, line)


def format_placement(placement: Placement) -> str:
    """``piece N (K tiles) at (r,c) (r,c) ...``: the piece's number in the file and the squares it covers."""
    return repr(placement)


def write_course_solution(
    problem: Any, result: SearchResult, *, expanded: int | None = None, note: str = "",
    quiet: bool = False, moves: bool = True, **_: Any,
) -> str:
    """The course's ``game.py`` report: the moves (unless ``moves`` is off), the final board,
    any note, then ``Expanded nodes: N, score: S`` (N counts successor calls, as the course does)."""
    expanded = problem.expanded if expanded is None else expanded
    lines: list[str] = []
    if result.solved:
        final = result.states[-1]
        if not quiet:
            if moves:
                lines += [f"move {step}: {format_placement(move)}" for step, move in enumerate(result.actions, start=1)]
            lines += [problem.draw(final), ""]
            if note:
                lines.append(note)
        lines.append(f"Expanded nodes: {expanded}, score: {problem.score(final)}")
    else:
        reason = (
            f"no solution: the {result.limit} limit was reached"
            if result.limit
            else "no solution: every reachable position was searched"
        )
        lines.append(f"{reason}. Expanded nodes: {expanded}")
    return "\n".join(lines)


def read_solution(text: str, problem: Any, source: str) -> Solution:
    """One placement per line (``piece N ... at (r,c) ...``); boards, ``start:`` and statistics are skipped."""
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
        if line.startswith("no solution: the ") and " limit was reached" in line:
            raise InputError("the file holds no plan: the search stopped at a limit", source, number)
        if line.startswith(("status: no solution", "no solution: ")) or line == "No solution":
            return Solution(source, "blokus", unsolvable=True)
        if _COURSE_LINE.match(line) or _CONTEST_NOTE.match(line):
            continue
        _check_length(line, source, number)
        if _PLACEMENT.search(line) is None:
            if _STATISTIC.match(line):
                continue
            raise InputError("expected a move 'piece N at (row,col) (row,col) ...'", source, number)
        placement = parse_placement(problem, line, source, number)
        moves.append(placement)
        lines.append(number)
    if not moves:  # an empty file, or statistics alone: no plan and no "no solution" claim
        raise InputError("the file holds no move and does not say 'no solution'", source,
                         max(1, len(text.splitlines())))
    return Solution(source, "blokus", moves=moves, lines=lines, stated_cost=stated_cost, stated_cost_line=stated_line)
