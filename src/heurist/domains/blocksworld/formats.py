"""Reading and writing the course's ``.bwp`` problem files.

The format (CSCE 420 handouts; every course file follows it)::

    S B M            stacks, blocks, scrambling moves used to make the goal (-1 if none)
    >>>>>>>>>>
    S lines          the start, one stack per line, blocks bottom to top, no spaces;
                     an empty line is an empty stack
    >>>>>>>>>>
    S lines          the goal, in the same convention
    >>>>>>>>>>

Blocks are single uppercase letters A-Z, each exactly once in the start and
once in the goal. Line endings may be LF or CRLF; trailing blanks on a line
are ignored. Every deviation is reported as an :class:`InputError` naming the
file and line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from heurist.domains.blocksworld.model import BlocksWorld, State, format_stacks
from heurist.errors import InputError, read_bytes
from heurist.search import Heuristic, SearchResult
from heurist.search.solutions import Solution

SEPARATOR = ">" * 10
HEADER_HELP = "expected the header 'STACKS BLOCKS MOVES' (three whole numbers, e.g. '5 10 -1')"


MAX_BYTES = 1 << 20
"""The largest ``.bwp`` file read: 26 blocks take a few hundred bytes, so a larger file (or a device such as
``/dev/zero`` that never ends) is not a problem file."""


def load_bwp(path: str | Path) -> BlocksWorld:
    """Read and check a ``.bwp`` file."""
    return parse_bwp(_read_bounded(path), str(path))


def _read_bounded(path: str | Path) -> str:
    """The file's text, read as :func:`~heurist.errors.read_text` does but refused past :data:`MAX_BYTES`."""
    data = read_bytes(path)
    if len(data) > MAX_BYTES:
        raise InputError(f"more than {MAX_BYTES} bytes: not a .bwp problem (26 blocks take a few hundred)", path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError("not a UTF-8 text file", path, data[: error.start].count(b"\n") + 1) from None


def _clip(text: str, width: int = 60) -> str:
    """``repr(text)`` cut to about ``width`` characters, so a huge line does not make a huge error line."""
    return repr(text) if len(text) <= width else repr(text[:width]) + "..."


def parse_bwp(text: str, source: str = "<bwp>") -> BlocksWorld:
    """Parse ``.bwp`` text; raise :class:`InputError` (with the line number) on any problem."""
    lines = [line.rstrip(" \t\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if not any(lines):
        raise InputError("empty file: expected a .bwp problem", source, 1)

    stack_count, block_count, scramble_moves = _parse_header(lines[0], source)
    cursor = 1

    def expect_separator(after: str) -> None:
        nonlocal cursor
        if cursor >= len(lines):
            raise InputError(f"missing separator '{SEPARATOR}' after {after}: the file ends here", source, cursor + 1)
        if lines[cursor] != SEPARATOR:
            raise InputError(f"expected the separator '{SEPARATOR}' after {after}, got {_clip(lines[cursor])}", source, cursor + 1)
        cursor += 1

    def read_stacks(part: str) -> tuple[list[str], dict[str, int]]:
        nonlocal cursor
        stacks: list[str] = []
        seen: dict[str, int] = {}
        for _ in range(stack_count):
            line_number = cursor + 1
            if cursor >= len(lines):
                raise InputError(
                    f"the header says {stack_count} stacks but the file ends after "
                    f"{len(stacks)} stack lines of the {part}",
                    source,
                    line_number,
                )
            line = lines[cursor]
            if line == SEPARATOR:
                raise InputError(
                    f"the header says {stack_count} stacks but the {part} has only {len(stacks)} "
                    "(an empty stack is an empty line, not a missing one)",
                    source,
                    line_number,
                )
            for block in line:
                if not ("A" <= block <= "Z"):
                    raise InputError(
                        f"{block!r} is not a block: blocks are single uppercase letters A-Z",
                        source,
                        line_number,
                    )
                if block in seen:
                    raise InputError(
                        f"block {block} appears twice in the {part} (first on line {seen[block]})",
                        source,
                        line_number,
                    )
                seen[block] = line_number
            stacks.append(line)
            cursor += 1
        return stacks, seen

    expect_separator("the header")
    start, start_lines = read_stacks("start state")
    expect_separator(f"the {stack_count} stacks of the start state (the header says {stack_count} stacks)")
    if len(start_lines) != block_count:
        raise InputError(
            f"the header says {block_count} blocks but the start state has {len(start_lines)}",
            source,
            1,
        )
    goal_first_line = cursor + 1
    goal, goal_lines = read_stacks("goal")
    for block, line_number in goal_lines.items():
        if block not in start_lines:
            raise InputError(f"block {block} is in the goal but not in the start state", source, line_number)
    missing = sorted(set(start_lines) - set(goal_lines))
    if missing:
        raise InputError(
            f"block{'s' if len(missing) > 1 else ''} {', '.join(missing)} of the start state "
            f"{'are' if len(missing) > 1 else 'is'} missing from the goal (lines {goal_first_line}-{cursor})",
            source,
            goal_first_line,
        )
    expect_separator(f"the {stack_count} stacks of the goal")
    for extra in range(cursor, len(lines)):
        if lines[extra]:
            raise InputError(
                f"unexpected text after the final separator: {_clip(lines[extra])}", source, extra + 1
            )
    return BlocksWorld(start, goal, name=Path(source).name, scramble_moves=scramble_moves)


def _parse_header(line: str, source: str) -> tuple[int, int, int]:
    fields = line.split()
    if len(fields) != 3:
        raise InputError(f"{HEADER_HELP}, got {_clip(line)}", source, 1)
    try:
        stack_count, block_count, scramble_moves = (int(field) for field in fields)
    except ValueError:
        raise InputError(f"{HEADER_HELP}, got {_clip(line)}", source, 1) from None
    if stack_count < 1:
        raise InputError(f"the number of stacks must be at least 1, got {stack_count}", source, 1)
    if not 1 <= block_count <= 26:
        raise InputError(f"the number of blocks must be between 1 and 26 (A-Z), got {block_count}", source, 1)
    if scramble_moves < -1:
        raise InputError(
            f"the number of scramble moves must be -1 (unknown) or at least 0, got {scramble_moves}", source, 1
        )
    return stack_count, block_count, scramble_moves


def format_bwp(start: Sequence[str], goal: Sequence[str], scramble_moves: int = -1) -> str:
    """``.bwp`` text for a start and a goal (LF line endings, final separator and newline)."""
    block_count = sum(len(tower) for tower in start)
    lines = [f"{len(start)} {block_count} {scramble_moves}", SEPARATOR, *start, SEPARATOR, *goal, SEPARATOR]
    return "\n".join(lines) + "\n"


def problem_to_bwp(problem: BlocksWorld) -> str:
    """Write ``problem`` back as ``.bwp`` text; parsing it gives an equal problem."""
    return format_bwp(problem.initial_state, problem.goal_state, problem.scramble_moves)


# ----- states --------------------------------------------------------------------------------

_NUMBERED_STACK = re.compile(r"^(\d+):(?: ([A-Z]*))?$")


def parse_numbered_stacks(lines: Sequence[str], problem: BlocksWorld, source: str, first_line: int) -> State:
    """The inverse of :func:`~heurist.domains.blocksworld.model.format_numbered_stacks`: ``0: CE`` lines."""
    rows = [line.rstrip() for line in lines]
    if len(rows) != problem.stack_count:
        raise InputError(
            f"this state has {len(rows)} stack lines; the instance has {problem.stack_count} stacks",
            source, first_line,
        )
    stacks = []
    for offset, row in enumerate(rows):
        match = _NUMBERED_STACK.match(row)
        if match is None or int(match.group(1)) != offset:
            raise InputError(f"expected stack {offset} as '{offset}: BLOCKS', got {row[:60]!r}", source,
                             first_line + offset)
        stacks.append(match.group(2) or "")
    state = tuple(stacks)
    if sorted("".join(state)) != sorted(problem.blocks):
        raise InputError("this state holds other blocks than the instance", source, first_line)
    return state


# ----- solution files ----------------------------------------------------------------------

SOLUTION_FORMAT = (
    "a CSCE 420 trace ('move k, pathcost=...', the stacks, '>>>>>>>>>>', ...) as 'heurist blocksworld' "
    "prints it, or bare states separated by '>>>>>>>>>>'"
)
"""What :func:`read_solution` reads, in a few words (for help texts)."""

_MOVE_HEADER = re.compile(r"^move (\d+), pathcost=")
_SUCCESS = re.compile(r"^success! .*\bcost=(\d+)")
_STATISTICS = re.compile(r"^statistics: .*\bplanlen (\S+)")
_PROGRESS = re.compile(r"^iter=\d+")


def read_solution(text: str, problem: Any, source: str) -> Solution:
    """A CSCE 420 trace: per state a ``move k, ...`` header (optional), the stacks, and ``>>>>>>>>>>``."""
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
                raise InputError(f"expected 'move {expected_move}, pathcost=...', got {_clip(line)}", source, number)
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
                raise InputError(f"{_clip(row)} is not a stack of blocks A-Z", source, first + offset)
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


def write_course_solution(
    problem: BlocksWorld, result: SearchResult, *, heuristic: Heuristic, source: str, **_: Any
) -> str:
    """The CSCE 420 program's output: the success line, the path (states with g, h and f), the statistics line.

    ``iter`` counts nodes popped from the frontier and goal-tested (the
    goal's pop included) and ``maxq`` is the largest number of states
    waiting on the frontier after an expansion: the engine's ``expansions``
    and ``max_frontier``. When the search fails the line reads ``planlen FAILED``.
    """
    stats = result.statistics
    iterations, max_queue = stats.expansions, stats.max_frontier
    lines = []
    if result.solved:
        length = result.plan_length
        lines.append(f"success! iter={iterations}, cost={result.cost}, depth={length}, max queue size={max_queue}")
        for depth, state in enumerate(result.states):
            h = heuristic(state, problem)
            lines.append(f"move {depth}, pathcost={depth}, heuristic={h}, f(n)=g(n)+h(n)={depth + h}")
            lines.append(format_stacks(state))
            lines.append(SEPARATOR)
        planlen = str(length)
    else:
        reason = "MAX_ITERS reached" if result.limit else "the goal cannot be reached from the start"
        lines.append(f"FAILED: {reason}, iter={iterations}, max queue size={max_queue}")
        planlen = "FAILED"
    lines.append(f"statistics: {source} method Astar planlen {planlen} iter {iterations} maxq {max_queue}")
    return "\n".join(lines)
