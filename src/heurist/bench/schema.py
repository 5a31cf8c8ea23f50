"""The bench's data: what a run is (:class:`Task`), its limits and its result row.

A leaf module, importing nothing else from the bench but the instances of
:mod:`heurist.bench.suites`: the modules that produce rows (runs, planners)
and those that read them (grid, report, the command line) all import it, and
so never each other just for these names.

A result row is a flat dictionary with Downward Lab attribute names
(``coverage``, ``cost``, ``expansions``, ``generated``, ``search_time``...)
plus the run's identity (``suite``, ``problem``, ``config``) and its limits.
Its ``status`` is the plain string value of a :class:`RunStatus`, so rows
written to and read back from ``runs.jsonl`` are alike and compare equal to
the members.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from heurist.bench.suites import Instance
from heurist.search import Limits, Statistics, Status


class RunStatus(str, enum.Enum):
    """How a run ended: the ``status`` column of a row.

    The first three are the search's own outcomes (:class:`heurist.search.Status`);
    the others are the bench's.
    """

    SOLVED = Status.SOLVED.value
    UNSOLVABLE = Status.UNSOLVABLE.value
    LIMIT_REACHED = Status.LIMIT_REACHED.value  # ``limit`` says which one
    UNSOLVED = "unsolved"  # a planner's incomplete search ended without a plan
    CRASHED = "crashed"  # the run raised, its process died, or a planner failed
    KILLED = "killed"  # still going after ``kill_after`` wall-clock seconds
    INTERRUPTED = "interrupted"  # stopped by Ctrl-C: never recorded, so ``--resume`` runs it again


@dataclass(frozen=True)
class Config:
    """What to run: heurist's ``algorithm`` with ``heuristic``, or an external ``planner``."""

    algorithm: str = "astar"
    heuristic: str = "-"
    weight: float = 2.0
    planner: str | None = None

    @property
    def name(self) -> str:
        if self.planner:
            return self.planner
        algorithm = f"wastar{self.weight:g}" if self.algorithm == "wastar" else self.algorithm
        return algorithm if self.heuristic == "-" else f"{algorithm}-{self.heuristic}"

    @property
    def system(self) -> str:
        return self.planner.split("-", 1)[0] if self.planner else "heurist"


@dataclass(frozen=True)
class Settings:
    """Per-run limits: ``limits`` end a search cleanly; ``kill_after`` ends the process."""

    time_limit: float | None = None
    max_expansions: int | None = None
    memory_limit: float | None = None
    kill_after: float | None = None

    def limits(self) -> Limits:
        return Limits(
            max_expansions=self.max_expansions, time_limit=self.time_limit,
            memory_limit=self.memory_limit,
        )

    def as_row(self) -> dict[str, Any]:
        return {
            "time_limit": self.time_limit,
            "max_expansions_limit": self.max_expansions,
            "memory_limit": self.memory_limit,
        }


@dataclass(frozen=True)
class Task:
    """One cell of the grid; ``index`` orders the result rows."""

    index: int
    instance: Instance
    config: Config

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.instance.suite, self.instance.name, self.config.name)


ROW_FIELDS = [
    "suite", "domain", "problem", "config", "system", "algorithm", "heuristic", "weight",
    "status", "limit", "coverage", "cost", "plan_length",
    *Statistics.__dataclass_fields__,
    "wall_time", "error", "time_limit", "max_expansions_limit", "memory_limit",
]
"""Columns of results.csv, in order."""


def empty_row(task: Task, settings: Settings) -> dict[str, Any]:
    """The row of ``task`` with its identity and limits filled in and no outcome yet."""
    config = task.config
    row: dict[str, Any] = dict.fromkeys(ROW_FIELDS)
    row.update(
        suite=task.instance.suite,
        domain=task.instance.domain,
        problem=task.instance.name,
        config=config.name,
        system=config.system,
        algorithm=config.algorithm,
        heuristic=config.heuristic,
        weight=config.weight if config.algorithm == "wastar" else None,
        coverage=0,
        **settings.as_row(),
    )
    return row
