"""The grid (instances x configurations), its executors and the results file that makes it resumable.

Rows are appended to ``runs.jsonl`` as runs finish, one JSON object a line,
flushed each time: an interrupted bench loses at most the runs in flight, and
``--resume`` skips every run found there. The final rows are sorted by grid
position, so the output does not depend on which run finished first.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from heurist.bench.processes import allow_runs, stop_all_runs
from heurist.bench.runs import execute
from heurist.bench.schema import Config, RunStatus, Settings, Task
from heurist.bench.suites import Instance
from heurist.domains import get_domain
from heurist.errors import InputError
from heurist.files import cannot_write

RUNS_FILE = "runs.jsonl"


def is_user_heuristic(name: str) -> bool:
    """``path/to/file.py:function`` or ``package.module:function``: a heuristic of the user's own."""
    return ":" in name


def heuristic_names(domain: str, requested: list[str] | None) -> list[str]:
    """The heuristics of ``domain`` to run: all built-in ones (``None`` or ``["all"]``), ``default``,
    or the requested names this domain knows (aliases resolved), and the user's own
    (``file.py:function``); the same built-in function is run once.
    """
    registry = get_domain(domain).heuristics
    if requested is None or requested == ["all"]:
        names = registry.names()
    else:
        names = []
        for name in requested:
            if name == "default":
                names.append(get_domain(domain).default_heuristic)
            elif is_user_heuristic(name):
                names.append(name)
            elif name in registry:
                names.append(next(known for known in registry.names() if registry[known] is registry[name]))
    unique: list[str] = []
    for name in names:
        if name in unique:
            continue
        built_in = not is_user_heuristic(name)
        if built_in and any(not is_user_heuristic(seen) and registry[seen] is registry[name] for seen in unique):
            continue
        unique.append(name)
    return unique


def build_grid(
    instances: list[Instance],
    algorithms: list[str],
    heuristics: list[str] | None,
    weight: float = 2.0,
    planners: Iterable[str] = (),
) -> list[Task]:
    """Every (instance, configuration) pair, instances in suite order, configurations in option order.

    Uninformed algorithms (bfs, dfs, ucs) run once per instance; planners run
    on the instances of domains that export PDDL.
    """
    from heurist.bench.planners import pddl_exporter

    if heuristics not in (None, ["all"]):
        domains = {instance.domain for instance in instances}
        for name in heuristics:
            if is_user_heuristic(name):
                if len(domains) != 1:
                    raise InputError(
                        f"a heuristic of your own ({name}) runs on the suites of one domain; "
                        f"these are of {', '.join(sorted(domains)) or 'none'}",
                        "--heuristics",
                    )
                (only,) = domains
                get_domain(only).heuristics.resolve(name)  # a bad file is reported before any run
            elif name != "default" and not any(name in get_domain(domain).heuristics for domain in domains):
                raise InputError(
                    f"no benchmarked domain ({', '.join(sorted(domains))}) has a heuristic {name!r}", "--heuristics"
                )
    planners = list(planners)
    configs_by_domain: dict[str, list[Config]] = {}
    tasks: list[Task] = []
    for instance in instances:
        if instance.domain not in configs_by_domain:
            configs: list[Config] = []
            names = heuristic_names(instance.domain, heuristics)
            for algorithm in algorithms:
                if algorithm in ("bfs", "dfs", "ucs"):
                    configs.append(Config(algorithm, "-", weight))
                else:
                    configs.extend(Config(algorithm, name, weight) for name in names)
            if pddl_exporter(instance.domain) is not None:
                configs.extend(Config(algorithm="-", planner=planner) for planner in planners)
            configs_by_domain[instance.domain] = configs
        for config in configs_by_domain[instance.domain]:
            tasks.append(Task(len(tasks), instance, config))
    return tasks


def row_key(row: dict[str, Any]) -> tuple[str, str, str]:
    """(suite, problem, config): what identifies a run across a resume."""
    return (row["suite"], row["problem"], row["config"])


def read_runs(directory: Path, settings: Settings) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Rows already in ``directory/runs.jsonl``, by run; an unfinished last line is ignored.

    Rows made with other limits are refused: mixing them would make the tables lie.
    """
    path = directory / RUNS_FILE
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    if not path.exists():
        return rows
    expected = settings.as_row()
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", path) from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            key = row_key(row)
        except (json.JSONDecodeError, KeyError, TypeError):
            continue  # a line cut short by the interruption: that run is done again
        recorded = {name: row.get(name) for name in expected}
        if recorded != expected:
            raise InputError(
                f"recorded with other limits ({_limits_text(recorded)}; now {_limits_text(expected)}): "
                "resume with the same limits, or write to another --out",
                path, number,
            )
        rows[key] = row
    return rows


def _limits_text(limits: dict[str, Any]) -> str:
    return ", ".join(f"{name}={value}" for name, value in limits.items())


class RunLog:
    """Appends finished rows to ``runs.jsonl``, each flushed to disk at once."""

    def __init__(self, directory: Path, fresh: bool):
        self.path = directory / RUNS_FILE
        try:
            directory.mkdir(parents=True, exist_ok=True)
            cut_short = not fresh and self.path.exists() and not self.path.read_bytes().endswith(b"\n")
            if cut_short and self.path.stat().st_size == 0:
                cut_short = False
            self.stream = open(self.path, "w" if fresh else "a", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise InputError(f"cannot write: {error.strerror}", self.path) from None
        if cut_short:  # an interrupted write: start the next row on a line of its own
            self.stream.write("\n")

    def append(self, row: dict[str, Any]) -> None:
        try:
            self.stream.write(json.dumps(row, default=str) + "\n")
            self.stream.flush()
            os.fsync(self.stream.fileno())
        except OSError as error:
            raise cannot_write(self.path, error) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):  # a failed row was reported already; its bytes cannot be written
            self.stream.close()


def run_local(tasks: list[Task], settings: Settings, jobs: int) -> Iterator[tuple[Task, dict[str, Any]]]:
    """Run the tasks ``jobs`` at a time on this machine; yields (task, row) as they finish.

    Threads only dispatch: each search runs in its own process (see :func:`execute`).
    """
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(execute, task, settings): task for task in tasks}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            stop_all_runs()  # the runs going on end now, not at their limits
            raise


def dask_client(scheduler: str | Any) -> tuple[Any, bool]:
    """A connected Dask client for ``scheduler`` (an address, or a ``Client`` already), and whether
    it is ours to close."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError("Dask is not installed; install it with: pip install 'heurist[dask]'", "--executor") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout=30), True
    except OSError as error:
        raise InputError(f"cannot reach the Dask scheduler: {error}", "--scheduler") from None


def run_dask(tasks: list[Task], settings: Settings, client: Any) -> Iterator[tuple[Task, dict[str, Any]]]:
    """Run the tasks on the Dask cluster of ``client``; yields (task, row) as they finish."""
    from dask.distributed import as_completed as dask_as_completed

    futures = {
        client.submit(execute, task, settings, pure=False, key=f"heurist-bench-{task.index}-{os.getpid()}"): task
        for task in tasks
    }
    for future in dask_as_completed(futures):
        yield futures[future], future.result()


def run_grid(
    tasks: list[Task],
    settings: Settings,
    directory: Path,
    *,
    resume: bool = False,
    executor: str = "local",
    jobs: int | None = None,
    scheduler: str | Any | None = None,
    progress: Callable[[Task, dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run every task not already recorded (with ``resume``); return all rows in grid order."""
    allow_runs()
    done = read_runs(directory, settings) if resume else {}
    order = {task.key: task.index for task in tasks}
    pending = [task for task in tasks if task.key not in done]
    client, own_client = None, False
    if executor == "dask":  # connect before anything is written
        if scheduler is None:
            raise InputError("the dask executor needs --scheduler ADDRESS", "--executor")
        client, own_client = dask_client(scheduler)
    log = RunLog(directory, fresh=not resume)
    rows = [row for key, row in done.items() if key in order]
    try:
        if client is not None:
            finished = run_dask(pending, settings, client)
        else:
            finished = run_local(pending, settings, jobs or os.cpu_count() or 1)
        for task, row in finished:
            if row.get("status") == RunStatus.INTERRUPTED:
                continue
            log.append(row)
            rows.append(row)
            if progress is not None:
                progress(task, row)
    finally:
        log.close()
        if own_client:
            client.close()
    return sorted(rows, key=lambda row: order[row_key(row)])
