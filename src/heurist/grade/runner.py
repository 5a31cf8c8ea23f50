"""Grading: every program on every test, each run in its own sandbox, in parallel.

:func:`run_test` is what every executor calls, in a thread here or on a Dask
worker: it fills in the command template, runs it in a sandbox
(:mod:`heurist.grade.sandbox`, at the :class:`~heurist.grade.isolation.Isolation`
level of :class:`Limits`) with a fresh copy of the test's bytes as they were
when the tests were collected, judges the output files the sandbox copied out
(:mod:`heurist.grade.judge`), and cleans up.

Everything a student printed is made harmless (:func:`clean_text`) before it
reaches a verdict's text, the terminal or a report. Runs still going are
recorded, so that :func:`stop_all_runs` can end them all when the grader is
interrupted.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import heurist
from heurist.bench.grid import dask_client
from heurist.domains import get_domain
from heurist.errors import InputError
from heurist.grade.cases import (
    DFS_OUTPUT_FILE,
    NOT_TESTS,
    OUTPUT_FILE,
    Case,
    fill_template,
    placeholder_values,
    template_placeholders,
)
from heurist.grade.isolation import DEFAULT_SANDBOX_UID, SANDBOX_DIRECTORY, Isolation, View
from heurist.grade.judge import MAX_JUDGED_STEPS, Judgement, judge_text
from heurist.grade.optima import OptimumInfo
from heurist.grade.sandbox import Outcome, RunSpec, kill_running, kill_uid, run_limited
from heurist.grade.verdicts import TestResult, Verdict

_OUT_OF_MEMORY = re.compile(r"MemoryError|bad_alloc|Cannot allocate memory|out of memory|OutOfMemory", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
STDERR_LINES = 10
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"


def clean_text(text: str) -> str:
    """``text`` without control characters (escape sequences, carriage returns) but newlines and tabs;
    rich markup in it is escaped where it is printed."""
    return _CONTROL.sub("\N{REPLACEMENT CHARACTER}", text)


@dataclass(frozen=True)
class Program:
    """A student's program: ``name`` (the report's row), the command template, and with
    ``--programs`` the student's directory, copied into every run's working directory."""

    name: str
    template: str
    directory: str | None = None
    home: str = field(default_factory=os.getcwd)

    @property
    def placeholders(self) -> list[str]:
        return template_placeholders(self.template)


@dataclass(frozen=True)
class Limits:
    """The limits of each run, what is expected of its plan, and how the run is kept apart."""

    timeout: float = 60.0
    cpu_limit: float | None = None  # default: the timeout
    memory_mib: float | None = 2048.0  # all of the run's processes together
    max_output: int = 16 * 1024 * 1024
    expect: str = "optimal"
    workdir: str | None = None  # where run directories go below the namespaces level (default: the system's)
    isolation: Isolation = Isolation.NAMESPACES
    max_processes: int = 64
    disk_mib: float = 256.0  # the working directory's size, and /tmp's, in a namespace sandbox
    max_steps: int = MAX_JUDGED_STEPS
    env: tuple[tuple[str, str], ...] = ()  # set in every run, over the allowlist
    readable: tuple[str, ...] = ()  # more paths the runs may read
    protected: tuple[str, ...] = ()  # never in view: reports, the cache, ... (tests are added by grade())
    sandbox_uid: int = DEFAULT_SANDBOX_UID


def parse_program(text: str, number: int = 1, directory: str | None = None, domain: str | None = None) -> Program:
    """``NAME=TEMPLATE`` or ``TEMPLATE`` (named ``program``, or ``programN`` after the first); a placeholder
    ``domain`` does not know (any domain's, when None) is an :class:`InputError`."""
    match = re.match(r"^([A-Za-z0-9_.-]+)=(?!=)(.*)$", text, re.S)
    if match and match.group(2).strip():
        name, template = match.group(1), match.group(2)
    else:
        name, template = ("program" if number == 1 else f"program{number}"), text
    program = Program(name, template, directory)
    template_placeholders(template, domain)
    return program


def student_programs(directory: str | Path, template: str) -> list[Program]:
    """One program per sub-directory of ``directory`` (sorted by name), each running ``template``."""
    root = Path(directory)
    if not root.is_dir():
        raise InputError("no such directory", root)
    students = sorted(path for path in root.iterdir()
                      if path.is_dir() and not path.is_symlink() and not path.name.startswith("."))
    if not students:
        raise InputError("no student sub-directories", root)
    return [Program(path.name, template, str(path.resolve()), str(path.resolve())) for path in students]


def protected_paths(cases: list[Case], programs: list[Program], limits: Limits) -> tuple[str, ...]:
    """What no run may see: each test's directory (answers lie beside tests), the grader's installation,
    the other students' directories, and what the caller protects (reports, cache, weights, workdir)."""
    paths = [*limits.protected, str(Path(heurist.__file__).resolve().parent)]
    if limits.workdir:
        paths.append(limits.workdir)
    homes = {os.path.realpath(program.home) for program in programs}
    for case in cases:
        folder = os.path.dirname(os.path.realpath(case.path))
        if not any(_inside(home, folder) for home in homes):
            paths.append(folder)
            continue
        # the tests lie in (or above) a program's own directory: hide the tests and their answers one by one
        stem = Path(case.path).stem
        paths.append(os.path.realpath(case.path))
        try:
            siblings = list(os.scandir(folder))
        except OSError:
            siblings = []
        paths += [entry.path for entry in siblings
                  if entry.name.startswith(stem) or any(word in entry.name for word in NOT_TESTS)]
    directories = {os.path.dirname(program.directory) for program in programs if program.directory}
    for root in directories:
        for entry in _entries(root):
            if not any(os.path.realpath(entry) == os.path.realpath(program.directory or "")
                       for program in programs):
                paths.append(entry)
    return tuple(dict.fromkeys(os.path.realpath(path) for path in paths))


def check_shown_directory(directory: str) -> None:
    """A program's directory is shown to its runs: never the whole file system or the grader's home."""
    real = os.path.realpath(directory)
    home = os.path.realpath(os.path.expanduser("~"))
    if real == "/" or _inside(home, real):
        raise InputError("the program's directory would show the runs the whole file system or your home "
                         "directory: run heurist grade from the directory that holds the program, or use --programs",
                         directory)


def _entries(directory: str) -> list[str]:
    try:
        return [entry.path for entry in os.scandir(directory)]
    except OSError:
        return []


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _stderr_tail(outcome: Outcome) -> str:
    lines = outcome.stderr.decode("utf-8", "replace").rstrip().splitlines()[-STDERR_LINES:]
    return clean_text("\n".join(lines))


def _process_verdict(outcome: Outcome, limits: Limits) -> Judgement | None:
    """Limits reached: the verdicts decided by how the run ended, before its output."""
    cpu_limit = limits.cpu_limit or limits.timeout
    stderr = _stderr_tail(outcome)
    report = f"last lines of stderr:\n{stderr}" if stderr else ""
    if outcome.timed_out:
        return Judgement(Verdict.TIMED_OUT, f"still running after {limits.timeout:g} s of wall time: killed", report)
    if outcome.cpu_exceeded or outcome.signal == signal.SIGXCPU:
        return Judgement(Verdict.TIMED_OUT, f"CPU time limit ({cpu_limit:g} s) reached", report)
    if outcome.memory_exceeded:
        return Judgement(Verdict.OUT_OF_MEMORY, f"the run's processes together used more than "
                         f"{limits.memory_mib:g} MiB: killed", report)
    if outcome.processes_exceeded:
        return Judgement(Verdict.CRASHED, f"more than {limits.max_processes} processes at once: killed", report)
    if _OUT_OF_MEMORY.search(outcome.stderr.decode("utf-8", "replace")) and outcome.returncode != 0:
        return Judgement(Verdict.OUT_OF_MEMORY,
                         f"an allocation failed at the memory limit ({limits.memory_mib:g} MiB)", report)
    if outcome.signal == signal.SIGKILL and not outcome.output_exceeded:
        if (outcome.cpu_time or 0) >= cpu_limit:
            return Judgement(Verdict.TIMED_OUT, f"killed at the CPU time limit ({cpu_limit:g} s)", report)
        return Judgement(Verdict.OUT_OF_MEMORY, "killed by SIGKILL (the kernel's out-of-memory killer?)", report)
    return None


def _judge_output(data: bytes | None, source: str, domain: Any, problem: Any, optimum: OptimumInfo,
                  limits: Limits, expect: str, problem_note: str | None = None) -> Judgement:
    if data is None:
        return Judgement(Verdict.NO_OUTPUT, f"{source} was not written" + (f" ({problem_note})" if problem_note
                                                                            else ""))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        return Judgement(Verdict.BAD_FORMAT, f"line {line}: not UTF-8 text")
    return judge_text(domain, problem, text, source, optimum, expect, max_steps=limits.max_steps)


def _judge_cut(data: bytes, source: str, domain: Any, problem: Any, optimum: OptimumInfo, limits: Limits,
               expect: str) -> Judgement:
    """An output cut off at --max-output: what its complete part shows, if it is an illegal step."""
    cut = data.rfind(b"\n\n")
    if cut < 0:
        cut = data.rfind(b"\n")
    judged = _judge_output(data[:cut + 1] if cut >= 0 else b"", source, domain, problem, optimum, limits, expect)
    size = f"more than --max-output ({limits.max_output} bytes) of output: cut off"
    if judged.verdict is Verdict.ILLEGAL:
        judged.detail += f"; {size}"
        return judged
    return Judgement(Verdict.BAD_FORMAT, size, judged.report)


def run_test(program: Program, case: Case, limits: Limits, optimum: OptimumInfo) -> TestResult:
    """Run ``program`` on ``case`` in its sandbox and judge it; never raises."""
    try:
        result = _run_test(program, case, limits, optimum)
    except InputError as error:
        result = TestResult(program.name, case.name, Verdict.UNVERIFIED, f"the grader could not run it: {error}")
    except Exception as error:  # the grader's own failure is not the student's
        result = TestResult(program.name, case.name, Verdict.UNVERIFIED,
                            f"the grader failed: {type(error).__name__}: {error}")
    result.detail = clean_text(result.detail)
    result.report = clean_text(result.report)
    result.notes = [clean_text(note) for note in result.notes]
    result.isolation = limits.isolation.value
    return result


class _UidPool:
    """One dedicated uid per run going on at once: processes are counted and killed per uid."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.taken: set[int] = set()

    def take(self, base: int) -> int:
        with self.lock:
            offset = next(index for index in range(len(self.taken) + 1) if base + index not in self.taken)
            self.taken.add(base + offset)
            return base + offset

    def give_back(self, uid: int) -> None:
        with self.lock:
            self.taken.discard(uid)


_UIDS = _UidPool()
_RUNNING: set[int] = set()  # uids of the dedicated-uid runs going on
_STOPPING = threading.Event()


def stop_all_runs() -> None:
    """End every run going on in this process and start no more (an interrupted grader)."""
    _STOPPING.set()
    kill_running()
    for uid in list(_RUNNING):
        kill_uid(uid)


def _environment(limits: Limits, home: str) -> dict[str, str]:
    """The allowlist every run starts from, then ``--env``: nothing of the grader's own environment."""
    env = {"PATH": SANDBOX_PATH, "HOME": home, "TMPDIR": "/tmp", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "USER": "student", "LOGNAME": "student"}
    env.update(dict(limits.env))
    return env


def _run_test(program: Program, case: Case, limits: Limits, optimum: OptimumInfo) -> TestResult:
    if _STOPPING.is_set():
        raise InputError("the grader was interrupted", "grade")
    domain = get_domain(case.domain)
    problem = case.problem()
    input_name = Path(case.path).name
    names = program.placeholders
    outputs = tuple(name for placeholder, name in (("output", OUTPUT_FILE), ("dfs_output", DFS_OUTPUT_FILE))
                    if placeholder in names)
    values = placeholder_values(case, problem, input_name, program.home)
    command = fill_template(program.template, values)
    isolation = limits.isolation
    spec = RunSpec(command, input_name, case.data, isolation, limits.timeout, limits.cpu_limit, limits.memory_mib,
                   limits.max_output, limits.max_processes, limits.disk_mib, outputs)
    directory = None
    uid = None
    notes: list[str] = []
    try:
        if isolation is Isolation.NAMESPACES:
            check_shown_directory(program.home)
            spec.env = _environment(limits, SANDBOX_DIRECTORY)
            visible = (program.home, *limits.readable)
            spec.view = View(visible, limits.protected)
            spec.copy_from = program.directory
        else:
            directory = tempfile.mkdtemp(prefix="heurist-grade-", dir=limits.workdir)
            workdir = Path(directory)
            if program.directory:
                shutil.copytree(program.directory, workdir, symlinks=True, dirs_exist_ok=True,
                                ignore=_special_files)
            copy = workdir / input_name
            if copy.is_symlink() or copy.exists():
                raise InputError(f"the student's directory holds {input_name}, the test's name", program.directory)
            copy.write_bytes(case.data)
            if isolation is Isolation.DEDICATED_UID:
                uid = _UIDS.take(limits.sandbox_uid)
                _RUNNING.add(uid)
                _chown_tree(workdir, uid)
                spec.uid = uid
            spec.workdir = directory
            spec.env = _environment(limits, directory)
        outcome = run_limited(spec)
        changes = _input_changes(Path(directory) / input_name, case) if directory is not None else []
        notes += changes
        judged = _judge(outcome, spec, domain, problem, optimum, limits, notes)
        if changes and judged.verdict in (Verdict.PASS, Verdict.NOT_OPTIMAL):
            judged = Judgement(Verdict.CHANGED_INPUT, changes[0], f"its output: {judged.detail}", judged.cost)
        return TestResult(
            program.name, case.name, judged.verdict, judged.detail, judged.report, judged.cost,
            optimum.cost, outcome.returncode, outcome.wall_time, outcome.cpu_time, notes,
        )
    finally:
        if uid is not None:
            kill_uid(uid)
            _RUNNING.discard(uid)
            _UIDS.give_back(uid)
        if directory is not None:
            shutil.rmtree(directory, onerror=_force_remove)


def _special_files(directory: str, names: list[str]) -> list[str]:
    """What a copy of a student's directory leaves out: FIFOs, devices and sockets (never opened)."""
    skipped = []
    for name in names:
        try:
            mode = os.lstat(os.path.join(directory, name)).st_mode
        except OSError:
            skipped.append(name)
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            skipped.append(name)
    return skipped


def _chown_tree(root: Path, uid: int) -> None:
    os.chown(root, uid, uid)
    os.chmod(root, 0o700)
    for folder, directories, files in os.walk(root):
        for name in [*directories, *files]:
            os.chown(os.path.join(folder, name), uid, uid, follow_symlinks=False)


def _input_changes(copy: Path, case: Case) -> list[str]:
    """Below the namespaces level the test's copy is writable: say if the program changed it."""
    try:
        handle = os.open(copy, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return [f"the program removed or replaced its copy of the test file ({copy.name})"]
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        return [f"the program replaced its copy of the test file ({copy.name}) with something else"]
    with os.fdopen(handle, "rb") as stream:
        data = stream.read(len(case.data) + 1)
    if hashlib.sha256(data).hexdigest() != case.sha256:
        return [f"the program changed its copy of the test file ({copy.name})"]
    return []


def _judge(outcome: Outcome, spec: RunSpec, domain: Any, problem: Any, optimum: OptimumInfo, limits: Limits,
           notes: list[str]) -> Judgement:
    judged = _process_verdict(outcome, limits)
    if judged is not None:
        return judged
    expect = limits.expect
    if OUTPUT_FILE in spec.outputs:
        data = outcome.files.get(OUTPUT_FILE)
        problem_note = outcome.file_problems.get(OUTPUT_FILE)
        cut = problem_note == "cut off" or outcome.output_exceeded  # killed for flooding stdout: unfinished
        source = OUTPUT_FILE
    else:
        data, source, problem_note = outcome.stdout, "stdout", None
        cut = outcome.output_exceeded
    if cut:
        judged = _judge_cut(data or b"", source, domain, problem, optimum, limits, expect)
    else:
        judged = _judge_output(data, source, domain, problem, optimum, limits, expect, problem_note)
    if judged.verdict in (Verdict.PASS, Verdict.NOT_OPTIMAL) and DFS_OUTPUT_FILE in spec.outputs:
        dfs_problem = outcome.file_problems.get(DFS_OUTPUT_FILE)
        dfs_data = outcome.files.get(DFS_OUTPUT_FILE)
        if dfs_problem == "cut off":
            dfs = _judge_cut(dfs_data or b"", DFS_OUTPUT_FILE, domain, problem, optimum, limits, "legal")
        else:
            dfs = _judge_output(dfs_data, DFS_OUTPUT_FILE, domain, problem, optimum, limits, "legal", dfs_problem)
        if dfs.verdict is not Verdict.PASS:
            dfs.detail = f"DFS output: {dfs.detail}"
            judged = dfs
        else:
            notes.append(f"DFS output: {dfs.detail}")
    if outcome.returncode != 0:
        status = (f"killed by signal {outcome.signal}" if outcome.signal is not None
                  else f"exit status {outcome.returncode}")
        unusable = judged.verdict in (Verdict.NO_OUTPUT, Verdict.BAD_FORMAT) and not cut
        if not unusable:
            notes.append(f"the program ended with {status}")
        else:
            stderr = _stderr_tail(outcome)
            report = "\n".join(part for part in (
                f"last lines of stderr:\n{stderr}" if stderr else "stderr: empty",
                f"its output: {judged.verdict.value}: {judged.detail}") if part)
            judged = Judgement(Verdict.CRASHED, status, report)
    return judged


def _force_remove(function: Callable, path: str, _: Any) -> None:
    """A program may leave read-only files or directories: make them writable and try again."""
    try:
        os.chmod(os.path.dirname(path), 0o700)
        os.chmod(path, 0o700, follow_symlinks=False)
        function(path)
    except (OSError, NotImplementedError):
        pass


def _local(tasks: list[tuple[Program, Case]], limits: Limits, optima: dict[str, OptimumInfo],
           jobs: int) -> Iterator[TestResult]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_test, program, case, limits, optima[case.name]) for program, case in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            stop_all_runs()  # the runs going on end now, not at their timeouts
            raise


def _dask(tasks: list[tuple[Program, Case]], limits: Limits, optima: dict[str, OptimumInfo],
          client: Any) -> Iterator[TestResult]:
    from dask.distributed import as_completed as dask_as_completed

    futures = [
        client.submit(run_test, program, case, limits, optima[case.name], pure=False,
                      key=f"heurist-grade-{index}-{os.getpid()}")
        for index, (program, case) in enumerate(tasks)
    ]
    for future in dask_as_completed(futures):
        yield future.result()


def grade(programs: list[Program], cases: list[Case], limits: Limits, optima: dict[str, OptimumInfo], *,
          jobs: int = 1, executor: str = "local", scheduler: Any = None,
          progress: Callable[[TestResult], None] | None = None) -> list[TestResult]:
    """Every program on every test; the results in (program, test) order whatever finished first."""
    _STOPPING.clear()
    for program in programs:
        for domain in sorted({case.domain for case in cases}):
            template_placeholders(program.template, domain)
    limits = replace(limits, protected=protected_paths(cases, programs, limits))
    tasks = [(program, case) for program in programs for case in cases]
    order = {(program.name, case.name): index for index, (program, case) in enumerate(tasks)}
    if executor == "dask":
        if scheduler is None:
            raise InputError("the dask executor needs --scheduler ADDRESS", "--executor")
        client, own = dask_client(scheduler)
        finished = _dask(tasks, limits, optima, client)
    else:
        client, own = None, False
        finished = _local(tasks, limits, optima, max(1, jobs))
    results = []
    try:
        for result in finished:
            results.append(result)
            if progress is not None:
                progress(result)
    finally:
        if own:
            client.close()
    return sorted(results, key=lambda result: order[(result.program, result.test)])


__all__ = ["Limits", "Program", "check_shown_directory", "clean_text", "grade", "parse_program", "protected_paths", "run_test",
           "stop_all_runs", "student_programs"]
