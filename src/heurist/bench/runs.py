"""One benchmark run: a configuration on an instance, executed in its own process.

:func:`execute` is what every executor calls, locally or on a Dask worker. It
runs heurist's search in a fresh child process (forked from a server that has
heurist imported already, so starting one costs milliseconds) and waits at most
``kill_after`` wall-clock seconds. A run that raises, dies or hangs is recorded
as ``crashed`` or ``killed`` and the bench goes on. Planners are external
programs already; :mod:`heurist.bench.planners` runs them as such.

The row's columns and statuses, :class:`~heurist.bench.schema.Task` and
:class:`~heurist.bench.schema.Settings` are defined in :mod:`heurist.bench.schema`.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from typing import Any

from heurist.bench.processes import track, untrack
from heurist.bench.schema import RunStatus, Settings, Task, empty_row

UNINFORMED = ("bfs", "dfs", "ucs")
"""Algorithms that ignore the heuristic: one configuration each, heuristic ``-``."""


def search_row(task: Task, settings: Settings) -> dict[str, Any]:
    """Load the instance and search it in this process; the row of the outcome."""
    from heurist.domains import get_domain
    from heurist.search import search, zero_heuristic

    instance, config = task.instance, task.config
    domain = get_domain(instance.domain)
    problem = domain.load(instance.path, **instance.options(domain))
    heuristic = zero_heuristic if config.heuristic == "-" else domain.heuristics.resolve(config.heuristic)
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
        row.update(status=RunStatus.LIMIT_REACHED.value, limit="memory", error="MemoryError")
    except KeyboardInterrupt:
        row = empty_row(task, settings)
        row.update(status=RunStatus.INTERRUPTED.value)
    except Exception as error:  # recorded, never raised: the bench must go on
        row = empty_row(task, settings)
        row.update(status=RunStatus.CRASHED.value, error=_describe(error))
    row["wall_time"] = round(time.perf_counter() - started, 4)
    return row


def _child(task: Task, settings: Settings, connection) -> None:
    row = run_here(task, settings)
    try:
        connection.send(row)
        connection.close()
    except OSError:  # the bench went away (SIGTERM, Ctrl-C): nobody waits for this row
        pass


def _describe(error: BaseException) -> str:
    last = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
    return f"{type(error).__name__}: {error}{where}"


_CONTEXT = None


MAX_WAIT = 20 * 24 * 3600.0
"""Under the longest wait the pipe's poll accepts (about 24.8 days, in milliseconds in a C int)."""


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
    track(process)
    sender.close()
    row = None
    killed = False
    try:
        if receiver.poll(None if settings.kill_after is None else min(settings.kill_after, MAX_WAIT)):
            try:
                row = receiver.recv()
            except EOFError:  # the child died without reporting
                row = None
    finally:
        untrack(process)
        if process.is_alive():
            killed = row is None
            process.kill()
        process.join()
        receiver.close()
    if row is None:
        row = empty_row(task, settings)
        elapsed = time.perf_counter() - started
        if killed:
            error = f"no result after {settings.kill_after:g} s wall-clock; killed"
            row.update(status=RunStatus.KILLED.value, error=error)
        else:
            error = f"the run's process ended with exit code {process.exitcode}"
            row.update(status=RunStatus.CRASHED.value, error=error)
        row["wall_time"] = round(elapsed, 4)
    return row

