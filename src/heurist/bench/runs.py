"""One benchmark run: a configuration on an instance, executed in its own process.

:func:`execute` is what every executor calls, locally or on a Dask worker. It
runs heurist's search in a fresh child process (forked from a server that has
heurist imported already, so starting one costs milliseconds) and waits at most
``kill_after`` wall-clock seconds. A run that raises, dies or hangs is recorded
as ``crashed`` or ``killed`` and the bench goes on. Planners are external
programs already; :mod:`heurist.bench.planners` runs them as such.

A result row is a flat dictionary with Downward Lab attribute names
(``coverage``, ``cost``, ``expansions``, ``generated``, ``search_time``...)
plus the run's identity (``suite``, ``problem``, ``config``) and its limits.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from dataclasses import dataclass
from typing import Any

from heurist.bench.suites import Instance
from heurist.search import Limits, Statistics

CRASHED = "crashed"
KILLED = "killed"
INTERRUPTED = "interrupted"
"""A run stopped by Ctrl-C: never recorded, so that ``--resume`` runs it again."""

UNINFORMED = ("bfs", "dfs", "ucs")
"""Algorithms that ignore the heuristic: one configuration each, heuristic ``-``."""


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
            max_expansions=self.max_expansions, time_limit=self.time_limit, memory_limit=self.memory_limit
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


def search_row(task: Task, settings: Settings) -> dict[str, Any]:
    """Load the instance and search it in this process; the row of the outcome."""
    from heurist.domains import get_domain
    from heurist.search import search, zero_heuristic

    instance, config = task.instance, task.config
    domain = get_domain(instance.domain)
    problem = domain.load(instance.path, instance.options())
    registry = getattr(problem, "heuristics", domain.heuristics)
    heuristic = zero_heuristic if config.heuristic == "-" else registry.resolve(config.heuristic)
    result = search(problem, config.algorithm, heuristic, weight=config.weight, limits=settings.limits())
    row = empty_row(task, settings)
    summary = result.summary()
    summary.pop("algorithm")
    for name in ("search_time", "total_time"):
        summary[name] = round(summary[name], 6)
    row.update(summary)
    return row


def run_here(task: Task, settings: Settings) -> dict[str, Any]:
    """Run ``task`` in this process; any exception becomes a ``crashed`` row."""
    started = time.perf_counter()
    try:
        row = search_row(task, settings)
    except MemoryError:
        row = empty_row(task, settings)
        row.update(status="limit reached", limit="memory", error="MemoryError")
    except KeyboardInterrupt:
        row = empty_row(task, settings)
        row.update(status=INTERRUPTED)
    except Exception as error:  # recorded, never raised: the bench must go on
        row = empty_row(task, settings)
        row.update(status=CRASHED, error=_describe(error))
    row["wall_time"] = round(time.perf_counter() - started, 4)
    return row


def _child(task: Task, settings: Settings, connection) -> None:
    connection.send(run_here(task, settings))
    connection.close()


def _describe(error: BaseException) -> str:
    last = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
    return f"{type(error).__name__}: {error}{where}"


_CONTEXT = None


def _context():
    """The forkserver context, with heurist's domains imported once in the server."""
    global _CONTEXT
    if _CONTEXT is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["heurist.bench.preload"])
        _CONTEXT = context
    return _CONTEXT


def execute(task: Task, settings: Settings) -> dict[str, Any]:
    """Run ``task`` under ``settings`` and return its row, whatever happens to the run."""
    if task.config.planner:
        from heurist.bench.planners import run_planner

        return run_planner(task, settings)
    if multiprocessing.current_process().daemon:
        # Daemonic processes (e.g. some Dask worker set-ups) may not start children:
        # run here; the search limits still apply, the hard kill does not.
        return run_here(task, settings)
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(task, settings, sender), daemon=True)
    started = time.perf_counter()
    process.start()
    sender.close()
    row = None
    killed = False
    try:
        if receiver.poll(settings.kill_after):
            try:
                row = receiver.recv()
            except EOFError:  # the child died without reporting
                row = None
    finally:
        if process.is_alive():
            killed = row is None
            process.kill()
        process.join()
        receiver.close()
    if row is None:
        row = empty_row(task, settings)
        elapsed = time.perf_counter() - started
        if killed:
            row.update(status=KILLED, error=f"no result after {settings.kill_after:g} s wall-clock; killed")
        else:
            row.update(status=CRASHED, error=f"the run's process ended with exit code {process.exitcode}")
        row["wall_time"] = round(elapsed, 4)
    return row

