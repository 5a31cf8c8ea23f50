"""Optimal costs of the tests, by heurist's own A*, cached per test file.

The cache is one JSON file (default ``~/.cache/heurist/grade-optima.json``,
``$XDG_CACHE_HOME`` respected; ``--cache FILE`` elsewhere). An entry is keyed
by the domain, the SHA-256 of the test file's bytes, its options and the
heuristic, so an edited test file is solved again and a renamed one is not.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from heurist.analysis.domains import load_problem
from heurist.analysis.validation import Optimum
from heurist.domains import get_domain
from heurist.files import write_atomically
from heurist.grade.cases import Case
from heurist.search import Limits, Status, search

CACHE_VERSION = 1


def default_cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "heurist" / "grade-optima.json"


def file_hash(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass
class OptimumInfo:
    """What the optimal search found for one test: ``status`` solved, unsolvable or limit."""

    status: str
    cost: float | None = None
    score: int | None = None  # Blokus: tiles on the board at the optimal plan's end (game.py's "score")
    heuristic: str = ""
    seconds: float = 0.0
    limit: str | None = None

    def as_optimum(self) -> Optimum:
        if self.status == "solved":
            return Optimum(Status.SOLVED, self.cost)
        if self.status == "unsolvable":
            return Optimum(Status.UNSOLVABLE)
        return Optimum(Status.LIMIT_REACHED, limit=self.limit or "time")

    def describe(self) -> str:
        return self.as_optimum().describe()


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    return value


def cache_key(case: Case, heuristic: str) -> str:
    options = json.dumps({name: _jsonable(value) for name, value in sorted(case.options.items())}, sort_keys=True)
    return f"{case.domain}|{file_hash(case.path)}|{options}|{heuristic}"


def solve_optimum(case: Case, heuristic: str | None = None, time_limit: float | None = None) -> OptimumInfo:
    """Solve ``case`` with A* and an admissible heuristic (the domain's default)."""
    domain = get_domain(case.domain)
    name = heuristic or domain.default_heuristic
    problem = load_problem(domain, case.path, **case.options)
    started = time.perf_counter()
    result = search(problem, "astar", domain.heuristics.resolve(name), limits=Limits(time_limit=time_limit))
    seconds = round(time.perf_counter() - started, 3)
    if result.status is Status.SOLVED:
        score = problem.score(result.states[-1]) if hasattr(problem, "score") else None
        return OptimumInfo("solved", result.cost, score, name, seconds)
    if result.status is Status.UNSOLVABLE:
        return OptimumInfo("unsolvable", None, None, name, seconds)
    return OptimumInfo("limit", None, None, name, seconds, result.limit)


class OptimumCache:
    """The JSON cache file; ``path=None`` keeps nothing between runs."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path is not None else None
        self.entries: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()
        if self.path is not None and self.path.is_file():
            try:
                document = json.loads(self.path.read_text(encoding="utf-8"))
                if document.get("version") == CACHE_VERSION:
                    self.entries = dict(document.get("optima", {}))
            except (OSError, ValueError, AttributeError):
                self.entries = {}  # a damaged cache is rebuilt, never trusted

    def get(self, case: Case, heuristic: str | None = None, time_limit: float | None = None) -> tuple[OptimumInfo, bool]:
        """The optimum of ``case`` and whether it came from the cache (limit outcomes are not cached)."""
        name = heuristic or get_domain(case.domain).default_heuristic
        key = cache_key(case, name)
        with self.lock:
            entry = self.entries.get(key)
        if entry is not None:
            return OptimumInfo(**entry), True
        info = solve_optimum(case, name, time_limit)
        if info.status != "limit":
            with self.lock:
                self.entries[key] = asdict(info)
        return info, False

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.lock:
            document = {"version": CACHE_VERSION, "optima": dict(sorted(self.entries.items()))}
        write_atomically(self.path, json.dumps(document, indent=1) + "\n")


__all__ = ["OptimumCache", "OptimumInfo", "cache_key", "default_cache_path", "file_hash", "solve_optimum"]
