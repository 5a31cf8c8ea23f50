"""Blocks World solution files read back: the CSCE 420 trace.

Per state a ``move k, pathcost=...`` header (optional), the stacks and
``>>>>>>>>>>``, then the success and ``statistics:`` lines, as ``heurist
blocksworld`` prints them; bare states separated by ``>>>>>>>>>>`` are read
too. :func:`read_solution` is the domain's ``read_solution`` hook, used by
``heurist validate`` and ``heurist render --plan``.
"""

from __future__ import annotations

import re
from typing import Any

from heurist.domains.blocksworld.formats import SEPARATOR
from heurist.errors import InputError
from heurist.search.solutions import Solution

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
