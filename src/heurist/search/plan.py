"""Turning parent pointers into a plan, and finishing a result. Shared by every algorithm."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from heurist.search.limits import INTERRUPTED, LimitWatch, peak_rss_kib
from heurist.search.statistics import SearchResult, Statistics, Status


def extract_plan(
    parents: dict, goal: Hashable, offset: int = 0
) -> tuple[list[Any], list[Hashable], float]:
    """Follow parent links back from ``goal``: returns (actions, states, cost).

    ``parents[s][offset:offset + 3]`` is ``(previous_state, action, step_cost)``,
    with ``previous_state`` None for the initial state.
    """
    actions: list[Any] = []
    states: list[Hashable] = [goal]
    cost = 0.0
    state = goal
    while True:
        previous, action, step = parents[state][offset : offset + 3]
        if previous is None:
            break
        actions.append(action)
        states.append(previous)
        cost += step
        state = previous
    actions.reverse()
    states.reverse()
    return actions, states, cost


def finish(
    algorithm: str,
    status: Status,
    statistics: Statistics,
    watch: LimitWatch,
    *,
    actions: list[Any] | None = None,
    states: list[Hashable] | None = None,
    cost: float | None = None,
    limit: str | None = None,
) -> SearchResult:
    """Stamp time and memory on the statistics and build the result.

    ``limit="interrupted"`` (what :meth:`LimitWatch.check` returns after a
    signal) gives status ``interrupted`` and no limit.
    """
    watch.finished()
    if limit == INTERRUPTED:
        status, limit = Status.INTERRUPTED, None
    statistics.search_time = watch.elapsed()
    statistics.total_time = max(statistics.total_time, statistics.search_time)
    statistics.memory = peak_rss_kib()
    if cost is not None and float(cost).is_integer():
        cost = int(cost)
    return SearchResult(
        status=status,
        algorithm=algorithm,
        actions=actions or [],
        states=states or [],
        cost=cost,
        statistics=statistics,
        limit=limit,
    )

