"""Benchmarks: run a grid of configurations over suites of instances and report on it.

* :mod:`.suites` -- the course suites by name and generated instances;
* :mod:`.schema` -- tasks, limits, result rows and their statuses;
* :mod:`.runs` -- one run in its own process, under limits, as a Lab-style row;
* :mod:`.planners` -- Fast Downward and pyperplan on exported PDDL;
* :mod:`.grid` -- the grid, the local and Dask executors, resumable results;
* :mod:`.report` -- CSV, JSON, Markdown and plots.

``heurist bench`` (:mod:`heurist.cli.bench`) is the command-line front end.
"""

from heurist.bench.grid import build_grid, run_grid
from heurist.bench.report import write_reports
from heurist.bench.runs import execute
from heurist.bench.schema import Config, RunStatus, Settings, Task
from heurist.bench.suites import GeneratedSpec, Instance, all_suites, suite_instances

__all__ = [
    "all_suites",
    "Config",
    "GeneratedSpec",
    "Instance",
    "RunStatus",
    "Settings",
    "Task",
    "build_grid",
    "execute",
    "run_grid",
    "suite_instances",
    "write_reports",
]
