"""Resource limits that end a search cleanly, with the statistics gathered so far."""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass

_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MEMORY_CHECK_EVERY = 2048


@dataclass(frozen=True)
class Limits:
    """Optional caps on a search. ``None`` means unlimited.

    ``time_limit`` is in CPU seconds (see :func:`clock`); ``memory_limit`` is in
    MiB of resident memory for the whole process.
    """

    max_expansions: int | None = None
    time_limit: float | None = None
    memory_limit: float | None = None


def current_rss_kib() -> int:
    """Resident memory of this process in KiB (Linux ``/proc``; peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_SIZE // 1024
    except OSError:
        return peak_rss_kib()


def peak_rss_kib() -> int:
    """Peak resident memory of this process in KiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def clock() -> float:
    """CPU seconds used by this process: what search times and time limits measure.

    As in Fast Downward and pyperplan, CPU time rather than wall-clock time, so
    figures do not depend on what else the machine is doing.
    """
    return time.process_time()


class LimitWatch:
    """Checks limits once per expansion; cheap enough for the hot loop.

    ``exceeded(expansions)`` returns the name of the limit that was hit
    (``"expansions"``, ``"time"`` or ``"memory"``), or ``None``.
    """

    def __init__(self, limits: Limits | None, start: float | None = None):
        limits = limits or Limits()
        self.start = clock() if start is None else start
        self.max_expansions = limits.max_expansions
        self.deadline = None if limits.time_limit is None else self.start + limits.time_limit
        self.memory_kib = None if limits.memory_limit is None else limits.memory_limit * 1024
        self.active = any(x is not None for x in (self.max_expansions, self.deadline, self.memory_kib))

    def exceeded(self, expansions: int) -> str | None:
        if not self.active:
            return None
        if self.max_expansions is not None and expansions >= self.max_expansions:
            return "expansions"
        if self.deadline is not None and clock() >= self.deadline:
            return "time"
        if (
            self.memory_kib is not None
            and expansions % _MEMORY_CHECK_EVERY == 0
            and current_rss_kib() >= self.memory_kib
        ):
            return "memory"
        return None

    def elapsed(self) -> float:
        return clock() - self.start
