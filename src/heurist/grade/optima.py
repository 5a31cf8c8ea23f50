"""Optimal costs of the tests, by heurist's own A*, cached per test file.

The cache is one JSON file (default ``~/.cache/heurist/grade-optima.json``,
``$XDG_CACHE_HOME`` respected; ``--cache FILE`` elsewhere). An entry is keyed
by the domain, the SHA-256 of the test's bytes as collected, its options and
the heuristic, so an edited test file is solved again and a renamed one is not.

The file is untrusted: it is read only if it is a regular file (no link, no
FIFO), at most :data:`MAX_CACHE_BYTES`, and an entry of the wrong shape is
dropped. Graders sharing one cache lose nothing: :meth:`OptimumCache.save`
takes a lock beside the file, merges what is there with its own entries and
replaces the file in one step.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import stat
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from heurist.analysis.validation import Optimum, optimal_search
from heurist.domains import get_domain
from heurist.files import write_atomically
from heurist.grade.cases import Case
from heurist.search import Limits, Status, search

CACHE_VERSION = 2
MAX_CACHE_BYTES = 64 * 1024 * 1024


def default_cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "heurist" / "grade-optima.json"


@dataclass
class OptimumInfo:
    """What the optimal search found for one test: ``status`` solved, unsolvable or limit reached."""

    status: Status
    cost: float | None = None
    heuristic: str = ""
    seconds: float = 0.0
    limit: str | None = None

    def as_optimum(self) -> Optimum:
        if self.status is Status.SOLVED:
            return Optimum(Status.SOLVED, self.cost)
        if self.status is Status.UNSOLVABLE:
            return Optimum(Status.UNSOLVABLE)
        return Optimum(Status.LIMIT_REACHED, limit=self.limit or "time")

    def describe(self) -> str:
        return self.as_optimum().describe()

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "status": self.status.value}

    @classmethod
    def from_dict(cls, document: Any) -> OptimumInfo | None:
        """An entry read back, or None if it does not have the shape this module writes."""
        if not isinstance(document, dict):
            return None
        try:
            status = Status(document.get("status"))
        except ValueError:
            return None
        cost = document.get("cost")
        if status is Status.SOLVED and (isinstance(cost, bool) or not isinstance(cost, (int, float))
                                         or not math.isfinite(cost) or cost < 0):
            return None
        if status not in (Status.SOLVED, Status.UNSOLVABLE):
            return None
        heuristic, seconds = document.get("heuristic", ""), document.get("seconds", 0.0)
        if not isinstance(heuristic, str) or isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            return None
        return cls(status, float(cost) if status is Status.SOLVED else None, heuristic, float(seconds))


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    return value


def cache_key(case: Case, heuristic: str) -> str:
    options = json.dumps({name: _jsonable(value) for name, value in sorted(case.options.items())}, sort_keys=True)
    return f"{case.domain}|{case.sha256}|{options}|{heuristic}"


def solve_optimum(case: Case, heuristic: str | None = None, time_limit: float | None = None) -> OptimumInfo:
    """Solve ``case`` optimally: A* with ``heuristic``, or the domain's own optimal search
    (:func:`~heurist.analysis.validation.optimal_search`)."""
    domain = get_domain(case.domain)
    problem = case.problem()
    algorithm, name = optimal_search(domain, problem, heuristic)
    started = time.perf_counter()
    result = search(problem, algorithm, domain.heuristics.resolve(name), limits=Limits(time_limit=time_limit))
    seconds = round(time.perf_counter() - started, 3)
    if result.status is Status.INTERRUPTED:
        raise KeyboardInterrupt
    if result.status is Status.SOLVED:
        return OptimumInfo(Status.SOLVED, result.cost, name, seconds)
    if result.status is Status.UNSOLVABLE:
        return OptimumInfo(Status.UNSOLVABLE, None, name, seconds)
    return OptimumInfo(Status.LIMIT_REACHED, None, name, seconds, result.limit)


def read_cache(path: Path) -> dict[str, dict[str, Any]]:
    """The entries of the cache file at ``path``: empty if it is missing, not a regular file, too large or damaged."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return {}
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        return {}
    with os.fdopen(handle, "rb") as stream:
        data = stream.read(MAX_CACHE_BYTES + 1)
    if len(data) > MAX_CACHE_BYTES:
        return {}
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(document, dict) or document.get("version") != CACHE_VERSION:
        return {}
    optima = document.get("optima")
    if not isinstance(optima, dict):
        return {}
    return {key: entry for key, entry in optima.items()
            if isinstance(key, str) and OptimumInfo.from_dict(entry) is not None}


@contextlib.contextmanager
def _locked(path: Path):
    """An exclusive lock on ``PATH.lock`` (a regular file, never followed) while the block runs."""
    lock = path.with_name(path.name + ".lock")
    handle = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise OSError(f"{lock} is not a regular file")
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


class OptimumCache:
    """The JSON cache file; ``path=None`` keeps nothing between runs."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path is not None else None
        self.lock = threading.Lock()
        self.entries: dict[str, dict[str, Any]] = read_cache(self.path) if self.path is not None else {}
        self.new: dict[str, dict[str, Any]] = {}

    def get(self, case: Case, heuristic: str | None = None, time_limit: float | None = None) -> tuple[OptimumInfo, bool]:
        """The optimum of ``case`` and whether it came from the cache (limit outcomes are not cached)."""
        name = heuristic or get_domain(case.domain).default_heuristic
        key = cache_key(case, name)
        with self.lock:
            entry = self.entries.get(key)
        info = OptimumInfo.from_dict(entry) if entry is not None else None
        if info is not None:
            return info, True
        info = solve_optimum(case, name, time_limit)
        if info.status is not Status.LIMIT_REACHED:
            with self.lock:
                self.entries[key] = self.new[key] = info.as_dict()
        return info, False

    def save(self) -> None:
        """Merge this grader's new entries into the file, under the lock (nothing to do if there are none)."""
        if self.path is None or not self.new:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(self.path), self.lock:
            merged = {**read_cache(self.path), **self.new}
            document = {"version": CACHE_VERSION, "optima": dict(sorted(merged.items()))}
            write_atomically(self.path, json.dumps(document, indent=1) + "\n", replace_special=True)
            self.entries.update(merged)
            self.new.clear()


__all__ = ["OptimumCache", "OptimumInfo", "cache_key", "default_cache_path", "read_cache", "solve_optimum"]
