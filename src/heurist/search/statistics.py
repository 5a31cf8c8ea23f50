"""Search outcomes and statistics, named as Fast Downward and Downward Lab name them.

* ``expansions``: nodes taken from the frontier and expanded; the goal node counts.
* ``generated``: successors created, duplicates included.
* ``evaluated``: distinct states whose heuristic value was computed.
* ``evaluations``: heuristic calls (IDA* re-evaluates states, so this can exceed ``evaluated``).
* ``reopened``: closed states put back on the frontier after a cheaper path was found.
* ``dead_ends``: states pruned because the heuristic returned infinity.
* ``max_frontier``: the largest number of states waiting on the frontier at once.
* ``expansions_until_last_jump``: expansions before the last f-layer began (best-first searches).
* ``search_time``: CPU seconds spent searching; ``total_time`` adds heuristic preparation.
* ``memory``: peak resident memory of the process in KiB.
"""

from __future__ import annotations

import enum
import json
from dataclasses import asdict, dataclass, field
from typing import Any


class Status(str, enum.Enum):
    """How a search ended."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # the reachable space was exhausted without a goal
    LIMIT_REACHED = "limit reached"  # a time, expansion or memory limit stopped the search
    INTERRUPTED = "interrupted"  # SIGINT or SIGTERM stopped the search


@dataclass
class Statistics:
    expansions: int = 0
    generated: int = 0
    evaluated: int = 0
    evaluations: int = 0
    reopened: int = 0
    dead_ends: int = 0
    max_frontier: int = 0
    expansions_until_last_jump: int = 0
    initial_h_value: float | None = None
    search_time: float = 0.0
    total_time: float = 0.0
    memory: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SearchResult:
    """The outcome of one search: status, plan and statistics.

    ``states`` holds the states along the plan, the initial state first, so
    ``len(states) == len(actions) + 1`` for a solved search.
    """

    status: Status
    algorithm: str
    actions: list[Any] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    cost: float | None = None
    statistics: Statistics = field(default_factory=Statistics)
    limit: str | None = None  # which limit ended the search, if any
    problem: Any = field(default=None, repr=False, compare=False)
    """The problem searched (set by :func:`heurist.search.search`), so that the plan can be drawn."""

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED

    @property
    def plan_length(self) -> int | None:
        return len(self.actions) if self.solved else None

    def __repr__(self) -> str:
        """The outcome in one line; the plan itself is in ``actions`` and ``states`` (a domain formats them)."""
        outcome = self.status.value + (f" ({self.limit} limit)" if self.limit else "")
        if self.solved:
            moves = len(self.actions)
            outcome += f", cost {self.cost:g}, {moves:,} move{'' if moves == 1 else 's'}"
        return f"<SearchResult {self.algorithm}: {outcome}, {self.statistics.expansions:,} expansions>"

    def picture(self, index: int = -1) -> Any:
        """State ``index`` of the plan (default: the last) drawn by the problem's domain, the move into it
        marked; notebooks show it as SVG. Needs a problem that can draw itself (every heurist domain's)."""
        draw = getattr(self.problem, "plan_picture", None)
        if draw is None:
            raise TypeError("this result's problem cannot draw itself: give the domain the states to draw")
        return draw(self.states if self.states else [self.problem.initial_state], index)

    def pictures(self) -> list[Any]:
        """Every state of the plan, the start first, as :meth:`picture` draws it."""
        return [self.picture(index) for index in range(max(1, len(self.states)))]

    def _repr_svg_(self) -> str | None:
        """The plan's last state (the start when there is no plan), where the problem can draw itself."""
        if getattr(self.problem, "plan_picture", None) is None:
            return None
        return self.picture()._repr_svg_()

    def _repr_html_(self) -> str:
        """The outcome and statistics as a table, for notebooks."""
        from html import escape

        rows = "".join(
            f"<tr><th style='text-align:left'>{escape(name)}</th><td>{escape(str(value))}</td></tr>"
            for name, value in self.summary().items() if value is not None
        )
        return f"<table>{rows}</table>"

    def summary(self) -> dict[str, Any]:
        """A flat dictionary with Lab attribute names, ready for JSON or CSV."""
        row: dict[str, Any] = {
            "algorithm": self.algorithm,
            "status": self.status.value,
            "limit": self.limit,
            "coverage": int(self.solved),
            "cost": self.cost,
            "plan_length": self.plan_length,
        }
        row.update(self.statistics.as_dict())
        return row


def format_statistics(result: SearchResult) -> str:
    """The status, cost and statistics as ``name: value`` lines (``heurist solve``'s last lines)."""
    stats = result.statistics
    lines = [f"status: {result.status.value}" + (f" ({result.limit} limit)" if result.limit else "")]
    if result.solved:
        lines += [f"cost: {result.cost}", f"plan_length: {result.plan_length}"]
    h0 = stats.initial_h_value
    lines += [
        f"algorithm: {result.algorithm}",
        f"expansions: {stats.expansions}",
        f"generated: {stats.generated}",
        f"evaluated: {stats.evaluated}",
        f"reopened: {stats.reopened}",
        f"max_frontier: {stats.max_frontier}",
        f"expansions_until_last_jump: {stats.expansions_until_last_jump}",
        f"initial_h_value: {'-' if h0 is None else h0}",
        f"search_time: {stats.search_time:.4f}s",
        f"total_time: {stats.total_time:.4f}s",
        f"memory: {stats.memory} KiB",
    ]
    return "\n".join(lines)


def result_as_json(result: SearchResult, plan: list[dict[str, Any]], **extra: Any) -> str:
    """``extra`` (domain, instance...), the outcome, the plan and the statistics as a JSON document.

    Times are rounded to microseconds: the digits beyond are clock noise.
    """
    statistics = {
        name: round(value, 6) if isinstance(value, float) else value
        for name, value in result.statistics.as_dict().items()
    }
    outcome = {name: value for name, value in result.summary().items() if name not in statistics}
    document = {**extra, **outcome, "plan": plan, "statistics": statistics}
    return json.dumps(document, indent=2, default=str)
