"""Grading: every program on every test, each run in a fresh temporary directory, in parallel.

:func:`run_test` is what every executor calls, in a thread here or on a Dask
worker: it makes the temporary directory (a copy of the student's directory
with ``--programs``, then a copy of the test file), fills in the command
template, runs it under the limits (:mod:`heurist.grade.sandbox`), judges
the output (:mod:`heurist.grade.judge`), checks that neither the copy nor the
original test file changed, and removes the directory.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heurist.analysis.domains import load_problem
from heurist.bench.grid import dask_client
from heurist.domains import get_domain
from heurist.errors import InputError
from heurist.files import write_atomically
from heurist.grade.cases import (
    DFS_OUTPUT_FILE,
    OUTPUT_FILE,
    Case,
    fill_template,
    placeholder_values,
    template_placeholders,
)
from heurist.grade.judge import Judgement, judge_text
from heurist.grade.optima import OptimumInfo
from heurist.grade.sandbox import Outcome, run_limited
from heurist.grade.verdicts import TestResult, Verdict

_OUT_OF_MEMORY = re.compile(r"MemoryError|bad_alloc|Cannot allocate memory|out of memory|OutOfMemory", re.I)
STDERR_LINES = 10


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
    """The limits of each run, and what is expected of its plan."""

    timeout: float = 60.0
    cpu_limit: float | None = None  # default: the timeout
    memory_mib: float | None = 2048.0
    max_output: int = 16 * 1024 * 1024
    expect: str = "optimal"
    workdir: str | None = None  # where the temporary directories go (default: the system's)


def parse_program(text: str, number: int = 1, directory: str | None = None) -> Program:
    """``NAME=TEMPLATE`` or ``TEMPLATE`` (named ``program``, or ``programN`` after the first)."""
    match = re.match(r"^([A-Za-z0-9_.-]+)=(?!=)(.*)$", text, re.S)
    if match and match.group(2).strip():
        name, template = match.group(1), match.group(2)
    else:
        name, template = ("program" if number == 1 else f"program{number}"), text
    program = Program(name, template, directory)
    program.placeholders  # noqa: B018 - an unknown placeholder is an InputError now
    return program


def student_programs(directory: str | Path, template: str) -> list[Program]:
    """One program per sub-directory of ``directory`` (sorted by name), each running ``template``."""
    root = Path(directory)
    if not root.is_dir():
        raise InputError("no such directory", root)
    students = sorted(path for path in root.iterdir() if path.is_dir() and not path.name.startswith("."))
    if not students:
        raise InputError("no student sub-directories", root)
    return [Program(path.name, template, str(path.resolve()), str(path.resolve())) for path in students]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _stderr_tail(outcome: Outcome) -> str:
    lines = outcome.stderr.decode("utf-8", "replace").rstrip().splitlines()[-STDERR_LINES:]
    return "\n".join(lines)


def _process_verdict(outcome: Outcome, limits: Limits) -> Judgement | None:
    """Timed out or out of memory: the verdicts decided by how the process ended, before its output."""
    cpu_limit = limits.cpu_limit or limits.timeout
    stderr = _stderr_tail(outcome)
    report = f"last lines of stderr:\n{stderr}" if stderr else ""
    if outcome.timed_out:
        return Judgement(Verdict.TIMED_OUT, f"still running after {limits.timeout:g} s of wall time: killed", report)
    sig = outcome.signal
    if sig == signal.SIGXCPU:
        return Judgement(Verdict.TIMED_OUT, f"CPU time limit ({cpu_limit:g} s) reached", report)
    if _OUT_OF_MEMORY.search(outcome.stderr.decode("utf-8", "replace")) and outcome.returncode != 0:
        return Judgement(Verdict.OUT_OF_MEMORY,
                         f"an allocation failed at the memory limit ({limits.memory_mib:g} MiB)", report)
    if sig == signal.SIGKILL and not outcome.output_exceeded:
        if outcome.wall_time >= cpu_limit:
            return Judgement(Verdict.TIMED_OUT, f"killed at the CPU time limit ({cpu_limit:g} s)", report)
        return Judgement(Verdict.OUT_OF_MEMORY, "killed by SIGKILL (the kernel's out-of-memory killer?)", report)
    return None


def _read_output(path: Path, limit: int) -> tuple[bytes | None, bool]:
    """At most ``limit`` bytes of ``path`` (None if missing) and whether there was more."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
    except (FileNotFoundError, IsADirectoryError):
        return None, False
    except OSError:
        return None, False
    return data[:limit], len(data) > limit


def _judge_output(data: bytes | None, source: str, domain: Any, problem: Any, optimum: OptimumInfo,
                  expect: str) -> Judgement:
    if data is None:
        return Judgement(Verdict.NO_OUTPUT, f"{source} was not written")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        return Judgement(Verdict.BAD_FORMAT, f"line {line}: not UTF-8 text")
    return judge_text(domain, problem, text, source, optimum, expect)


def run_test(program: Program, case: Case, limits: Limits, optimum: OptimumInfo) -> TestResult:
    """Run ``program`` on ``case`` in a fresh temporary directory and judge it; never raises."""
    try:
        return _run_test(program, case, limits, optimum)
    except Exception as error:  # the grader's own failure is not the student's
        return TestResult(program.name, case.name, Verdict.UNVERIFIED,
                          f"the grader failed: {type(error).__name__}: {error}")


def _run_test(program: Program, case: Case, limits: Limits, optimum: OptimumInfo) -> TestResult:
    domain = get_domain(case.domain)
    problem = load_problem(domain, case.path, **case.options)
    original_path = Path(case.path)
    original = original_path.read_bytes()
    directory = tempfile.mkdtemp(prefix="heurist-grade-", dir=limits.workdir)
    notes: list[str] = []
    try:
        workdir = Path(directory)
        if program.directory:
            shutil.copytree(program.directory, workdir, symlinks=True, dirs_exist_ok=True)
        input_name = original_path.name
        copy = workdir / input_name
        if copy.is_symlink() or copy.is_dir():
            raise InputError(f"the student's directory holds {input_name}, the test's name", program.directory)
        copy.write_bytes(original)
        names = program.placeholders
        values = placeholder_values(case, problem, input_name, program.home)
        command = fill_template(program.template, values)
        outcome = run_limited(command, directory, timeout=limits.timeout,
                              cpu_limit=limits.cpu_limit or limits.timeout, memory_mib=limits.memory_mib,
                              max_output=limits.max_output, env=dict(os.environ))
        copy_changed = not copy.is_file() or _sha(copy.read_bytes()) != _sha(original)
        original_changed = not original_path.is_file() or _sha(original_path.read_bytes()) != _sha(original)
        changes = []
        if original_changed:
            write_atomically(original_path, original)
            changes.append(f"the program changed the original test file {case.path}: restored")
        if copy_changed:
            changes.append(f"the program changed its copy of the test file ({input_name})")
        notes += changes

        judged = _process_verdict(outcome, limits)
        cut = outcome.output_exceeded
        if judged is None:
            if "output" in names:
                data, more = _read_output(workdir / OUTPUT_FILE, limits.max_output)
                cut = cut or more
                source = OUTPUT_FILE
            else:
                data, source = outcome.stdout, "stdout"
            judged = _judge_output(data, source, domain, problem, optimum, limits.expect)
            if judged.verdict in (Verdict.PASS, Verdict.NOT_OPTIMAL) and "dfs_output" in names:
                dfs_data, more = _read_output(workdir / DFS_OUTPUT_FILE, limits.max_output)
                cut = cut or more
                dfs = _judge_output(dfs_data, DFS_OUTPUT_FILE, domain, problem, optimum, "legal")
                if dfs.verdict is not Verdict.PASS:
                    dfs.detail = f"DFS output: {dfs.detail}"
                    judged = dfs
                else:
                    notes.append(f"DFS output: {dfs.detail}")
            if cut:
                size = f"more than --max-output ({limits.max_output} bytes) of output: cut off"
                if judged.verdict in (Verdict.PASS, Verdict.NOT_OPTIMAL, Verdict.NO_OUTPUT):
                    judged = Judgement(Verdict.BAD_FORMAT, size, judged.report, judged.cost)
                else:
                    notes.append(size)
            if outcome.returncode != 0:
                status = (f"killed by signal {outcome.signal}" if outcome.returncode < 0
                          else f"exit status {outcome.returncode}")
                if judged.verdict in (Verdict.PASS, Verdict.NOT_OPTIMAL):
                    notes.append(f"the program ended with {status}")
                elif not cut:
                    stderr = _stderr_tail(outcome)
                    report = "\n".join(part for part in (
                        f"last lines of stderr:\n{stderr}" if stderr else "stderr: empty",
                        f"its output: {judged.verdict.value}: {judged.detail}") if part)
                    judged = Judgement(Verdict.CRASHED, status, report)
        if original_changed or (changes and judged.verdict in (Verdict.PASS, Verdict.NOT_OPTIMAL)):
            judged = Judgement(Verdict.CHANGED_INPUT, changes[0], f"its output: {judged.detail}", judged.cost)
        return TestResult(
            program.name, case.name, judged.verdict, judged.detail, judged.report, judged.cost,
            optimum.cost, outcome.returncode, outcome.wall_time, outcome.cpu_time, notes,
        )
    finally:
        shutil.rmtree(directory, onerror=_force_remove)


def _force_remove(function: Callable, path: str, _: Any) -> None:
    """A program may leave read-only files or directories: make them writable and try again."""
    try:
        os.chmod(os.path.dirname(path), 0o700)
        os.chmod(path, 0o700)
        function(path)
    except OSError:
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


__all__ = ["Limits", "Program", "grade", "parse_program", "run_test", "student_programs"]
