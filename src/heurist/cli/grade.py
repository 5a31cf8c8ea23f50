"""``heurist grade DOMAIN --program "TEMPLATE" TESTS...``: run students' solvers and give each test a verdict.

The command line only translates arguments and prints; the grading is in
:mod:`heurist.grade`.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from heurist.cli.common import (
    EXIT_INPUT_ERROR,
    EXIT_SIGINT,
    EXIT_SIGTERM,
    add_domain_options,
    option_values,
)
from heurist.domains import named_domains
from heurist.errors import InputError
from heurist.grade.isolation import DEFAULT_SANDBOX_UID, ISOLATION_CHOICES


def escape(text: str) -> str:
    from rich.markup import escape as rich_escape

    return rich_escape(text)

DOMAIN_ARGUMENT = True  # register() reads the domain's name from the command line
ORDER = 46
EXIT_ALL_PASSED = 0
EXIT_SOME_FAILED = 1

EXAMPLES = """examples, one per course:
  # CSC384 hrd.py, V2/V3 (2023-2025): the plan is the output file
  heurist grade klotski --program "python3 {dir}/hrd.py --algo astar --inputfile {input} --outputfile {output}" hrd-v2
  heurist grade klotski --expect legal \\
      --program "python3 {dir}/hrd.py --algo dfs --inputfile {input} --outputfile {output}" hrd-v3
  # CSC384 hrd.py, V1 (Fall 2022): the A* output is judged, the DFS output must be legal
  heurist grade klotski --program "python3 {dir}/hrd.py {input} {dfs_output} {output}" hrd-v1
  # CSCE 420 Blocks World: the trace is read from stdout
  heurist grade blocksworld --program "python3 {dir}/blocksworld.py {input} -H H1 -MAX_ITERS 100000" bw-tamu
  # HUJI game.py: judged by the moves, or by the final board (the plan is rebuilt from it)
  heurist grade blokus --program \\
      "python3 {dir}/game.py -p {pieces} -f astar -s {size} -H null_heuristic -z {puzzle} -x {start} {targets}" \\
      blokus-course
  # a class: one sub-directory per student, the template runs in a copy of each
  heurist grade klotski --programs submissions/ \\
      --program "python3 hrd.py --algo astar --inputfile {input} --outputfile {output}" \\
      hidden/ --jobs 8 --out grades/ --gradescope results.json --junit report.xml
  heurist grade klotski --program alice="python3 {dir}/alice/hrd.py {input} {dfs_output} {output}" \\
      --program bob="python3 {dir}/bob/hrd.py {input} {dfs_output} {output}" hrd-v1 --executor dask \\
      --scheduler tcp://10.0.0.5:8786
"""


def _help_tail(domain=None) -> str:
    from heurist.grade import PLACEHOLDERS, VERDICT_HELP

    lines = ["placeholders (replaced by shell words; the command runs with /bin/sh -c):"]
    lines += [f"  {{{name}}}".ljust(16) + text for name, text in PLACEHOLDERS.items()]
    if domain is not None:
        lines += [f"  {{{name}}}".ljust(16) + f"{domain.name}: {text}"
                  for name, text in domain.template_placeholders.items()]
    lines += ["", "verdicts:"]
    lines += [f"  {verdict.value}".ljust(16) + text for verdict, text in VERDICT_HELP.items()]
    lines += ["", "exit status:", "  0  every test passed", "  1  some test did not pass",
              f"  {EXIT_INPUT_ERROR}  bad input: an unknown test, placeholder or option (one line on stderr)",
              "", "docs/grading.md explains limits, the optimum cache and a Gradescope autograder."]
    return "\n".join(lines)


def _size(text: str) -> int:
    units = {"k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}
    text = text.strip().lower().removesuffix("b").removesuffix("i")
    factor = units.get(text[-1:], 1)
    try:
        value = int(float(text[:-1] if text[-1:] in units else text) * factor)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a size in bytes, e.g. 1000000, 512K or 16M") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def register(subparsers: argparse._SubParsersAction, words: Sequence[str] = ()) -> None:
    domains_list = named_domains(words)
    description = ("Run students' solvers on tests (puzzle files, directories, bench suites), each in its own "
                   "sandbox (bubblewrap namespaces where the machine has them) under limits for the whole run, and "
                   "give each test a verdict: the plan is read in the course's format, replayed, and compared "
                   "with heurist's own optimum.")
    parser = subparsers.add_parser(
        "grade", help="run students' solvers on tests: a verdict per test, Gradescope and JUnit reports",
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES + "\n" + _help_tail(),
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in domains_list:
        sub = domains.add_parser(
            domain.name, help=domain.summary, description=description,
            formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES + "\n" + _help_tail(domain),
        )
        _add_arguments(sub)
        add_domain_options(sub, domain, search_only=False,
                           title=f"{domain.name} options of the test files (suites bring their own)")
        sub.set_defaults(handler=lambda args, domain=domain: grade_command(domain, args))


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tests", nargs="+", metavar="TEST", help="test files, directories of them, or suite names")
    what = parser.add_argument_group("programs")
    what.add_argument("--program", action="append", default=[], metavar="[NAME=]TEMPLATE",
                      help="a command template with placeholders (below); repeatable, one per student")
    what.add_argument("--programs", metavar="DIR",
                      help="one sub-directory per student; the (single) --program template runs in a copy of each")
    what.add_argument("--expect", choices=["optimal", "legal"], default="optimal",
                      help="what passes: an optimal plan (default), or any legal plan to a goal (DFS, greedy)")
    limits = parser.add_argument_group("limits of each run")
    limits.add_argument("--timeout", type=_positive, default=60.0, metavar="SECONDS",
                        help="wall time; then the whole process group is killed (default: 60)")
    limits.add_argument("--cpu-limit", type=_positive, metavar="SECONDS", help="CPU time (default: the timeout)")
    limits.add_argument("--memory-limit", type=_positive, default=2048.0, metavar="MIB",
                        help="memory of the whole run (all its processes together), and the address space of "
                             "each process (default: 2048)")
    limits.add_argument("--max-output", type=_size, default=16 * 1024 ** 2, metavar="BYTES",
                        help="stdout, and any file written, beyond this is cut off (default: 16M)")
    limits.add_argument("--max-processes", type=int, default=64, metavar="N",
                        help="processes of one run at once (default: 64)")
    limits.add_argument("--disk-limit", type=_positive, default=256.0, metavar="MIB",
                        help="size of the run's working directory, and of its /tmp (default: 256)")
    limits.add_argument("--max-plan-steps", type=int, default=200_000, metavar="N",
                        help="longer plans are not replayed: 'bad format' (default: 200000)")
    sandbox = parser.add_argument_group("isolation (docs/grading.md, 'Security model')")
    sandbox.add_argument("--isolation", choices=ISOLATION_CHOICES, default="auto",
                         help="auto (default): the strongest this machine offers; namespaces (bubblewrap); "
                              "dedicated-uid (root without namespaces); none: only for programs you trust")
    sandbox.add_argument("--readable", action="append", default=[], metavar="PATH",
                         help="a path the runs may read besides the system and the program's directory "
                              "(e.g. a course library or another Python); repeatable")
    sandbox.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                         help="set in every run (the environment is an allowlist: PATH, HOME, TMPDIR, LANG); "
                              "NAME alone passes the grader's value; repeatable")
    sandbox.add_argument("--sandbox-uid", type=int, default=DEFAULT_SANDBOX_UID, metavar="UID",
                         help="dedicated-uid isolation: the first uid runs get (default: %(default)s)")
    run = parser.add_argument_group("running")
    run.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                     help="runs at once (default: all %(default)s cores)")
    run.add_argument("--executor", choices=["local", "dask"], default="local",
                     help="local processes, or a Dask cluster (default: local)")
    run.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://host:8786")
    run.add_argument("--workdir", metavar="DIR", help="where the temporary directories go (default: the system's)")
    run.add_argument("--data", metavar="DIR", help="course data directory of the suites (default: the data shipped with heurist)")
    optimum = parser.add_argument_group("optima (heurist's own A*)")
    optimum.add_argument("--heuristic", "-H", metavar="NAME",
                         help="an admissible heuristic for the optimal search (default: the domain's)")
    optimum.add_argument("--optimum-time-limit", type=_positive, metavar="SECONDS",
                         help="CPU time of each optimal search; past it optimality is 'unverified'")
    optimum.add_argument("--cache", metavar="FILE",
                         help="the optima cache (default: ~/.cache/heurist/grade-optima.json)")
    optimum.add_argument("--no-cache", action="store_true", help="solve every test again, keep nothing")
    reports = parser.add_argument_group("reports")
    reports.add_argument("--out", "-o", metavar="DIR", help="write results.csv, results.json and report.md here")
    reports.add_argument("--gradescope", metavar="FILE", help="write the Gradescope autograder results.json")
    reports.add_argument("--weight", type=float, default=1.0, help="each test's max_score (default: 1)")
    reports.add_argument("--weights", metavar="FILE",
                         help="per-test weights: a JSON object, or lines 'TEST WEIGHT'; others get --weight")
    reports.add_argument("--junit", metavar="FILE", help="write JUnit XML for CI systems")
    reports.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no table")


def _environment(words: list[str]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for word in words:
        name, equals, value = word.partition("=")
        if not name.isidentifier():
            raise InputError(f"expected NAME=VALUE or NAME, not {word!r}", "--env")
        if not equals:
            if name not in os.environ:
                raise InputError(f"{name} is not set in this environment", "--env")
            value = os.environ[name]
        pairs.append((name, value))
    return tuple(pairs)


def _report_paths(args: argparse.Namespace) -> list[Path]:
    paths = [Path(args.out) / name for name in ("results.csv", "results.json", "report.md")] if args.out else []
    paths += [Path(path) for path in (args.gradescope, args.junit) if path]
    return paths


def _check_report_path(path: Path) -> None:
    """A report is written only as a regular file: a link, FIFO or device at its path is refused now."""
    from heurist.files import check_writable, writes_through

    if writes_through(path):
        raise InputError("not a regular file (a link, FIFO or device): reports are written only as new "
                         "regular files", path)
    if path.parent.exists():
        check_writable(path)


def grade_command(domain, args: argparse.Namespace) -> int:
    from heurist.grade import Limits, OptimumCache, collect_cases, default_cache_path, parse_program
    from heurist.grade.isolation import Isolation, choose_isolation
    from heurist.grade.reports import read_weights, write_all_reports
    from heurist.grade.runner import check_shown_directory, student_programs

    if args.jobs < 1:
        raise InputError("must be at least 1", "--jobs")
    if args.max_processes < 1:
        raise InputError("must be at least 1", "--max-processes")
    if args.max_plan_steps < 1:
        raise InputError("must be at least 1", "--max-plan-steps")
    if args.executor == "dask" and not args.scheduler:
        raise InputError("the dask executor needs --scheduler ADDRESS", "--executor")
    if not args.program:
        raise InputError("give the command template with --program", "--program")
    if args.programs:
        if len(args.program) != 1:
            raise InputError("--programs DIR runs one --program template in each student's directory", "--programs")
        template = parse_program(args.program[0], domain=domain.name).template
        programs = student_programs(args.programs, template)
    else:
        programs = [parse_program(text, number, domain=domain.name) for number, text in enumerate(args.program, 1)]
    names = [program.name for program in programs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError(f"two programs are named {duplicates[0]}: name them NAME=TEMPLATE", "--program")
    if args.heuristic:
        domain.heuristics.resolve(args.heuristic)
    for path in args.readable:
        if not os.path.exists(path):
            raise InputError("no such file or directory", path)
    weights = read_weights(args.weights) if args.weights else {}
    cases = collect_cases(domain.name, args.tests, option_values(args, domain.options),
                          Path(args.data) if args.data else None)
    unknown = sorted(set(weights) - {case.name for case in cases})
    if unknown:
        raise InputError(f"a weight for {unknown[0]!r}, which is not a test here", args.weights)
    reports = _report_paths(args)
    for path in reports:
        _check_report_path(path)
    isolation = choose_isolation(args.isolation)
    if isolation is Isolation.NAMESPACES:
        for program in programs:
            check_shown_directory(program.home)
    cache_path = None if args.no_cache else Path(args.cache or default_cache_path())
    protected = [str(path) for path in reports]
    protected += [str(path) for path in (args.out and Path(args.out), cache_path, args.weights) if path]
    limits = Limits(args.timeout, args.cpu_limit, args.memory_limit, args.max_output, args.expect,
                    args.workdir, isolation, args.max_processes, args.disk_limit, args.max_plan_steps,
                    _environment(args.env), tuple(os.path.realpath(path) for path in args.readable),
                    tuple(protected), args.sandbox_uid)
    if isolation.warning:
        _warn(isolation.warning)
    started = time.perf_counter()
    cache = OptimumCache(cache_path)
    try:
        results = _run(programs, cases, limits, cache, args)
    except _Terminated:
        return EXIT_SIGTERM
    except KeyboardInterrupt:
        return EXIT_SIGINT
    seconds = time.perf_counter() - started
    metadata = {
        "command": "heurist " + " ".join(shlex.quote(word) for word in sys.argv[1:]) if sys.argv[1:] else None,
        "domain": domain.name, "expect": args.expect, "timeout": args.timeout,
        "cpu_limit": args.cpu_limit or args.timeout, "memory_limit_mib": args.memory_limit,
        "max_output": args.max_output, "max_processes": args.max_processes, "disk_limit_mib": args.disk_limit,
        "jobs": args.jobs, "executor": args.executor, "isolation": isolation.value,
        "isolation_warning": isolation.warning, "wall_time": round(seconds, 2),
    }
    written = write_all_reports(results, metadata, out=Path(args.out) if args.out else None,
                                gradescope=args.gradescope, junit=args.junit, weights=weights,
                                default_weight=args.weight)
    if not args.quiet:
        _print_table(results, programs)
    passed = sum(result.passed for result in results)
    summary = f"{passed}/{len(results)} passed in {seconds:.1f} s (isolation: {isolation.value})"
    if written:
        summary += "; wrote " + ", ".join(str(path) for path in written)
    print(summary)
    return EXIT_ALL_PASSED if passed == len(results) else EXIT_SOME_FAILED


def _warn(text: str) -> None:
    from rich.console import Console

    Console(stderr=True, highlight=False).print(f"[bold red]warning:[/] {escape(text)}")


def _run(programs, cases, limits, cache, args):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from heurist.grade import grade as run_grade

    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[status]}", markup=False), console=console,
        disable=args.quiet or not console.is_terminal,
    )
    counts = {"passed": 0, "failed": 0}
    with progress, _terminate_as_interrupt():
        bar = progress.add_task("optima", total=len(cases), status="")
        optima = {}
        try:
            for case in cases:
                info, cached = cache.get(case, args.heuristic, args.optimum_time_limit)
                optima[case.name] = info
                progress.update(bar, advance=1,
                                status=f"{case.name}: {info.describe()}{' (cached)' if cached else ''}")
        finally:
            cache.save()  # what was solved before an interrupt is kept
        total = len(programs) * len(cases)
        progress.update(bar, description="grade", completed=0, total=total, status="")

        def advance(result) -> None:
            counts["passed" if result.passed else "failed"] += 1
            progress.update(bar, advance=1, status=f"passed {counts['passed']}, failed {counts['failed']}; last: "
                            f"{result.program} {result.test} {result.verdict.value}")

        try:
            return run_grade(programs, cases, limits, optima, jobs=args.jobs, executor=args.executor,
                             scheduler=args.scheduler, progress=advance)
        except KeyboardInterrupt:
            print("heurist grade: interrupted: every run was killed; no report was written", file=sys.stderr)
            raise


class _terminate_as_interrupt:
    """SIGTERM, while the runs go on, ends them as Ctrl-C does (exit status 143 instead of 130)."""

    def __enter__(self):
        import signal

        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, self._handler)
        return self

    @staticmethod
    def _handler(signum, frame):
        raise _Terminated()

    def __exit__(self, kind, error, trace):
        import signal

        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        return False


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised as an interrupt so that every run is stopped the same way."""


def _print_table(results, programs) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from heurist.grade import Verdict

    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=200)
    if len(programs) == 1:
        table = Table(title=escape(programs[0].name))
        for column in ("test", "verdict", "cost", "optimum", "time (s)", "detail"):
            table.add_column(column, justify="right" if column in ("cost", "optimum", "time (s)") else "left")
        for result in results:
            style = "green" if result.passed else "red"
            table.add_row(Text(result.test), Text(result.verdict.value, style=style), _number(result.cost),
                          _number(result.optimum), _number(result.wall_time), Text(result.detail))
    else:
        present = [verdict for verdict in Verdict if any(result.verdict is verdict for result in results)]
        table = Table(title="verdicts per program")
        table.add_column("program")
        table.add_column("passed", justify="right")
        for verdict in present:
            table.add_column(verdict.value, justify="right")
        for program in programs:
            mine = [result for result in results if result.program == program.name]
            table.add_row(Text(program.name), f"{sum(r.passed for r in mine)}/{len(mine)}",
                          *[str(sum(r.verdict is verdict for r in mine) or "") for verdict in present])
    console.print(table)


def _number(value) -> str:
    return "" if value is None else f"{value:g}"


__all__ = ["grade_command", "register"]
