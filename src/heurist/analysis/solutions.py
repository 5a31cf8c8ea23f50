"""A solution file's plan, replayed for drawing (``heurist render --plan``).

Domains read their solution files into a :class:`~heurist.search.solutions.Solution`;
:func:`read_plan` accepts only a legal plan from the instance's start and
names the first line where that fails.
"""

from __future__ import annotations

from typing import Any

from heurist.errors import InputError, read_text
from heurist.search.solutions import Replay, replay


def read_plan(domain: Any, problem: Any, path: str) -> Replay:
    """The plan in a solution file, replayed from the instance's start; anything else is an input error.

    For drawing a plan (``heurist render --plan``): unlike ``validate``, which
    reports what is wrong with a solution, this accepts only a legal plan that
    starts at the instance, and names the first line where that fails.
    """
    solution = domain.read_solution(read_text(path), problem, path)
    if solution.unsolvable:
        raise InputError("the solution claims there is none: there is no plan to draw", path, 1)
    result = replay(problem, solution)
    if not result.starts_at_instance:
        first_line = solution.lines[0] if solution.lines else 1
        raise InputError("the solution's first state is not the instance's start", path, first_line)
    if not result.legal:
        raise InputError(f"step {result.illegal_step} is not legal: {result.reason}", path, result.illegal_line)
    return result
