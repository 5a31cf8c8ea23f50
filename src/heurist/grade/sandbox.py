"""Running one student command in a sandbox, under limits for the whole run, and collecting what it wrote.

A run is a small launcher (Python, ``-I -S``, the standard library only)
that sets the per-process limits, runs ``/bin/sh -c COMMAND``, and when the
shell ends kills whatever the command left behind and copies the output files
out through a pipe: each opened without following links and without blocking,
only if it is a regular file, at most ``max_output`` bytes. The grader never
opens a path the program could have prepared; it judges the bytes it got.

Where the launcher runs depends on the :class:`~heurist.grade.isolation.Isolation`
level: inside a bubblewrap sandbox (``namespaces``), on the host as a dedicated
uid, or on the host as the grader's user in a process group (``none``).

Limits:

* per process, by ``setrlimit`` in the launcher's child before ``exec``: CPU
  time (``RLIMIT_CPU``), address space (``RLIMIT_AS``: MemoryError in
  Python, bad_alloc in C++), file size (``RLIMIT_FSIZE``), processes
  (``RLIMIT_NPROC``: counted per user namespace, or per dedicated uid);
* for the whole run, by the grader, which polls the run's process tree every
  :data:`POLL_SECONDS`: wall time, the sum of the processes' CPU time, the sum
  of their resident memory, and their number; past any of them every process
  of the run is killed;
* output: stdout is read as it comes and the run is killed past
  ``max_output`` bytes; the working directory and ``/tmp`` are tmpfs mounts
  of a fixed size in a namespace sandbox.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field

from heurist.grade.isolation import (
    Isolation,
    View,
    bwrap_arguments,
    launcher_python,
)

STDERR_KEPT = 16 * 1024
POLL_SECONDS = 0.05
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")

_LAUNCHER = r"""
import os, resource, shutil, signal, stat, sys
(cpu, memory, fsize, nproc, result_fd, kill_all, cap, uid) = (int(word) for word in sys.argv[1:9])
command, copy_from, outputs = sys.argv[9], sys.argv[10], sys.argv[11:]


def become(uid):
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


os.set_inheritable(result_fd, False)
for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGXCPU):
    signal.signal(sig, signal.SIG_DFL)
if copy_from:
    try:
        def special(folder, names):
            kinds = [os.lstat(os.path.join(folder, name)).st_mode for name in names]
            return [name for name, mode in zip(names, kinds)
                    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))]

        shutil.copytree(copy_from, ".", symlinks=True, dirs_exist_ok=True, ignore=special)
    except (OSError, shutil.Error) as error:
        print(f"heurist grade: could not copy the program's directory: {error}", file=sys.stderr)
        sys.exit(126)
child = os.fork()
if child == 0:
    if uid:
        become(uid)
    if cpu > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    if fsize > 0:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    if nproc > 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    os.execv("/bin/sh", ["/bin/sh", "-c", command])
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while True:
    try:
        _, status = os.waitpid(child, 0)
        break
    except ChildProcessError:
        status = 0
        break
    except InterruptedError:
        continue
code = os.waitstatus_to_exitcode(status)
code = 128 - code if code < 0 else code
if kill_all:
    killer = os.fork() if uid else 0
    if killer == 0:
        if uid:
            become(uid)
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        if uid:
            os._exit(0)
    else:
        os.waitpid(killer, 0)
if uid:
    become(uid)  # the outputs are read with the program's rights, never the grader's
stream = os.fdopen(result_fd, "wb")
for name in outputs:
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        stream.write(b"missing 0\n")
        continue
    except OSError as error:
        kind = b"symlink" if error.errno == 40 else b"unreadable"
        stream.write(kind + b" 0\n")
        continue
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        stream.write(b"special 0\n")
        continue
    with os.fdopen(handle, "rb") as source:
        data = source.read(cap + 1)
    stream.write(b"file %d\n" % len(data) + data)
stream.close()
sys.exit(code)
"""


@dataclass
class RunSpec:
    """One command to run: where, under which limits, and which files to bring back."""

    command: str
    input_name: str
    input_data: bytes
    isolation: Isolation = Isolation.NAMESPACES
    timeout: float = 60.0
    cpu_limit: float | None = None
    memory_mib: float | None = 2048.0
    max_output: int = 16 * 1024 * 1024
    max_processes: int = 64
    disk_mib: float = 256.0
    outputs: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    view: View = field(default_factory=View)
    copy_from: str | None = None  # a directory copied into the working directory first (--programs)
    workdir: str | None = None  # the run's directory on the host (levels below namespaces)
    uid: int | None = None  # the dedicated uid


@dataclass
class Outcome:
    """How the run ended and what it left."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    wall_time: float
    cpu_time: float | None = None
    timed_out: bool = False  # killed at the wall-time limit
    cpu_exceeded: bool = False  # the run's processes together passed the CPU limit
    output_exceeded: bool = False  # killed at max_output bytes of stdout
    memory_exceeded: bool = False  # the run's processes together passed the memory limit
    processes_exceeded: bool = False  # more processes at once than max_processes
    peak_memory_mib: float = 0.0
    files: dict[str, bytes | None] = field(default_factory=dict)  # None: missing
    file_problems: dict[str, str] = field(default_factory=dict)  # symlink, special file, cut off
    isolation: Isolation = Isolation.NAMESPACES

    @property
    def signal(self) -> int | None:
        """The signal that ended the program (also through the shell's 128 + N), else None."""
        if self.returncode is None:
            return None
        if self.returncode < 0:
            return -self.returncode
        if self.returncode > 128 and self.returncode - 128 < signal.NSIG:
            return self.returncode - 128
        return None


_RUNNING: set[subprocess.Popen] = set()
_RUNNING_LOCK = threading.Lock()


def kill_running() -> None:
    """Kill every run this process has going (an interrupted grader): each run's loop then ends at once."""
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for process in running:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()


def _stat_fields(pid: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            text = stream.read().decode("ascii", "replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


@dataclass
class Usage:
    processes: int = 0
    cpu: float = 0.0
    rss_mib: float = 0.0


def tree_usage(root: int) -> Usage:
    """Processes, CPU time (their own and their reaped children's) and resident memory of ``root``'s tree."""
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        fields = _stat_fields(name)
        if fields is None or len(fields) < 22:
            continue
        pid = int(name)
        stats[pid] = fields
        children.setdefault(int(fields[1]), []).append(pid)
    usage = Usage()
    stack = [root]
    while stack:
        pid = stack.pop()
        fields = stats.get(pid)
        if fields is None:
            continue
        usage.processes += 1
        usage.cpu += sum(int(value) for value in fields[11:15]) / _CLOCK_TICKS
        usage.rss_mib += int(fields[21]) * _PAGE / 2 ** 20
        stack += children.get(pid, [])
    return usage


def _kill(process: subprocess.Popen, spec: RunSpec) -> None:
    """Every process of the run: its PID namespace with bwrap, every process of its uid, or its group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    if spec.isolation is Isolation.DEDICATED_UID and spec.uid is not None:
        kill_uid(spec.uid)


def kill_uid(uid: int) -> None:
    """Kill every process of ``uid`` (``kill(-1)`` as that uid reaches them all and nothing else)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(["/bin/sh", "-c", "kill -KILL -1"], user=uid, group=uid, extra_groups=[], env={},
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10,
                       cwd="/")


def _ended(process: subprocess.Popen) -> bool:
    """Whether the process has ended, without reaping it (its resource usage is read later)."""
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _parse_files(data: bytes, names: tuple[str, ...], cap: int) -> tuple[dict[str, bytes | None], dict[str, str]]:
    files: dict[str, bytes | None] = {}
    problems: dict[str, str] = {}
    for name in names:
        line, newline, rest = data.partition(b"\n")
        words = line.split()
        if not newline or len(words) != 2 or not words[1].isdigit():
            files[name] = None
            problems[name] = "not copied out of the sandbox (the run ended first)"
            data = b""
            continue
        kind, size = words[0].decode("ascii", "replace"), int(words[1])
        content, data = rest[:size], rest[size:]
        if kind == "file":
            files[name] = content[:cap]
            if len(content) > cap:
                problems[name] = "cut off"
        else:
            files[name] = None
            if kind != "missing":
                problems[name] = {"symlink": "a symbolic link, not a file",
                                  "special": "not a regular file"}.get(kind, "unreadable")
    return files, problems


def run_limited(spec: RunSpec) -> Outcome:
    """Run ``spec.command`` in its sandbox under the limits; never raises for anything the command does."""
    cpu_limit = spec.cpu_limit or spec.timeout
    cpu = int(-(-cpu_limit // 1))
    memory = int(spec.memory_mib * 1024 * 1024) if spec.memory_mib else 0
    result_read, result_write = os.pipe()
    input_read = input_write = -1
    kill_all = spec.isolation is not Isolation.NONE
    nproc = spec.max_processes if spec.isolation is not Isolation.NONE else 0
    in_sandbox = spec.isolation is Isolation.NAMESPACES
    launcher = [launcher_python(), "-I", "-S", "-c", _LAUNCHER, str(cpu), str(memory), str(spec.max_output + 1),
                str(nproc), str(result_write), str(int(kill_all)), str(spec.max_output),
                str(spec.uid or 0) if spec.isolation is Isolation.DEDICATED_UID else "0", spec.command,
                spec.copy_from or "", *spec.outputs]
    keep = [result_write]
    if in_sandbox:
        input_read, input_write = os.pipe()
        arguments = [*bwrap_arguments(spec.view, disk_bytes=int(spec.disk_mib * 2 ** 20),
                                      tmp_bytes=int(spec.disk_mib * 2 ** 20), input_fd=input_read,
                                      input_name=spec.input_name), *launcher]
        keep.append(input_read)
        cwd = "/"
    else:
        arguments = launcher
        cwd = spec.workdir or "."
    started = time.perf_counter()
    try:
        process = subprocess.Popen(
            arguments, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, env=spec.env, pass_fds=keep,
        )
    finally:
        os.close(result_write)
        if input_read >= 0:
            os.close(input_read)
    with _RUNNING_LOCK:
        _RUNNING.add(process)
    try:
        if input_write >= 0:
            _feed(input_write, spec.input_data)
        return _watch(process, spec, started, result_read, cpu_limit)
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(process)


def _feed(handle: int, data: bytes) -> None:
    """The test's bytes into bwrap's ``--ro-bind-data`` pipe (bwrap reads it all before starting the launcher)."""
    try:
        view = memoryview(data)
        while view:
            written = os.write(handle, view)
            view = view[written:]
    except OSError:
        pass  # bwrap failed to start: its stderr says why
    finally:
        os.close(handle)


def _watch(process: subprocess.Popen, spec: RunSpec, started: float, result_read: int,
           cpu_limit: float) -> Outcome:
    stdout_fd, stderr_fd = process.stdout.fileno(), process.stderr.fileno()
    streams = {stdout_fd: bytearray(), stderr_fd: bytearray(), result_read: bytearray()}
    caps = {stdout_fd: spec.max_output, result_read: len(spec.outputs) * (spec.max_output + 32)}
    outcome = Outcome(None, b"", b"", 0.0, isolation=spec.isolation)
    deadline = started + spec.timeout
    selector = selectors.DefaultSelector()
    for handle in streams:
        os.set_blocking(handle, False)
        selector.register(handle, selectors.EVENT_READ)
    ended_at: float | None = None
    next_poll = started
    cpu_seen = 0.0
    killed = False
    try:
        while selector.get_map():
            now = time.perf_counter()
            if now >= deadline:
                outcome.timed_out = True
                break
            if now >= next_poll:
                next_poll = now + POLL_SECONDS
                usage = tree_usage(process.pid)
                cpu_seen = max(cpu_seen, usage.cpu)
                outcome.peak_memory_mib = max(outcome.peak_memory_mib, usage.rss_mib)
                if spec.memory_mib and usage.rss_mib > spec.memory_mib:
                    outcome.memory_exceeded = True
                elif usage.processes > spec.max_processes + 4:  # bwrap, its init, the launcher, the shell
                    outcome.processes_exceeded = True
                elif usage.cpu > cpu_limit + 1:
                    outcome.cpu_exceeded = True
                if outcome.memory_exceeded or outcome.processes_exceeded or outcome.cpu_exceeded:
                    break
                if ended_at is None and _ended(process):
                    ended_at = now
            if ended_at is not None and now - ended_at > 1.0 and not killed:
                _kill(process, spec)  # anything left behind still holds the pipes
                killed = True
            for key, _ in selector.select(min(deadline - now, POLL_SECONDS)):
                try:
                    data = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    selector.unregister(key.fd)
                    continue
                kept = streams[key.fd]
                if key.fd in caps:
                    room = caps[key.fd] - len(kept)
                    kept += data[:max(room, 0)]
                    if len(data) > room and key.fd == stdout_fd:
                        outcome.output_exceeded = True
                else:
                    kept += data
                    del kept[:-STDERR_KEPT]
            if outcome.output_exceeded:
                break
    finally:
        selector.close()
        _kill(process, spec)
        for handle in (process.stdout, process.stderr):
            handle.close()
        os.close(result_read)
    try:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        cpu_seen = max(cpu_seen, usage.ru_utime + usage.ru_stime)
    except ChildProcessError:
        process.wait()
    outcome.returncode = process.returncode
    outcome.cpu_time = round(cpu_seen, 3)
    outcome.wall_time = round(time.perf_counter() - started, 3)
    outcome.stdout = bytes(streams[stdout_fd])
    outcome.stderr = bytes(streams[stderr_fd])
    outcome.files, outcome.file_problems = _parse_files(bytes(streams[result_read]), spec.outputs,
                                                        spec.max_output)
    return outcome


__all__ = ["Outcome", "RunSpec", "kill_running", "kill_uid", "run_limited", "tree_usage"]

