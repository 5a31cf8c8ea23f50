"""Fuzz heurist's command line with mutated course files and write the counts to docs/reliability.md.

    PYTHONPATH=src python benchmarks/fuzz.py --cases 20000 --seed 1 --jobs 2 --write

Each case is one command line built by ``tests/fuzzing.py`` (``make_case(seed, i)``
for i in 0..N-1: a command, real course files with one mutation, output
paths in a fresh temporary directory), run and judged by the oracle
described there. The table counts cases by command, input format and
outcome; every case outside the promise is listed with its command line in
``--failures`` (default: fuzz-failures.txt), and ``--write`` puts the table
into docs/reliability.md between the ``<!-- fuzz table -->`` markers.

How a case runs:

* **fork** (the default): each of the ``--jobs`` workers starts a fork
  server, a process that has imported heurist (``heurist.cli.main``, every
  command and every domain) and does nothing else. For each case the server
  forks a child that starts a session of its own, restores the signal
  handlers a fresh interpreter has, chdirs into the case's working directory,
  takes stdin from /dev/null and stdout and stderr from files in a scratch
  directory outside it, sets ``sys.argv`` and calls
  ``heurist.cli.main.main(argv)``, and ends as the interpreter would: an
  exception that escapes ``main()`` prints its traceback and exits 1,
  ``SystemExit`` exits with its code, the atexit functions run and the
  standard streams are flushed. The server waits with the wall-clock
  timeout and kills the child's process group when it runs past it. Every
  child is forked from the same untouched server, so nothing a case does can
  leak into the next; the worker that builds and judges the cases is a
  separate process. ``--compare N`` runs the first N cases both ways and
  lists every case whose exit status or violations differ.
* **subprocess** (``--subprocess``): ``python -m heurist.cli.main ARGS``, as
  ``tests/test_fuzz.py`` runs its cases.

The benchmark passes smaller limits than the test (``--time-limit 1
--max-expansions 5000`` and ``-MAX_ITERS 5000``): the fuzzer tests reading
and error handling, which happen before or regardless of a long search;
``--time-limit`` and ``--max-expansions`` change them.
"""

from __future__ import annotations

import argparse
import atexit
import collections
import contextlib
import io
import itertools
import multiprocessing
import multiprocessing.process
import os
import pkgutil
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fuzzing  # noqa: E402

REPORT = fuzzing.ROOT / "docs" / "reliability.md"
BEGIN, END = "<!-- fuzz table -->", "<!-- end fuzz table -->"
TIME_LIMIT, MAX_EXPANSIONS = "1", "5000"

# What a fresh interpreter's multiprocessing believes: it is the main process, with no children.
_MAIN_PROCESS = multiprocessing.process.current_process()


# ----- the fork server ----------------------------------------------------------------------------


def preload() -> None:
    """Import heurist once: the command line, every command, every domain and what they use."""
    os.environ.update(fuzzing.env())  # as the subprocesses get it
    if str(fuzzing.SRC) not in sys.path:
        sys.path.insert(0, str(fuzzing.SRC))
    import heurist
    import heurist.cli.main
    from heurist.domains import all_domains

    if Path(heurist.__file__).resolve().parents[1] != fuzzing.SRC:
        raise RuntimeError(f"heurist is imported from {heurist.__file__}, not from {fuzzing.SRC}")
    for module in pkgutil.walk_packages(heurist.__path__, "heurist."):
        __import__(module.name)
    heurist.cli.main.command_modules()
    all_domains()


class ForkServer:
    """A process with heurist imported that forks one child per command line (see the module's docstring)."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        scratch.mkdir(parents=True, exist_ok=True)
        self.connection, server_end = multiprocessing.Pipe()
        self.pid = os.fork()
        if self.pid == 0:
            try:
                self.connection.close()
                _serve(server_end)
            finally:
                os._exit(0)
        server_end.close()

    def run(self, argv: list[str], cwd: Path | str, timeout: float) -> subprocess.CompletedProcess:
        """Run ``heurist ARGV`` in ``cwd``: a ``CompletedProcess`` whose ``returncode`` is None on timeout."""
        out, err = self.scratch / "stdout", self.scratch / "stderr"
        self.connection.send((list(argv), str(cwd), str(out), str(err), timeout))
        returncode = self.connection.recv()
        return subprocess.CompletedProcess(argv, returncode, out.read_bytes(), err.read_bytes())


def _serve(connection) -> None:
    """The server's loop: one request, one child, its exit status back; until the worker goes away."""
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        connection.send(_fork_and_wait(*request))


def _fork_and_wait(argv: list[str], cwd: str, out: str, err: str, timeout: float) -> int | None:
    pid = os.fork()
    if pid == 0:
        _child(argv, cwd, out, err)  # never returns
    finished = _wait(pid, timeout)
    with contextlib.suppress(OSError):  # what the case left running in its session (on a timeout, all)
        os.killpg(pid, signal.SIGKILL)
    if not finished:
        os.waitpid(pid, 0)
        return None
    return finished[1]


def _wait(pid: int, timeout: float) -> tuple[int, int] | None:
    """(pid, exit status as ``subprocess`` gives it) once the child ends, or None at the timeout."""
    deadline = time.monotonic() + timeout
    try:
        descriptor = os.pidfd_open(pid)
    except (AttributeError, OSError):
        descriptor = None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return done, os.waitstatus_to_exitcode(status)
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                return None
            if descriptor is not None:
                select.select([descriptor], [], [], left)
            else:
                time.sleep(min(left, 0.005))
    finally:
        if descriptor is not None:
            os.close(descriptor)


def _child(argv: list[str], cwd: str, out: str, err: str) -> None:
    """Run ``heurist ARGV`` as ``python -m heurist.cli.main ARGV`` would, then ``os._exit``."""
    status = 1
    try:
        os.setsid()
        _fresh_signals()
        os.chdir(cwd)
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        # The standard streams of an interpreter whose stdout and stderr are files (PYTHONIOENCODING=utf-8).
        sys.stdin = sys.__stdin__ = _stream(0, "strict")
        sys.stdout = sys.__stdout__ = _stream(1, "strict")
        sys.stderr = sys.__stderr__ = _stream(2, "backslashreplace", line_buffering=True)
        import heurist.cli.main

        sys.argv = [heurist.cli.main.__file__, *argv]
        sys.path[0:0] = [cwd]  # `python -m` puts the working directory first
        sys.modules["__main__"] = heurist.cli.main
        random.seed()  # a fresh interpreter's random state, not the server's
        depth, frame = 0, sys._getframe()
        while frame is not None:
            depth, frame = depth + 1, frame.f_back
        # This frame stands for the module's, 3 deep under `python -m` (2 frames of runpy): what the
        # server and the worker put under it must not bring a RecursionError nearer.
        sys.setrecursionlimit(sys.getrecursionlimit() + depth - 3)
        multiprocessing.process._current_process = _MAIN_PROCESS
        multiprocessing.process._parent_process = None
        multiprocessing.process._children = set()
        multiprocessing.process._process_counter = itertools.count(1)
        multiprocessing.process.ORIGINAL_DIR = cwd
        try:
            status = _exit_status(heurist.cli.main.main(argv))
        except SystemExit as stop:
            status = _exit_status(stop.code)
        except BaseException:  # noqa: BLE001 - the interpreter prints any escaping exception
            traceback.print_exc()
            status = 1
        try:
            atexit._run_exitfuncs()
        except BaseException:  # noqa: BLE001
            traceback.print_exc()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001 - as Py_FinalizeEx: a failed flush makes the status 120
                status = 120
    except BaseException:  # noqa: BLE001 - a failure of the harness itself: show it, as a traceback
        try:
            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        status = 1
    finally:
        os._exit(status)


def _stream(fd: int, errors: str, line_buffering: bool = False) -> io.TextIOWrapper:
    """A standard stream as the interpreter makes it on ``fd`` (which it never closes)."""
    raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
    buffered = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
    return io.TextIOWrapper(buffered, encoding="utf-8", errors=errors, line_buffering=line_buffering)


def _exit_status(code: object) -> int:
    """The exit status ``sys.exit(code)`` gives."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _fresh_signals() -> None:
    """The signal state of a freshly started interpreter."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for signum in signal.valid_signals():
        if signum in (signal.SIGKILL, signal.SIGSTOP):
            continue
        with contextlib.suppress(OSError, ValueError):
            signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_VIRTUAL, 0)


# ----- the workers --------------------------------------------------------------------------------

_SOLUTIONS: list = []
_BASE: Path | None = None
_RUNNER = None


def _init(solutions: list, base: str, mode: str, limits: tuple[str, str]) -> None:
    global _SOLUTIONS, _BASE, _RUNNER
    _SOLUTIONS, _BASE = solutions, Path(base)
    fuzzing.use_limits(*limits)
    if mode == "fork":
        preload()
        server = ForkServer(Path(tempfile.mkdtemp(prefix="scratch-", dir=base)))
        _RUNNER = server.run
    else:
        _RUNNER = fuzzing.heurist


def _run(args: tuple[int, int]) -> tuple:
    seed, index = args
    case = fuzzing.make_case(seed, index, _SOLUTIONS)
    result = fuzzing.run_case(case, _BASE, _RUNNER)
    return (case.command, case.format, result.outcome, result.violations, round(result.seconds, 2),
            result.report() if result.violations else "", result.returncode, index)


def run_all(work: list[tuple[int, int]], jobs: int, solutions: list, base: Path, mode: str,
            limits: tuple[str, str], progress: bool = True):
    """Yield ``_run``'s tuple for every case of ``work``, in order."""
    started = time.monotonic()
    failures = 0
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_init,
                             initargs=(solutions, str(base), mode, limits)) as pool:
        for done, row in enumerate(pool.map(_run, work, chunksize=4), 1):
            failures += bool(row[3])
            if progress and done % 100 == 0:
                print(f"{done}/{len(work)} cases, {failures} outside the promise, "
                      f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
            yield row


def table(counts: collections.Counter, cases: int, seed: int, seconds: float, jobs: int, mode: str) -> str:
    outcomes = [*fuzzing.OK_STATUSES.values(), "interrupted 130", "interrupted 143", *fuzzing.VIOLATIONS]
    used = [o for o in outcomes if any(key[2] == o for key in counts)]
    rows = sorted({key[:2] for key in counts})
    machine = (f"{time.strftime('%Y-%m-%d', time.gmtime())}, on {os.cpu_count()} cores, "
               f"Python {sys.version_info.major}.{sys.version_info.minor}")
    lines = [f"{cases} cases, seed {seed}, {mode} mode, {jobs} jobs, {seconds:.0f} s wall-clock "
             f"({seconds / max(cases, 1) * 1000:.0f} ms a case); {machine}.", "",
             "| command | format | " + " | ".join(used) + " |",
             "|---|---|" + "---:|" * len(used)]
    for command, fmt in rows:
        cells = [str(counts.get((command, fmt, o), "")) for o in used]
        lines.append(f"| {command} | {fmt} | " + " | ".join(cells) + " |")
    totals = [str(sum(n for key, n in counts.items() if key[2] == o)) for o in used]
    lines.append("| **total** | | " + " | ".join(totals) + " |")
    return "\n".join(lines)


def compare(cases: int, seed: int, jobs: int, solutions: list, base: Path, limits: tuple[str, str]) -> int:
    """Run the first ``cases`` cases in both modes; list each case whose status or violations differ."""
    work = [(seed, i) for i in range(cases)]
    results, seconds = {}, {}
    for mode in ("subprocess", "fork"):
        started = time.monotonic()
        results[mode] = list(run_all(work, jobs, solutions, base, mode, limits, progress=False))
        seconds[mode] = time.monotonic() - started
        print(f"{mode}: {cases} cases in {seconds[mode]:.1f} s ({seconds[mode] / cases * 1000:.0f} ms a case)")
    differences = 0
    for slow, fast in zip(results["subprocess"], results["fork"]):
        if (slow[6], slow[3]) != (fast[6], fast[3]):
            differences += 1
            print(f"case {seed}-{slow[7]} {slow[0]} [{slow[1]}]: subprocess exit {slow[6]} {slow[3]}, "
                  f"fork exit {fast[6]} {fast[3]}")
    print(f"{differences} of {cases} cases differ")
    return 1 if differences else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--subprocess", action="store_true",
                        help="run each case as `python -m heurist.cli.main` (as the test does), not forked")
    parser.add_argument("--compare", type=int, metavar="N",
                        help="run the first N cases in both modes and list those whose outcomes differ")
    parser.add_argument("--time-limit", default=TIME_LIMIT, help="the cases' --time-limit (default: %(default)s)")
    parser.add_argument("--max-expansions", default=MAX_EXPANSIONS,
                        help="the cases' --max-expansions and -MAX_ITERS (default: %(default)s)")
    parser.add_argument("--failures", default="fuzz-failures.txt", help="where to list the cases outside the promise")
    parser.add_argument("--write", action="store_true", help="put the table into docs/reliability.md")
    args = parser.parse_args(argv)
    limits = (args.time_limit, args.max_expansions)
    mode = "subprocess" if args.subprocess else "fork"
    base = Path(tempfile.mkdtemp(prefix="heurist-fuzz-"))
    try:
        solutions = fuzzing.make_solutions(base / "seeds")
        if args.compare:
            return compare(args.compare, args.seed, args.jobs, solutions, base, limits)
        counts: collections.Counter = collections.Counter()
        failures = []
        started = time.monotonic()
        work = [(args.seed, i) for i in range(args.cases)]
        Path(args.failures).write_text("")
        for command, fmt, outcome, violations, _, report, _, _ in run_all(work, args.jobs, solutions, base,
                                                                          mode, limits):
            counts[command, fmt, outcome] += 1
            if violations:
                failures.append(report)
                with open(args.failures, "a") as listing:  # as they come: a long run can be looked into
                    listing.write(report + "\n")
        seconds = time.monotonic() - started
    finally:
        shutil.rmtree(base, ignore_errors=True)
    text = table(counts, args.cases, args.seed, seconds, args.jobs, mode)
    print(text)
    Path(args.failures).write_text("\n".join(failures) + "\n")
    print(f"{len(failures)} cases outside the promise, listed in {args.failures}", file=sys.stderr)
    if args.write:
        report = REPORT.read_text()
        head, rest = report.split(BEGIN, 1)
        report = head + BEGIN + "\n" + text + "\n" + END + rest.split(END, 1)[1]
        REPORT.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
