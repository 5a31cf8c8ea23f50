"""Classical planners side by side: Fast Downward and pyperplan on exported PDDL.

Both come with the optional extra ``pip install heurist[planners]`` (the PyPI
packages ``up-fast-downward`` and ``pyperplan``). Each run exports the
instance to PDDL (the domain's ``export_pddl``, e.g. Blocks World's labelled
stacks), then runs the planner as a separate process in its own temporary
working directory: Fast Downward's driver writes ``output.sas`` and ``sas_plan``
in the current directory, so concurrent runs must not share one.

From the logs: Fast Downward's ``Expanded``, ``Generated``, ``Evaluated``,
``Reopened``, ``Expanded until last jump``, ``Plan cost``, ``Search time``,
``Total time`` and ``Peak memory``; pyperplan's ``Nodes expanded``, ``Plan
length`` and ``Search time`` (it reports nothing else). Fast Downward's exit
codes (``driver/returncodes.py``): 0 solved, 10/11 proved unsolvable,
12 incomplete search failed, 20-24 out of memory or time, 30+ errors; 232
(``sys.exit(-SIGXCPU)``) when a component was stopped at the CPU-time limit.

Limits: Fast Downward gets ``--overall-time-limit`` and
``--overall-memory-limit`` (its driver sets RLIMIT_CPU and RLIMIT_AS);
pyperplan has no options for them, so the same resource limits are set on
its process here. Both count CPU seconds, translation and grounding included,
in whole seconds rounded up.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heurist.bench.processes import kill, track, untrack
from heurist.bench.schema import RunStatus, Settings, Task, empty_row
from heurist.errors import InputError

INSTALL_HINT = "install the planners with: pip install 'heurist[planners]' (up-fast-downward and pyperplan)"


@dataclass(frozen=True)
class Planner:
    """A planner configuration: ``arguments`` go between the PDDL files' command and search options."""

    name: str
    program: str  # "fd" or "pyperplan"
    arguments: tuple[str, ...]
    optimal: bool
    summary: str

    @property
    def algorithm(self) -> str:
        return self.name.split("-", 1)[1]


PLANNERS: dict[str, Planner] = {
    planner.name: planner
    for planner in [
        Planner("fd-lmcut", "fd", ("--search", "astar(lmcut())"), True, "Fast Downward astar(lmcut())"),
        Planner("fd-blind", "fd", ("--search", "astar(blind())"), True, "Fast Downward astar(blind())"),
        Planner("fd-hmax", "fd", ("--search", "astar(hmax())"), True, "Fast Downward astar(hmax())"),
        Planner("fd-ipdb", "fd", ("--search", "astar(ipdb())"), True, "Fast Downward astar(ipdb())"),
        Planner(
            "fd-ff", "fd", ("--search", "lazy_greedy([ff()], preferred=[ff()])"), False,
            "Fast Downward lazy_greedy([ff()], preferred=[ff()])",
        ),
        Planner("fd-lama-first", "fd", ("--alias", "lama-first"), False, "Fast Downward --alias lama-first"),
        Planner("pyperplan-lmcut", "pyperplan", ("-s", "astar", "-H", "lmcut"), True, "pyperplan -s astar -H lmcut"),
        Planner("pyperplan-blind", "pyperplan", ("-s", "astar", "-H", "blind"), True, "pyperplan -s astar -H blind"),
        Planner("pyperplan-hmax", "pyperplan", ("-s", "astar", "-H", "hmax"), True, "pyperplan -s astar -H hmax"),
        Planner("pyperplan-bfs", "pyperplan", ("-s", "bfs",), True, "pyperplan -s bfs"),
        Planner("pyperplan-hff", "pyperplan", ("-s", "gbf", "-H", "hff"), False, "pyperplan -s gbf -H hff"),
    ]
}
"""Planner configurations by the name ``--planners`` takes."""


def fast_downward_script() -> Path | None:
    """``fast-downward.py`` inside the installed up-fast-downward package, if any.

    Found without importing the package (its ``__init__`` needs unified-planning).
    """
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        script = Path(location) / "downward" / "fast-downward.py"
        if script.is_file():
            return script
    return None


def pyperplan_available() -> bool:
    return importlib.util.find_spec("pyperplan") is not None


def check_planners(names: list[str], domains: set[str]) -> list[Planner]:
    """The planners named, after checking they exist, are installed and can read these domains."""
    planners = []
    for name in names:
        if name not in PLANNERS:
            raise InputError(f"unknown planner {name!r}; choose from {', '.join(PLANNERS)}", "--planners")
        planner = PLANNERS[name]
        if planner.program == "fd" and fast_downward_script() is None:
            raise InputError(f"{name}: Fast Downward is not installed; {INSTALL_HINT}", "--planners")
        if planner.program == "pyperplan" and not pyperplan_available():
            raise InputError(f"{name}: pyperplan is not installed; {INSTALL_HINT}", "--planners")
        planners.append(planner)
    if planners and not any(pddl_exporter(domain) for domain in domains):
        raise InputError(
            f"no PDDL export for the domains benchmarked ({', '.join(sorted(domains))}); "
            "planners run on blocksworld suites", "--planners",
        )
    return planners


def pddl_exporter(domain: str):
    """The domain's ``export_pddl(path) -> {file name: text}``, or None if it has none."""
    from heurist.domains import get_domain

    found = get_domain(domain)
    return found.export_pddl if found.exports_pddl else None


def command(planner: Planner, domain_file: str, problem_file: str, settings: Settings) -> list[str]:
    """The planner's command line, run in the directory holding the two PDDL files."""
    if planner.program == "fd":
        limits = []
        if settings.time_limit is not None:
            limits += ["--overall-time-limit", f"{max(1, math.ceil(settings.time_limit))}s"]
        if settings.memory_limit is not None:
            limits += ["--overall-memory-limit", f"{max(1, math.ceil(settings.memory_limit))}M"]
        script = str(fast_downward_script())
        if planner.arguments[0] == "--alias":
            return [sys.executable, script, *limits, *planner.arguments, domain_file, problem_file]
        return [sys.executable, script, *limits, domain_file, problem_file, *planner.arguments]
    return [sys.executable, "-m", "pyperplan", *planner.arguments, domain_file, problem_file]


def _number(pattern: str, log: str, kind=int):
    matches = re.findall(pattern, log, re.MULTILINE)
    return kind(matches[-1]) if matches else None


def parse_fast_downward(log: str, exit_code: int) -> dict[str, Any]:
    """Statistics and status from a Fast Downward log and its driver's exit code."""
    row: dict[str, Any] = {
        "expansions": _number(r"\] Expanded (\d+) state", log),
        "generated": _number(r"\] Generated (\d+) state", log),
        "evaluated": _number(r"\] Evaluated (\d+) state", log),
        "evaluations": _number(r"\] Evaluations: (\d+)", log),
        "reopened": _number(r"\] Reopened (\d+) state", log),
        "dead_ends": _number(r"\] Dead ends: (\d+) state", log),
        "expansions_until_last_jump": _number(r"\] Expanded until last jump: (\d+)", log),
        "initial_h_value": _number(r"Initial heuristic value for [^:]+: (\d+)", log, float),
        "search_time": _number(r"\] Search time: ([\d.]+)s", log, float),
        "total_time": _number(r"\] Total time: ([\d.]+)s", log, float),
        "memory": _number(r"Peak memory: (\d+) KB", log),
    }
    if exit_code in (0, 1, 2, 3):  # 1-3: a plan was found before a limit ended an anytime search
        cost = _number(r"\] Plan cost: (\d+)", log)
        length = _number(r"\] Plan length: (\d+) step", log)
        row.update(status=RunStatus.SOLVED.value, coverage=1, cost=cost, plan_length=length)
    elif exit_code in (10, 11):
        row.update(status=RunStatus.UNSOLVABLE.value)
    elif exit_code == 12:
        row.update(status=RunStatus.UNSOLVED.value, error="search incomplete: no plan found")
    elif exit_code in (20, 22):
        row.update(status=RunStatus.LIMIT_REACHED.value, limit="memory")
    elif exit_code in (21, 23):
        row.update(status=RunStatus.LIMIT_REACHED.value, limit="time")
    elif exit_code == 24:
        row.update(status=RunStatus.LIMIT_REACHED.value, limit="memory and time")
    elif exit_code in _CPU_LIMIT_SIGNALS:  # a component (often the translator) killed at the CPU limit
        row.update(status=RunStatus.LIMIT_REACHED.value, limit="time")
    else:
        row.update(status=RunStatus.CRASHED.value, error=f"exit code {exit_code}: {_failure_line(log)}")
    return row


_CPU_LIMIT_SIGNALS = {-signal.SIGXCPU, -signal.SIGKILL, 256 - signal.SIGXCPU, 256 - signal.SIGKILL}
"""How a process stopped by RLIMIT_CPU ends: the signal itself, or the driver's ``sys.exit(-signal)``."""


def _failure_line(log: str) -> str:
    """The most telling line of a failed planner's log: an error or a component's exit code."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    telling = [line for line in lines if "error" in line.lower() or "exit code" in line.lower()]
    return (telling or lines or [""])[-1]


def parse_pyperplan(log: str, exit_code: int) -> dict[str, Any]:
    """Statistics and status from a pyperplan log (it reports expansions and search time only)."""
    row: dict[str, Any] = {
        "expansions": _number(r"(\d+) Nodes expanded", log),
        "initial_h_value": _number(r"Initial h value: ([\d.]+)", log, float),
        "search_time": _number(r"Search time: ([\d.e+-]+)", log, float),
    }
    if exit_code in _CPU_LIMIT_SIGNALS:  # the CPU-time limit set by run_planner
        row.update(status=RunStatus.LIMIT_REACHED.value, limit="time")
    elif exit_code != 0:
        row.update(status=RunStatus.CRASHED.value, error=f"exit code {exit_code}: {_failure_line(log)}")
    elif "Plan length:" in log:
        length = _number(r"Plan length: (\d+)", log)
        row.update(status=RunStatus.SOLVED.value, coverage=1, cost=length, plan_length=length)
    elif "No solution could be found" in log:
        row.update(status=RunStatus.UNSOLVABLE.value)
    else:
        row.update(status=RunStatus.CRASHED.value, error="no plan and no verdict in the log")
    return row


def _resource_limiter(time_limit: float | None, megabytes: float | None):
    """For pyperplan, which has no limits of its own: CPU seconds (RLIMIT_CPU, as Fast Downward's
    driver does) and address space (RLIMIT_AS), set in the child before it starts."""
    if time_limit is None and megabytes is None:
        return None

    def apply() -> None:
        if time_limit is not None:
            seconds = max(1, math.ceil(time_limit))
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
        if megabytes is not None:
            limit = int(megabytes * 1024 * 1024)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_planner(task: Task, settings: Settings) -> dict[str, Any]:
    """Export the task's instance to PDDL, run the planner in a fresh directory, parse its log."""
    planner = PLANNERS[task.config.planner]
    row = empty_row(task, settings)
    export = pddl_exporter(task.instance.domain)
    if export is None:
        row.update(status=RunStatus.CRASHED.value, error=f"no PDDL export for {task.instance.domain}")
        return row
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="heurist-planner-") as directory:
        files = export(task.instance.path)
        names = list(files)
        for name, text in files.items():
            Path(directory, name).write_text(text)
        domain_file = "domain.pddl" if "domain.pddl" in files else names[0]
        problem_file = next(name for name in names if name != domain_file)
        arguments = command(planner, domain_file, problem_file, settings)
        limiter = None
        if planner.program == "pyperplan":
            limiter = _resource_limiter(settings.time_limit, settings.memory_limit)
        process = subprocess.Popen(
            arguments, cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=limiter, env={**os.environ, "PYTHONHASHSEED": "0"}, start_new_session=True,
        )
        track(process)  # its own process group: the planner's driver and search end together
        try:
            stdout, stderr = process.communicate(timeout=settings.kill_after)
        except subprocess.TimeoutExpired:
            kill(process)
            process.communicate()
            error = f"no result after {settings.kill_after:g} s wall-clock; killed"
            row.update(status=RunStatus.KILLED.value, error=error)
            row["wall_time"] = round(time.perf_counter() - started, 4)
            return row
        finally:
            untrack(process)
            kill(process)  # what the driver left running
    log = stdout + stderr
    exit_code = process.returncode
    if planner.program == "pyperplan" and exit_code in (-signal.SIGXCPU, -signal.SIGKILL):
        exit_code = 0 if "Plan length:" in log else exit_code  # killed after it had finished
    parse = parse_fast_downward if planner.program == "fd" else parse_pyperplan
    row.update({key: value for key, value in parse(log, exit_code).items() if value is not None})
    if planner.program == "pyperplan" and row["status"] == RunStatus.CRASHED and "MemoryError" in log:
        row.update(status=RunStatus.LIMIT_REACHED.value, limit="memory", error=None)
    row["wall_time"] = round(time.perf_counter() - started, 4)
    if row.get("total_time") is None:
        row["total_time"] = row["wall_time"]
    return row
