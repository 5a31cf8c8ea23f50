"""``heurist bench``: run algorithms x heuristics x instances and write tables and plots."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from heurist.cli.common import add_limit_arguments, finite_weight, positive_int, positive_seconds
from heurist.errors import InputError
from heurist.files import check_writable, output_directory
from heurist.search import ALGORITHMS

ORDER = 40

EXAMPLES = """examples:
  heurist bench --list
  heurist bench bw-tamu --heuristics deadlock,h1 --time-limit 10
  heurist bench hrd-v2 hrd-v3 --heuristics manhattan,my_heuristics.py:h
  heurist bench hrd-v2 hrd-v3 --algorithms astar,greedy --out results/hrd
  heurist bench bw-tamu --planners fd-lmcut,fd-blind,pyperplan-lmcut
  heurist bench --generated blocksworld:20:1:"--blocks 8 --stacks 4" --heuristics all
  heurist bench bw-challenge --time-limit 30 --resume          # continue an interrupted run
  heurist bench bw-tamu --executor dask --scheduler tcp://10.0.0.5:8786

output (in --out DIR): runs.jsonl (a row per finished run, appended as runs end),
results.csv and results.json (a row per run, Downward Lab attribute names),
report.md (coverage, summaries, per-configuration tables), expansions.png and
coverage.png.

exit status:
  0  the bench ran (whatever its runs' outcomes, which are in the results)
  2  bad input: an unknown suite, option or planner, a missing data directory, or an output
     that cannot be written (one line on stderr names it)"""


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def register(subparsers: argparse._SubParsersAction) -> None:
    from heurist.bench.planners import PLANNERS
    from heurist.bench.schema import RunStatus
    from heurist.bench.suites import all_suites

    parser = subparsers.add_parser(
        "bench",
        help="benchmark algorithms and heuristics over suites; CSV, JSON, Markdown and plots",
        description="Run every algorithm x heuristic x instance of the chosen suites, each run in its own "
        "process under the limits, in parallel; write results and reports. Suites: "
        + ", ".join(all_suites()) + ".",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES,
    )
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="course suites to run (see --list)")
    parser.add_argument(
        "--generated", action="append", default=[], metavar="DOMAIN:N:SEED[:OPTIONS]",
        help="also run N instances generated from SEED (OPTIONS: the domain's 'heurist generate' options); "
        "repeatable",
    )
    parser.add_argument("--list", action="store_true", help="list the suites, planners and heuristics, and exit")
    parser.add_argument(
        "--algorithms", "-a", type=_names, default=["astar"], metavar="LIST",
        help=f"comma-separated, from {', '.join(ALGORITHMS)} (default: astar)",
    )
    parser.add_argument(
        "--heuristics", "-H", type=_names, default=["all"], metavar="LIST",
        help="comma-separated heuristic names, 'default' (each domain's default), 'all' (default: all "
        "built-in heuristics of each domain), or your own as FILE.py:FUNCTION (suites of one domain only)",
    )
    parser.add_argument("--weight", "-w", type=finite_weight, default=2.0, help="wastar's weight (default: 2)")
    parser.add_argument(
        "--planners", type=_names, default=[], metavar="LIST",
        help=f"external planners on instances that export PDDL: {', '.join(PLANNERS)} "
        "(needs pip install 'heurist[planners]')",
    )
    add_limit_arguments(parser)
    for group in parser._action_groups:
        if group.title and group.title.startswith("limits"):
            group.title = (
                "limits of each run (reaching one ends that run cleanly, "
                f"status '{RunStatus.LIMIT_REACHED.value}')"
            )
    parser.add_argument(
        "--kill-after", type=positive_seconds, metavar="SECONDS",
        help="kill a run still going after this many wall-clock seconds (default: twice --time-limit "
        "plus 30 s; none without a time limit)",
    )
    parser.add_argument("--jobs", "-j", type=positive_int, default=os.cpu_count() or 1,
                        help="runs at once (default: all %(default)s cores)")
    parser.add_argument("--out", "-o", default="bench-results", metavar="DIR",
                        help="output directory (default: %(default)s)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the runs recorded in DIR/runs.jsonl and run only the others")
    parser.add_argument("--executor", choices=["local", "dask"], default="local",
                        help="local worker processes, or a Dask cluster (default: local)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://host:8786")
    parser.add_argument("--data", metavar="DIR", help="course data directory (default: the data shipped with heurist, see 'heurist data')")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    parser.set_defaults(handler=bench)


def bench(args: argparse.Namespace) -> int:
    from heurist.bench.grid import build_grid
    from heurist.bench.planners import check_planners
    from heurist.bench.report import write_reports
    from heurist.bench.schema import Settings
    from heurist.bench.suites import GeneratedSpec, suite_instances

    if args.list:
        print(list_text(Path(args.data) if args.data else None))
        return 0
    if not args.suites and not args.generated:
        raise InputError("name at least one suite or --generated DOMAIN:N:SEED (see --list)", "bench")
    for algorithm in args.algorithms:
        if algorithm not in ALGORITHMS:
            raise InputError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}", "--algorithms")
    if args.weight < 1:
        raise InputError("must be at least 1", "--weight")
    if args.jobs < 1:
        raise InputError("must be at least 1", "--jobs")
    if args.executor == "dask" and not args.scheduler:
        raise InputError("the dask executor needs --scheduler ADDRESS", "--executor")
    out = Path(args.out)
    check_outputs(out, args.resume)
    data = Path(args.data) if args.data else None
    instances = []
    for name in dict.fromkeys(args.suites):
        instances += suite_instances(name, data)
    for text in args.generated:
        spec = GeneratedSpec.parse(text)
        with output_directory(out / "instances" / spec.suite):  # removed again if nothing could be written
            instances += spec.write(out / "instances")
    check_planners(args.planners, {instance.domain for instance in instances})
    tasks = build_grid(instances, args.algorithms, args.heuristics, args.weight, args.planners)
    kill_after = args.kill_after
    if kill_after is None and args.time_limit is not None:
        kill_after = 2 * args.time_limit + 30
    settings = Settings(args.time_limit, args.max_expansions, args.memory_limit, kill_after)
    metadata = {
        "command": "heurist " + " ".join(shlex.quote(word) for word in sys.argv[1:]) if sys.argv[1:] else None,
        "time_limit": args.time_limit,
        "max_expansions": args.max_expansions,
        "memory_limit": args.memory_limit,
        "kill_after": kill_after,
    }
    try:
        rows = _run_with_progress(tasks, settings, out, args)
    except KeyboardInterrupt:
        print(f"heurist: finished runs are kept in {out / 'runs.jsonl'}; add --resume to continue", file=sys.stderr)
        raise
    paths = write_reports(rows, out, metadata)
    solved = sum(int(row.get("coverage") or 0) for row in rows)
    print(f"{solved}/{len(rows)} runs solved; wrote {', '.join(str(path) for path in paths)}")
    return 0


def check_outputs(out: Path, resume: bool) -> None:
    """Refuse, before any run, an output directory or report file that cannot be written."""
    from heurist.bench.grid import RUNS_FILE
    from heurist.bench.report import REPORT_FILES

    if out.exists() and not out.is_dir():
        raise InputError("cannot write: exists and is not a directory", out)
    if not out.exists():  # it will be made: its nearest existing ancestor must take new files
        ancestor = next(folder for folder in out.parents if str(folder) in ("", ".") or folder.exists())
        if not ancestor.is_dir():
            raise InputError("cannot write: Not a directory", ancestor)
        check_writable(ancestor / f".{out.name}")
        return
    names = REPORT_FILES if resume else (RUNS_FILE, *REPORT_FILES)
    for name in names:
        check_writable(out / name)


def _run_with_progress(tasks, settings, out: Path, args: argparse.Namespace):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from heurist.bench.grid import run_grid
    from heurist.bench.schema import RunStatus

    console = Console(stderr=True)
    solved = failed = 0
    progress = Progress(
        TextColumn("[bold]bench"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"), console=console, disable=args.quiet or not console.is_terminal,
    )
    with progress:
        bar = progress.add_task("runs", total=len(tasks), status="")

        def advance(task, row) -> None:
            nonlocal solved, failed
            if row.get("status") == RunStatus.SOLVED:
                solved += 1
            elif row.get("status") in (RunStatus.CRASHED, RunStatus.KILLED):
                failed += 1
            progress.update(
                bar, advance=1,
                status=f"solved {solved}, failed {failed}; last: "
                f"{task.instance.name} {task.config.name} {row.get('status')}",
            )

        rows = run_grid(
            tasks, settings, out, resume=args.resume, executor=args.executor, jobs=args.jobs,
            scheduler=args.scheduler, progress=advance,
        )
        progress.update(bar, completed=len(tasks))
    return rows


def list_text(data: Path | None) -> str:
    from heurist.bench.planners import PLANNERS, fast_downward_script, pyperplan_available
    from heurist.bench.suites import all_suites, suite_instances
    from heurist.domains import get_domain

    lines = ["suites:"]
    for suite in all_suites().values():
        try:
            count = f"{len(suite_instances(suite.name, data))} problems"
        except InputError as error:
            count = f"unavailable: {error}"
        lines.append(f"  {suite.name:<14} {suite.domain:<12} {count:<14} {suite.summary}")
    lines.append("heuristics ('all' runs each domain's):")
    for domain in dict.fromkeys(suite.domain for suite in all_suites().values()):
        registry = get_domain(domain).heuristics
        lines.append(f"  {domain:<12} {', '.join(registry.names())}")
    installed = {"fd": fast_downward_script() is not None, "pyperplan": pyperplan_available()}
    lines.append("planners (Blocks World, via PDDL):")
    for planner in PLANNERS.values():
        state = "" if installed[planner.program] else "  (not installed: pip install 'heurist[planners]')"
        lines.append(f"  {planner.name:<16} {planner.summary}{state}")
    return "\n".join(lines)
