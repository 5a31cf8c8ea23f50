"""What a search problem is, as far as the algorithms are concerned.

A problem offers an initial state, a goal test and a successor function that
yields ``(action, next_state, cost)`` triples. States must be hashable and
compare by value; the algorithms never order or inspect them. Successors must
be yielded in a deterministic order: tie-breaking is FIFO, so the order of
successors is part of what makes a search reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol, TypeVar, runtime_checkable

State = TypeVar("State", bound=Hashable)
Action = Any
Transition = tuple[Action, State, float]


@runtime_checkable
class Problem(Protocol[State]):
    """The interface every domain implements."""

    @property
    def initial_state(self) -> State: ...

    def is_goal(self, state: State) -> bool: ...

    def successors(self, state: State) -> Iterable[Transition]: ...


Heuristic = Callable[[Any, Any], float]
"""A heuristic is a plain function ``h(state, problem) -> number``.

It may return ``math.inf`` to declare a dead end. A heuristic that needs
per-problem tables (a pattern database, say) may carry a ``prepare(problem)``
attribute; drivers call it once before the search clock starts and report its
time as part of ``total_time``, as Fast Downward does.
"""
