"""The processes of the runs going on, so that an interrupted bench ends them all at once.

Each run's process is recorded while it runs: a search's child process, or a
planner's ``Popen`` that leads its own session (the planner's driver and its
search form one process group). :func:`stop_all_runs` kills them all, and any
that starts afterwards, then stops multiprocessing's fork server and resource
tracker, which would otherwise notice the bench is gone only a second or two
later.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import Any

_RUNNING: set[Any] = set()  # the child processes and planner process groups of the runs going on
_RUNNING_LOCK = threading.Lock()
_STOPPING = threading.Event()


def track(process: Any) -> None:
    """Record a run's process (a multiprocessing ``Process`` or a ``Popen`` leading its own process group)."""
    with _RUNNING_LOCK:
        if _STOPPING.is_set():
            kill(process)
        _RUNNING.add(process)


def untrack(process: Any) -> None:
    with _RUNNING_LOCK:
        _RUNNING.discard(process)


def kill(process: Any) -> None:
    """Kill a run's process at once: a planner's whole process group, a search's child process."""
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError, ValueError, AttributeError):
        if hasattr(process, "poll"):  # a Popen that leads its own session
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()


def stop_all_runs() -> None:
    """The bench was interrupted: kill every run going on now, and any that starts after."""
    _STOPPING.set()
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for process in running:
        kill(process)
    _stop_helpers()


def _stop_helpers() -> None:
    """End multiprocessing's fork server and resource tracker now rather than when they notice the bench is
    gone (about 1.6 s later); both are private helpers, stopped only where the standard library can."""
    from multiprocessing import forkserver, resource_tracker

    for helper in (getattr(forkserver, "_forkserver", None), getattr(resource_tracker, "_resource_tracker", None)):
        with contextlib.suppress(Exception):
            helper._stop()


def allow_runs() -> None:
    """A new bench in this process may start runs again."""
    _STOPPING.clear()


__all__ = ["allow_runs", "kill", "stop_all_runs", "track", "untrack"]
