"""Blokus solution files read back: a move list.

One placement per line, ``piece N ... at (r,c) (r,c) ...``, as ``heurist
solve blokus`` and ``heurist blokus --moves`` print it; the boards, the
``start:`` line, the statistics, the course's ``Expanded nodes: N, score: S``
line and the mini-contest's note are skipped, and ``cost: N`` is read as the
stated cost. The course's ``game.py`` prints no moves, only the final board
and ``Expanded nodes: N, score: S``: the plan is then rebuilt from the board
(legal placements from the start that cover exactly its tiles) and the score
must be its tile count; a score line alone proves nothing and is refused.
:func:`read_solution` is the domain's ``read_solution`` hook, used by
``heurist validate``, ``heurist render --plan`` and ``heurist grade``.
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
_SCORE_LINE = re.compile(r"Expanded nodes: (\d+), score: (\d+)")
_BOARD_TOKEN = re.compile(r"^[.#xXsS]$")
REBUILD_BUDGET = 200_000
"""States the rebuilding of a plan from a final board may visit."""
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
    if not moves:
        scores = list(_SCORE_LINE.finditer(text))
        if scores:
            return _from_final_board(problem, text, source, scores[-1])
        # an empty file, or statistics alone: no plan and no "no solution" claim
        raise InputError("the file holds no move and does not say 'no solution'", source,
                         max(1, len(text.splitlines())))
    return Solution(source, "blokus", moves=moves, lines=lines, stated_cost=stated_cost, stated_cost_line=stated_line)


def _from_final_board(problem: Any, text: str, source: str, score_line: re.Match) -> Solution:
    """``game.py``'s report without moves: the plan rebuilt from its last board, checked against its score.

    A board that no sequence of legal placements builds (within :data:`REBUILD_BUDGET`
    states) is read as one step from the start to that board, so that the replay
    calls it illegal and draws it.
    """
    score = int(score_line.group(2))
    line = text[: score_line.start()].count("\n") + 1
    board = final_board(problem, text)
    if board is None:
        raise InputError(f"a score line alone (score {score}) proves nothing: print the final board or the moves",
                         source, line)
    tiles = board.bit_count()
    if tiles != score:
        raise InputError(f"score {score}, but the final board has {tiles} tiles", source, line)
    moves = rebuild_plan(problem, board)
    if moves is None:
        return Solution(source, "blokus", states=[problem.initial_state, (board, 0)], lines=[line, line],
                        note="no sequence of legal placements builds the final board")
    return Solution(source, "blokus", moves=moves, lines=[line] * len(moves), note="plan rebuilt from the final board")


def final_board(problem: Any, text: str) -> int | None:
    """The occupied squares of the last board drawn in ``text`` (a ``game.py`` report), as a bitmask."""
    board = problem.board
    runs: list[list[list[str]]] = [[]]
    for line in text.splitlines():
        tokens = line.split()
        if tokens and len(tokens) == board.cols and all(_BOARD_TOKEN.match(token) for token in tokens):
            runs[-1].append(tokens)
        elif runs[-1]:
            runs.append([])
    boards = [run for run in runs if len(run) == board.rows]
    if not boards:
        return None
    mask = 0
    for row, tokens in enumerate(boards[-1]):
        for col, token in enumerate(tokens):
            if token in ("#", "X", "S"):
                mask |= board.bit(row, col)
    return mask


def rebuild_plan(problem: Any, final: int, budget: int = REBUILD_BUDGET) -> list[Any] | None:
    """Legal placements from the start that cover exactly the squares ``final``; None if there are none."""
    start = problem.initial_state
    stack: list[tuple[Any, list[Any]]] = [(start, [])]
    seen = {start}
    while stack and len(seen) <= budget:
        state, moves = stack.pop()
        if state[0] == final:
            return moves
        for action, after, _ in problem.successors(state):
            if after[0] & ~final or after in seen:
                continue
            seen.add(after)
            stack.append((after, [*moves, action]))
    return None
