"""Klotski solution files read back: the CSC384 output of every variant.

V1 (``Cost of the solution: N`` then digit boards), V2/V3 (character boards
separated by blank lines), or ``No solution``. :func:`read_solution` is the
domain's ``read_solution`` hook, used by ``heurist validate`` and
``heurist render --plan``; :func:`heurist.search.solutions.replay` checks
the result against the instance.
"""

from __future__ import annotations

import re
from typing import Any

from heurist.domains.klotski.board import SHAPES
from heurist.domains.klotski.formats import V1, V2, parse_solution
from heurist.errors import InputError
from heurist.search.solutions import Solution

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
