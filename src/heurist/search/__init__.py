"""Domain-independent search: algorithms, limits, statistics and heuristic lookup.

Every algorithm has the signature ``algorithm(problem, heuristic, *, limits=None)``
and returns a :class:`SearchResult`. :func:`search` picks one by name, and
also bounds the heuristic's preparation by the time limit, stops cleanly on
SIGINT and SIGTERM and can show a progress line::

    from heurist.search import search
    result = search(problem, "astar", heuristic=my_h)
    print(result.cost, result.statistics.expansions)

The heuristic may also be named (``"manhattan"``, ``"my_file.py:h"``) when
the problem carries its domain's registry (every heurist domain's problems
do, as ``problem.heuristics``); left out, it is the domain's default.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext

from heurist.search.best_first import (
    astar_search,
    best_first_search,
    greedy_search,
    uniform_cost_search,
    weighted_astar_search,
    zero_heuristic,
)
from heurist.search.heuristics import HeuristicRegistry, load_user_heuristic, prepare_heuristic
from heurist.search.idastar import iterative_deepening_astar_search
from heurist.search.limits import (
    INTERRUPTED,
    Limits,
    SearchSession,
    SearchStopped,
    clock,
    peak_rss_kib,
)
from heurist.search.problem import Heuristic, Problem
from heurist.search.progress import ProgressLine, progress_reporter
from heurist.search.statistics import SearchResult, Statistics, Status
from heurist.search.uninformed import breadth_first_search, depth_first_search

ALGORITHMS: dict[str, Callable[..., SearchResult]] = {
    "bfs": breadth_first_search,
    "dfs": depth_first_search,
    "ucs": uniform_cost_search,
    "astar": astar_search,
    "wastar": weighted_astar_search,
    "greedy": greedy_search,
    "idastar": iterative_deepening_astar_search,
}
"""Algorithms by their command-line names."""

OPTIMAL_ALGORITHMS = {"bfs", "ucs", "astar", "idastar"}
"""Optimal with an admissible heuristic (bfs: optimal in the number of actions)."""

UNINFORMED_ALGORITHMS = {"bfs", "dfs", "ucs"}
"""Algorithms that ignore the heuristic: it is neither prepared nor called."""


def resolve_heuristic(problem: Problem, heuristic: Heuristic | str | None = None) -> Heuristic:
    """``heuristic`` as a function: a function as it is; a name through the problem's registry
    (``problem.heuristics``, a :class:`HeuristicRegistry`), or ``file.py:function``; None gives the
    problem's ``default_heuristic``, or :func:`zero_heuristic` for a problem that names none."""
    if callable(heuristic):
        return heuristic
    registry = getattr(problem, "heuristics", None)
    if heuristic is None:
        default = getattr(problem, "default_heuristic", None)
        return registry.resolve(default) if registry is not None and default else zero_heuristic
    if not isinstance(heuristic, str):
        raise TypeError(f"a heuristic is a function h(state, problem) or a name, not {type(heuristic).__name__}")
    if registry is not None:
        return registry.resolve(heuristic)
    if heuristic == "zero":
        return zero_heuristic
    return load_user_heuristic(heuristic)


def search(
    problem: Problem,
    algorithm: str | Callable[..., SearchResult] | None = None,
    heuristic: Heuristic | str | None = None,
    *,
    weight: float = 2.0,
    limits: Limits | None = None,
    progress: bool | ProgressLine | None = False,
) -> SearchResult:
    """Prepare the heuristic, run ``algorithm`` by name and return its result.

    With neither ``algorithm`` nor ``heuristic``, the problem may choose the
    pair (``problem.default_search()``: IDA* with pattern databases for a
    15-puzzle); otherwise ``algorithm`` defaults to A*. ``algorithm`` is one
    of :data:`ALGORITHMS` by name (``"astar"``, ``"idastar"``...) or a function
    of the same signature (``astar_search``, or your own);
    ``heuristic`` a function ``h(state, problem)``, a name, or None for the
    domain's default (:func:`resolve_heuristic`); ``weight`` is weighted A*'s;
    ``limits`` bound time, expansions and memory
    (:class:`~heurist.search.limits.Limits`).

    ``statistics.total_time`` includes the heuristic's preparation (pattern
    databases, say); ``statistics.search_time`` does not. The time limit
    bounds both. A problem that searches over representatives of symmetric
    states may offer ``unfold_plan(states) -> (actions, states)``; the plan
    is then turned back into real states before it is returned.

    While it runs (in the main thread), SIGINT and SIGTERM end the search as
    a limit does: the result has status ``interrupted`` and the statistics so
    far (:func:`heurist.search.limits.interrupt_signal` tells which signal).
    ``progress=True`` draws a live progress line on standard error when it
    is a terminal (:mod:`heurist.search.progress`).
    """
    if algorithm is None:
        chooser = getattr(problem, "default_search", None)
        algorithm, heuristic = chooser() if heuristic is None and chooser is not None else ("astar", heuristic)
    if callable(algorithm):
        run = algorithm
        algorithm = next((name for name, known in ALGORITHMS.items() if known is run), run.__name__)
    elif algorithm in ALGORITHMS:
        run = ALGORITHMS[algorithm]
    else:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    heuristic = resolve_heuristic(problem, heuristic)
    if algorithm in UNINFORMED_ALGORITHMS:
        heuristic = zero_heuristic  # nothing to prepare (a pattern database, say) for a search that ignores it
    options = {"limits": limits}
    if algorithm == "wastar":
        options["weight"] = weight
    with SearchSession(limits, progress_reporter(progress)) as session:
        try:
            name = getattr(heuristic, "heuristic_name", None) or getattr(heuristic, "__name__", "?")
            with session.progress.preparing(name) if session.progress is not None else nullcontext():
                setup = prepare_heuristic(heuristic, problem)
            session.begin_search()
            result = _specialised(heuristic, algorithm, problem, run)(problem, heuristic, **options)
        except SearchStopped as stopped:  # while preparing, or before the algorithm's loop began
            return _stopped_early(algorithm, stopped, session)
    result.statistics.total_time = setup + result.statistics.search_time
    result.problem = problem
    unfold = getattr(problem, "unfold_plan", None)
    if result.solved and unfold is not None:
        result.actions, result.states = unfold(result.states)
    return result


def _specialised(heuristic: Heuristic, algorithm: str, problem: Problem,
                 generic: Callable[..., SearchResult]) -> Callable[..., SearchResult]:
    """The heuristic's own implementation of ``algorithm`` for ``problem``, if it offers one; else ``generic``.

    A heuristic may have a method ``specialised(algorithm, problem)`` that
    returns a function with the algorithm's signature and contract (the same
    plan and the same statistics as the generic algorithm would give with
    this heuristic, limits and interruptions honoured alike), typically
    compiled code that knows the domain; or None. The engine stays
    domain-free: it only asks.
    """
    offer = getattr(heuristic, "specialised", None)
    if not callable(offer) or generic is not ALGORITHMS.get(algorithm):  # a caller's own function runs as given
        return generic
    return offer(algorithm, problem) or generic


def _stopped_early(algorithm: str, stopped: SearchStopped, session: SearchSession) -> SearchResult:
    """The result of a search stopped before its algorithm could report statistics."""
    statistics = Statistics(total_time=clock() - session.started, memory=peak_rss_kib())
    if stopped.reason == INTERRUPTED:
        return SearchResult(Status.INTERRUPTED, algorithm, statistics=statistics)
    return SearchResult(Status.LIMIT_REACHED, algorithm, statistics=statistics, limit=stopped.reason)


__all__ = [
    "ALGORITHMS",
    "OPTIMAL_ALGORITHMS",
    "UNINFORMED_ALGORITHMS",
    "Heuristic",
    "HeuristicRegistry",
    "Limits",
    "Problem",
    "ProgressLine",
    "SearchResult",
    "Statistics",
    "Status",
    "astar_search",
    "best_first_search",
    "breadth_first_search",
    "depth_first_search",
    "greedy_search",
    "iterative_deepening_astar_search",
    "load_user_heuristic",
    "prepare_heuristic",
    "resolve_heuristic",
    "search",
    "uniform_cost_search",
    "weighted_astar_search",
    "zero_heuristic",
]
