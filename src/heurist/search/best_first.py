"""One best-first loop serving uniform-cost search, A*, weighted A* and greedy search.

The algorithms differ only in the evaluation function f = a*g + b*h that
orders the frontier and in whether closed states may be reopened (after
aima-python's ``best_first_graph_search(problem, f)`` and pyperplan's
``search/a_star.py``).

Frontier entries are ``(f, h, counter, g, state)``: lowest f first, then
lowest h, then first in, first out. States themselves are never compared.
Outdated entries are skipped when popped instead of being updated in place.

With ``reopen_closed=True`` (A*, weighted A*) a closed state reached again by
a cheaper path goes back on the frontier, so A* stays optimal with an
admissible heuristic even when it is inconsistent.
"""

from __future__ import annotations

import heapq
import math

from heurist.search.limits import Limits, LimitWatch, SearchStopped
from heurist.search.plan import extract_plan, finish
from heurist.search.problem import Heuristic, Problem
from heurist.search.statistics import SearchResult, Statistics, Status


def zero_heuristic(state: object, problem: object) -> float:
    """h = 0 everywhere: admissible and consistent, and no help at all."""
    return 0


def best_first_search(
    problem: Problem,
    heuristic: Heuristic = zero_heuristic,
    *,
    g_weight: float = 1,
    h_weight: float = 1,
    reopen_closed: bool = True,
    limits: Limits | None = None,
    algorithm: str = "best-first",
) -> SearchResult:
    """Expand states in order of f = g_weight * g + h_weight * h; test for the goal on expansion.

    ``(1, 0)`` is uniform-cost search, ``(1, 1)`` A*, ``(1, w)`` weighted A*
    and ``(0, 1)`` greedy search.
    """
    stats = Statistics()
    watch = LimitWatch(limits)
    next_check = 0
    successors = problem.successors
    is_goal = problem.is_goal

    start = problem.initial_state
    h_start = heuristic(start, problem)
    stats.initial_h_value = h_start
    if h_start == math.inf:
        stats.evaluated = stats.evaluations = stats.dead_ends = 1
        return finish(algorithm, Status.UNSOLVABLE, stats, watch)

    # state -> (best g so far, h, parent state, action, step cost)
    record: dict = {start: (0, h_start, None, None, 0)}
    closed: set = set()
    inf = math.inf
    f_start = h_weight * h_start
    # The third field breaks ties first in, first out: ``generated`` only ever grows.
    frontier = [(f_start, h_start, 0, 0, start)]
    open_size = max_open = 1
    expansions = generated = reopened = dead_ends = 0
    layer = f_start
    until_last_jump = 0
    push, pop = heapq.heappush, heapq.heappop

    def stop(status: Status, limit: str | None = None, goal=None) -> SearchResult:
        stats.expansions, stats.generated, stats.reopened = expansions, generated, reopened
        stats.dead_ends, stats.max_frontier = dead_ends, max_open
        stats.evaluated = stats.evaluations = len(record)
        stats.expansions_until_last_jump = until_last_jump
        watch.keep(record, frontier, closed)
        if goal is None:
            return finish(algorithm, status, stats, watch, limit=limit)
        actions, states, cost = extract_plan(record, goal, offset=2)
        return finish(algorithm, status, stats, watch, actions=actions, states=states, cost=cost)

    try:
        while frontier:
            key, h, _, g, state = pop(frontier)
            if g > record[state][0]:
                continue  # outdated entry: a cheaper path to this state was found later
            if expansions >= next_check:
                limit = watch.check(expansions, open_size, layer)
                if limit:
                    return stop(Status.LIMIT_REACHED, limit)
                next_check = watch.next_check
            open_size -= 1
            closed.add(state)
            if key > layer:
                layer = key
                until_last_jump = expansions
            expansions += 1
            if is_goal(state):
                return stop(Status.SOLVED, goal=state)
            for action, child, step in successors(state):
                generated += 1
                child_g = g + step
                known = record.get(child)
                if known is None:
                    child_h = heuristic(child, problem)
                    if child_h == inf:
                        dead_ends += 1
                        record[child] = (-math.inf, child_h, state, action, step)
                        continue
                    open_size += 1
                elif child_g >= known[0]:
                    continue
                else:
                    child_h = known[1]
                    if child in closed:
                        if not reopen_closed:
                            continue
                        closed.discard(child)
                        reopened += 1
                        open_size += 1
                record[child] = (child_g, child_h, state, action, step)
                push(frontier, (g_weight * child_g + h_weight * child_h, child_h, generated, child_g, child))
            if open_size > max_open:
                max_open = open_size
    except SearchStopped as stopped:  # the CPU-time alarm or a second signal, mid-expansion
        return stop(Status.LIMIT_REACHED, stopped.reason)
    return stop(Status.UNSOLVABLE)


def uniform_cost_search(problem: Problem, heuristic: Heuristic = zero_heuristic, **options) -> SearchResult:
    """Dijkstra's algorithm: order by path cost g alone (the heuristic is ignored)."""
    return best_first_search(problem, zero_heuristic, g_weight=1, h_weight=0, algorithm="ucs", **options)


def astar_search(problem: Problem, heuristic: Heuristic = zero_heuristic, **options) -> SearchResult:
    """A*: f = g + h. Optimal with any admissible heuristic, since closed states are reopened."""
    return best_first_search(problem, heuristic, algorithm="astar", **options)


def weighted_astar_search(
    problem: Problem, heuristic: Heuristic = zero_heuristic, weight: float = 2.0, **options
) -> SearchResult:
    """Weighted A*: f = g + w*h. With an admissible h the cost is at most w times optimal."""
    if weight < 1:
        raise ValueError("the weight of weighted A* must be at least 1")
    return best_first_search(problem, heuristic, h_weight=weight, algorithm="wastar", **options)


def greedy_search(problem: Problem, heuristic: Heuristic = zero_heuristic, **options) -> SearchResult:
    """Greedy best-first search: f = h, closed states never reopened. Fast, not optimal."""
    options.setdefault("reopen_closed", False)
    return best_first_search(problem, heuristic, g_weight=0, algorithm="greedy", **options)
