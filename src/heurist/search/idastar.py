"""Iterative-deepening A* (Korf 1985).

Depth-first searches bounded by f = g + h; each iteration raises the bound to
the smallest f that exceeded it. Memory is linear in the plan length. States
on the current path are not revisited (cycle checking), but the search does
not remember states across branches, so on puzzles with many transpositions
it re-expands states many times. The plan is optimal when h is admissible.
"""

from __future__ import annotations

import math

from heurist.search.best_first import zero_heuristic
from heurist.search.limits import Limits, LimitWatch, SearchStopped
from heurist.search.plan import finish
from heurist.search.problem import Heuristic, Problem
from heurist.search.statistics import SearchResult, Statistics, Status


def iterative_deepening_astar_search(
    problem: Problem, heuristic: Heuristic = zero_heuristic, *, limits: Limits | None = None
) -> SearchResult:
    stats = Statistics()
    watch = LimitWatch(limits)
    start = problem.initial_state
    successors, is_goal = problem.successors, problem.is_goal

    def evaluate(state) -> float:
        stats.evaluations += 1
        return heuristic(state, problem)

    h_start = evaluate(start)
    stats.initial_h_value = h_start
    bound = h_start
    next_check = 0
    try:
        while bound < math.inf:
            stats.expansions_until_last_jump = stats.expansions
            next_bound = math.inf
            path_states = [start]
            path_actions: list = []
            path_costs = [0.0]
            on_path = {start}
            # One iterator of (action, child, step) per state on the path; None until expanded.
            branches: list = [None]
            h_path = [h_start]
            while branches:
                state, g = path_states[-1], path_costs[-1]
                if branches[-1] is None:
                    f = g + h_path[-1]
                    if f > bound:
                        next_bound = min(next_bound, f)
                        _backtrack(path_states, path_actions, path_costs, on_path, branches, h_path)
                        continue
                    if stats.expansions >= next_check:
                        limit = watch.check(stats.expansions, len(branches), bound)
                        if limit:
                            stats.evaluated = stats.evaluations
                            return finish("idastar", Status.LIMIT_REACHED, stats, watch, limit=limit)
                        next_check = watch.next_check
                    stats.expansions += 1
                    if is_goal(state):
                        stats.evaluated = stats.evaluations
                        return finish(
                            "idastar",
                            Status.SOLVED,
                            stats,
                            watch,
                            actions=list(path_actions),
                            states=list(path_states),
                            cost=g,
                        )
                    branches[-1] = iter(successors(state))
                    stats.max_frontier = max(stats.max_frontier, len(branches))
                for action, child, step in branches[-1]:
                    stats.generated += 1
                    if child in on_path:
                        continue
                    child_h = evaluate(child)
                    if child_h == math.inf:
                        stats.dead_ends += 1
                        continue
                    path_states.append(child)
                    path_actions.append(action)
                    path_costs.append(g + step)
                    on_path.add(child)
                    branches.append(None)
                    h_path.append(child_h)
                    break
                else:
                    _backtrack(path_states, path_actions, path_costs, on_path, branches, h_path)
            bound = next_bound
    except SearchStopped as stopped:  # the CPU-time alarm or a second signal, mid-expansion
        stats.evaluated = stats.evaluations
        return finish("idastar", Status.LIMIT_REACHED, stats, watch, limit=stopped.reason)
    stats.evaluated = stats.evaluations
    return finish("idastar", Status.UNSOLVABLE, stats, watch)


def _backtrack(path_states, path_actions, path_costs, on_path, branches, h_path) -> None:
    on_path.discard(path_states.pop())
    if path_actions:
        path_actions.pop()
    path_costs.pop()
    branches.pop()
    h_path.pop()
