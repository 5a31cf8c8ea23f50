"""Solutions as claims, and their replay: what a solution file says, checked move by move.

A domain's solution readers turn a file into a :class:`Solution` (the states
or the moves it claims, with the line where each begins); :func:`replay`
follows it from a problem's start and reports the first step that is not
one legal move. Nothing here knows a puzzle: any problem with
``initial_state``, ``is_goal`` and ``successors`` can be replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
    note: str = ""  # how the plan was read when the file does not list it ("plan rebuilt from the final board")


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
    actions: list = field(default_factory=list)
    step_costs: list = field(default_factory=list)


def replay(problem: Any, solution: Solution) -> Replay:
    """Follow the solution from the start; stop at the first step that is not one legal move.

    A plan can be long: callers bound a replay with the run's limits
    (:func:`~heurist.search.limits.memory_guard`, the command's CPU-time alarm).
    """
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
            steps = [(cost, action) for action, child, cost in problem.successors(state) if child == after]
            if not steps:
                _illegal(result, solution, number, state, after, "not one legal move")
                return result
            cost, action = min(steps, key=lambda step: step[0])
            result.cost += cost
            result.actions.append(action)
            result.step_costs.append(cost)
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
            result.actions.append(move)
            result.step_costs.append(cost)
            result.states.append(state)
    result.ends_at_goal = bool(problem.is_goal(state))
    return result


def _illegal(result: Replay, solution: Solution, number: int, before: Any, after: Any, reason: str) -> None:
    result.legal = False
    result.illegal_step = number
    index = number if solution.states is not None else number - 1
    result.illegal_line = solution.lines[index] if index < len(solution.lines) else None
    result.before, result.after, result.reason = before, after, reason


__all__ = ["Replay", "Solution", "replay"]
