"""One best-first loop serving uniform-cost search, A*, weighted A* and greedy search.

The algorithms differ only in the evaluation function ``f(g, h)`` that orders
the frontier and in whether closed states may be reopened (after
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
from collections.abc import Callable
from itertools import count

from heurist.search.limits import Limits, LimitWatch
from heurist.search.plan import extract_plan, finish
from heurist.search.problem import Heuristic, Problem
from heurist.search.statistics import SearchResult, Statistics, Status

Evaluation = Callable[[float, float], float]


def zero_heuristic(state: object, problem: object) -> float:
    """h = 0 everywhere: admissible and consistent, and no help at all."""
    return 0


def best_first_search(
    problem: Problem,
    f: Evaluation,
    heuristic: Heuristic = zero_heuristic,
    *,
    reopen_closed: bool = True,
    limits: Limits | None = None,
    algorithm: str = "best-first",
) -> SearchResult:
    """Expand states in order of ``f(g, h)``; test for the goal when a state is expanded."""
    stats = Statistics()
    watch = LimitWatch(limits)
    successors = problem.successors
    is_goal = problem.is_goal

    start = problem.initial_state
    h_start = heuristic(start, problem)
    stats.evaluated = stats.evaluations = 1
    stats.initial_h_value = h_start
    if h_start == math.inf:
        stats.dead_ends = 1
        return finish(algorithm, Status.UNSOLVABLE, stats, watch)

    h_value = {start: h_start}
    best_g = {start: 0}
    parents: dict = {start: None}
    closed: set = set()
    tie = count()
    frontier = [(f(0, h_start), h_start, next(tie), 0, start)]
    open_size = max_open = 1
    expansions = generated = reopened = dead_ends = 0
    layer = frontier[0][0]
    until_last_jump = 0

    def stop(status: Status, limit: str | None = None, goal=None) -> SearchResult:
        stats.expansions, stats.generated, stats.reopened = expansions, generated, reopened
        stats.dead_ends, stats.max_frontier = dead_ends, max_open
        stats.evaluated = stats.evaluations = len(h_value)
        stats.expansions_until_last_jump = until_last_jump
        if goal is None:
            return finish(algorithm, status, stats, watch, limit=limit)
        actions, states, cost = extract_plan(parents, goal)
        return finish(algorithm, status, stats, watch, actions=actions, states=states, cost=cost)

    while frontier:
        key, h, _, g, state = heapq.heappop(frontier)
        if g > best_g[state] or state in closed:
            continue  # outdated entry, or already expanded without reopening
        limit = watch.exceeded(expansions)
        if limit:
            return stop(Status.LIMIT_REACHED, limit)
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
            known_g = best_g.get(child)
            if known_g is not None:
                if child_g >= known_g:
                    continue
                if child in closed:
                    if not reopen_closed:
                        continue
                    closed.discard(child)
                    reopened += 1
                    open_size += 1
                child_h = h_value[child]
            else:
                child_h = heuristic(child, problem)
                h_value[child] = child_h
                if child_h == math.inf:
                    dead_ends += 1
                    best_g[child] = child_g
                    closed.add(child)
                    continue
                open_size += 1
            best_g[child] = child_g
            parents[child] = (state, action, step)
            heapq.heappush(frontier, (f(child_g, child_h), child_h, next(tie), child_g, child))
        if open_size > max_open:
            max_open = open_size
    return stop(Status.UNSOLVABLE)


def uniform_cost_search(problem: Problem, heuristic: Heuristic = zero_heuristic, **options) -> SearchResult:
    """Dijkstra's algorithm: order by path cost g alone (the heuristic is ignored)."""
    return best_first_search(problem, lambda g, h: g, zero_heuristic, algorithm="ucs", **options)


def astar_search(problem: Problem, heuristic: Heuristic = zero_heuristic, **options) -> SearchResult:
    """A*: f = g + h. Optimal with any admissible heuristic, since closed states are reopened."""
    return best_first_search(problem, lambda g, h: g + h, heuristic, algorithm="astar", **options)


def weighted_astar_search(
    problem: Problem, heuristic: Heuristic = zero_heuristic, weight: float = 2.0, **options
) -> SearchResult:
    """Weighted A*: f = g + w*h. With an admissible h the cost is at most w times optimal."""
    if weight < 1:
        raise ValueError("the weight of weighted A* must be at least 1")
    return best_first_search(
        problem, lambda g, h: g + weight * h, heuristic, algorithm="wastar", **options
    )


def greedy_search(problem: Problem, heuristic: Heuristic = zero_heuristic, **options) -> SearchResult:
    """Greedy best-first search: f = h, closed states never reopened. Fast, not optimal."""
    options.setdefault("reopen_closed", False)
    return best_first_search(problem, lambda g, h: h, heuristic, algorithm="greedy", **options)
