"""Reading solutions in the courses' own output formats, and replaying them.

* Klotski: the CSC384 output files of every variant: V1 (``Cost of the
  solution: N`` then digit boards), V2/V3 (character boards), or
  ``No solution``; read with :func:`heurist.domains.klotski.formats.parse_solution`.
* Blocks World: the CSCE 420 trace (``move k, pathcost=...`` headers, the
  stacks, ``>>>>>>>>>>``, and the ``statistics:`` line) as ``heurist
  blocksworld`` prints it, or bare states separated by ``>>>>>>>>>>``.
* Blokus: a move list, one ``piece N ... at (r,c) (r,c) ...`` per line, as
  ``heurist solve blokus`` prints it (its boards and statistics are skipped).

Each reader returns a :class:`Solution`; :func:`replay` checks it against
the problem. Files that cannot be read, are cut short or belong to another
instance raise :class:`~heurist.errors.InputError` with the line number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from heurist.errors import InputError


@dataclass
class Solution:
    """What a solution file claims.

    Either ``states`` (the start and every state after it) or ``moves`` (the
    actions from the instance's start) is given; ``lines[i]`` is the line
    where state ``i`` (or move ``i + 1``) begins. ``unsolvable`` is a claim
    that no solution exists.
    """

    source: str
    format: str
    states: list | None = None
    moves: list | None = None
    lines: list[int] = field(default_factory=list)
    stated_cost: float | None = None
    stated_cost_line: int | None = None
    unsolvable: bool = False


@dataclass
class Replay:
    """What replaying a solution found."""

    moves: int = 0
    starts_at_instance: bool = True
    legal: bool = True
    illegal_step: int | None = None
    illegal_line: int | None = None
    before: Any = None
    after: Any = None
    reason: str = ""
    ends_at_goal: bool = False
    cost: float = 0.0
    states: list = field(default_factory=list)


def replay(problem: Any, solution: Solution) -> Replay:
    """Follow the solution from the start; stop at the first step that is not one legal move."""
    result = Replay()
    state = problem.initial_state
    result.states = [state]
    if solution.states is not None:
        claimed = solution.states
        result.moves = len(claimed) - 1
        if claimed[0] != state:
            result.starts_at_instance = False
            state = claimed[0]
            result.states = [state]
        for number, after in enumerate(claimed[1:], start=1):
            costs = [cost for _, child, cost in problem.successors(state) if child == after]
            if not costs:
                _illegal(result, solution, number, state, after, "not one legal move")
                return result
            result.cost += min(costs)
            state = after
            result.states.append(state)
    else:
        result.moves = len(solution.moves)
        for number, move in enumerate(solution.moves, start=1):
            found = [(child, cost) for action, child, cost in problem.successors(state) if action == move]
            if not found:
                _illegal(result, solution, number, state, None, f"{move!r} cannot be played here")
                return result
            state, cost = found[0]
            result.cost += cost
            result.states.append(state)
    result.ends_at_goal = bool(problem.is_goal(state))
    return result


def _illegal(result: Replay, solution: Solution, number: int, before: Any, after: Any, reason: str) -> None:
    result.legal = False
    result.illegal_step = number
    index = number if solution.states is not None else number - 1
    result.illegal_line = solution.lines[index] if index < len(solution.lines) else None
    result.before, result.after, result.reason = before, after, reason


# ----- Klotski ------------------------------------------------------------------------------------

_COST_LINE = re.compile(r"^Cost of the solution:\s*(\d+)\s*$")


def read_klotski_solution(text: str, problem: Any, source: str) -> Solution:
    """A CSC384 output file (any variant) for ``problem``."""
    from heurist.domains.klotski.board import SHAPES
    from heurist.domains.klotski.formats import V1, V2, parse_solution

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


# ----- Blocks World -------------------------------------------------------------------------------

_MOVE_HEADER = re.compile(r"^move (\d+), pathcost=")
_SUCCESS = re.compile(r"^success! .*\bcost=(\d+)")
_STATISTICS = re.compile(r"^statistics: .*\bplanlen (\S+)")
_PROGRESS = re.compile(r"^iter=\d+")


def read_blocksworld_trace(text: str, problem: Any, source: str) -> Solution:
    """A CSCE 420 trace: per state a ``move k, ...`` header (optional), the stacks, and ``>>>>>>>>>>``."""
    from heurist.domains.blocksworld.formats import SEPARATOR

    stacks = problem.stack_count
    blocks = sorted(problem.blocks)
    lines = [line.rstrip(" \t\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    states: list[tuple[str, ...]] = []
    starts: list[int] = []
    stated_cost = stated_line = None
    index = 0
    expected_move = 0
    headers = any(_MOVE_HEADER.match(line) for line in lines)
    while index < len(lines):
        line, number = lines[index], index + 1
        if line.startswith("FAILED"):  # the program gave up: it claims no plan
            return Solution(source, "blocksworld", unsolvable=True)
        success, statistics = _SUCCESS.match(line), _STATISTICS.match(line)
        if success or statistics:
            value = success.group(1) if success else statistics.group(1)
            if value == "FAILED":
                return Solution(source, "blocksworld", unsolvable=True)
            if stated_cost is None:
                stated_cost, stated_line = int(value), number
            index += 1
            continue
        if _PROGRESS.match(line):
            index += 1
            continue
        header_line = number
        if headers:
            header = _MOVE_HEADER.match(line)
            if header is None:
                if not line.strip():
                    index += 1
                    continue
                raise InputError(f"expected 'move {expected_move}, pathcost=...', got {line!r}", source, number)
            if int(header.group(1)) != expected_move:
                raise InputError(f"expected move {expected_move}, got move {header.group(1)}", source, number)
            index += 1
        first = index + 1
        if index + stacks > len(lines):
            raise InputError(
                f"truncated: the file ends inside a state (the instance has {stacks} stacks)", source, len(lines)
            )
        state_lines = lines[index:index + stacks]
        for offset, row in enumerate(state_lines):
            if row == SEPARATOR:
                raise InputError(
                    f"this state has {offset} stack lines; the instance has {stacks} stacks", source, first + offset
                )
            if row.strip("_") and not all("A" <= block <= "Z" for block in row):
                raise InputError(f"{row!r} is not a stack of blocks A-Z", source, first + offset)
        state = tuple(row.strip("_") for row in state_lines)
        if sorted("".join(state)) != blocks:
            raise InputError(
                "this state holds other blocks than the instance (a solution for another instance?)", source, first
            )
        index += stacks
        if index >= len(lines) or lines[index] != SEPARATOR:
            raise InputError(
                f"expected the separator '{SEPARATOR}' after the {stacks} stacks (a trace of another instance?)",
                source,
                index + 1,
            )
        index += 1
        states.append(state)
        starts.append(header_line)
        expected_move += 1
    if not states:
        raise InputError("no state: the trace is empty", source, max(1, len(lines)))
    return Solution(source, "blocksworld", states=states, lines=starts,
                    stated_cost=stated_cost, stated_cost_line=stated_line)


# ----- Blokus -------------------------------------------------------------------------------------

_PLACEMENT = re.compile(r"piece\s+(\d+)\b.*?\bat\s+((?:\(\s*\d+\s*,\s*\d+\s*\)\s*)+)$")
_CELL = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)")
_BOARD_ROW = re.compile(r"^[.#xXs ]+$")
_STATISTIC = re.compile(r"^[a-z_]+: ")


def read_blokus_moves(text: str, problem: Any, source: str) -> Solution:
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
        if line.startswith("status: no solution") or line == "No solution":
            return Solution(source, "blokus", unsolvable=True)
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


READERS = {
    "klotski": read_klotski_solution,
    "blocksworld": read_blocksworld_trace,
    "blokus": read_blokus_moves,
}
"""Solution readers by domain name; a domain should eventually offer its own ``read_solution``."""


def read_plan(domain_name: str, problem: Any, path: str) -> list:
    """The states of the plan in a solution file, from the instance's start; anything else is an input error.

    For drawing a plan (``heurist render --plan``): unlike ``validate``, which
    reports what is wrong with a solution, this accepts only a legal plan that
    starts at the instance, and names the first line where that fails.
    """
    from heurist.errors import read_text

    if domain_name not in READERS:
        raise InputError(f"no solution reader for the {domain_name} domain", path)
    solution = READERS[domain_name](read_text(path), problem, path)
    if solution.unsolvable:
        raise InputError("the solution claims there is none: there is no plan to draw", path, 1)
    result = replay(problem, solution)
    if not result.starts_at_instance:
        raise InputError("the solution's first state is not the instance's start", path, solution.lines[0] if solution.lines else 1)
    if not result.legal:
        raise InputError(f"step {result.illegal_step} is not legal: {result.reason}", path, result.illegal_line)
    return result.states
