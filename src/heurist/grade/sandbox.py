"""Running one command under limits, in its own process group, and reading what it printed.

The command runs as ``/bin/sh -c COMMAND`` in the given working directory, in
a new session (``start_new_session``), so that the whole group (the shell, the
student's program and anything it started) can be killed at once. The limits
are set by a small launcher that calls ``setrlimit`` and then ``exec``s the
shell (no ``preexec_fn``, which is unsafe in a threaded grader):

* CPU time (``RLIMIT_CPU``: SIGXCPU, then SIGKILL two seconds later);
* address space (``RLIMIT_AS``: allocations fail, MemoryError in Python);
* file size (``RLIMIT_FSIZE``: no file written can grow past ``max_output`` bytes);
* wall time: the group is killed when ``timeout`` seconds have passed;
* stdout: read as it comes; past ``max_output`` bytes the group is killed and
  what was read is kept. stderr keeps its last 16 KiB.

When the program ends, whatever it left running in its group is killed too.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

STDERR_KEPT = 16 * 1024

_LAUNCHER = """\
import os, resource, signal, sys
cpu, memory, fsize = (int(word) for word in sys.argv[1:4])
for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGXCPU):
    signal.signal(sig, signal.SIG_DFL)
if cpu > 0:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
if memory > 0:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
if fsize > 0:
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
os.execv("/bin/sh", ["/bin/sh", "-c", sys.argv[4]])
"""


@dataclass
class Outcome:
    """How the command ended and what it printed."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    wall_time: float
    cpu_time: float | None = None  # the shell's and the children it waited for (unknown pieces when killed)
    timed_out: bool = False  # killed at the wall-time limit
    output_exceeded: bool = False  # killed at max_output bytes of stdout

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


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _ended(process: subprocess.Popen) -> bool:
    """Whether the process has ended, without reaping it (its resource usage is read later)."""
    if not hasattr(os, "waitid"):  # pragma: no cover - macOS
        return process.poll() is not None
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def run_limited(command: str, cwd: str, *, timeout: float, cpu_limit: float | None = None,
                memory_mib: float | None = None, max_output: int = 16 * 1024 * 1024,
                env: dict[str, str] | None = None) -> Outcome:
    """Run ``command`` in ``cwd`` under the limits; never raises for anything the command does."""
    cpu = int(-(-cpu_limit // 1)) if cpu_limit else 0
    memory = int(memory_mib * 1024 * 1024) if memory_mib else 0
    arguments = [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(cpu), str(memory), str(max_output + 1), command]
    started = time.perf_counter()
    process = subprocess.Popen(
        arguments, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, env=env,
    )
    stdout = bytearray()
    stderr = bytearray()
    timed_out = exceeded = False
    deadline = started + timeout
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    selector.register(process.stderr, selectors.EVENT_READ)
    ended_at: float | None = None
    try:
        while selector.get_map():
            now = time.perf_counter()
            if now >= deadline:
                timed_out = True
                _kill_group(process.pid)
                break
            if ended_at is None and _ended(process):
                ended_at = now
            if ended_at is not None and now - ended_at > 1.0:
                _kill_group(process.pid)  # children it left behind still hold the pipes
                ended_at = now + 3600
            for key, _ in selector.select(min(deadline - now, 0.2)):
                data = os.read(key.fd, 65536)
                if not data:
                    selector.unregister(key.fileobj)
                    continue
                if key.fileobj is process.stdout:
                    room = max_output - len(stdout)
                    stdout += data[:room]
                    if len(data) > room:
                        exceeded = True
                else:
                    stderr += data
                    del stderr[:-STDERR_KEPT]
            if exceeded:
                _kill_group(process.pid)
                break
    finally:
        selector.close()
        process.stdout.close()
        process.stderr.close()
    try:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = returncode = os.waitstatus_to_exitcode(status)
        cpu_time = round(usage.ru_utime + usage.ru_stime, 3)
    except ChildProcessError:
        returncode, cpu_time = process.wait(), None
    _kill_group(process.pid)  # anything the program left running
    return Outcome(returncode, bytes(stdout), bytes(stderr), round(time.perf_counter() - started, 3),
                   cpu_time, timed_out, exceeded)


__all__ = ["Outcome", "run_limited"]
