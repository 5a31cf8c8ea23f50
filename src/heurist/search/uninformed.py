"""Breadth-first and depth-first graph search.

Both prune multiple paths: a state is expanded at most once. Breadth-first
search tests for the goal when a state is generated, so it returns a plan
with the fewest actions (and so the cheapest plan when every action costs
the same). Depth-first search tests when a state is expanded and returns a
legal plan, usually a long one.
"""

from __future__ import annotations

from collections import deque

from heurist.search.best_first import zero_heuristic
from heurist.search.limits import Limits, LimitWatch, SearchStopped
from heurist.search.plan import extract_plan, finish
from heurist.search.problem import Heuristic, Problem
from heurist.search.statistics import SearchResult, Statistics, Status


def breadth_first_search(
    problem: Problem, heuristic: Heuristic = zero_heuristic, *, limits: Limits | None = None
) -> SearchResult:
    """Breadth-first graph search; the heuristic is ignored."""
    stats = Statistics()
    watch = LimitWatch(limits)
    start = problem.initial_state
    parents: dict = {start: (None, None, 0)}

    def stop(status: Status, limit: str | None = None, goal=None) -> SearchResult:
        stats.max_frontier = max(stats.max_frontier, len(frontier))
        if goal is None:
            return finish("bfs", status, stats, watch, limit=limit)
        actions, states, cost = extract_plan(parents, goal)
        return finish("bfs", status, stats, watch, actions=actions, states=states, cost=cost)

    frontier = deque([start])
    if problem.is_goal(start):
        return stop(Status.SOLVED, goal=start)
    successors, is_goal = problem.successors, problem.is_goal
    next_check = 0
    try:
        while frontier:
            if stats.expansions >= next_check:
                limit = watch.check(stats.expansions, len(frontier))
                if limit:
                    return stop(Status.LIMIT_REACHED, limit)
                next_check = watch.next_check
            if len(frontier) > stats.max_frontier:
                stats.max_frontier = len(frontier)
            state = frontier.popleft()
            stats.expansions += 1
            for action, child, step in successors(state):
                stats.generated += 1
                if child in parents:
                    continue
                parents[child] = (state, action, step)
                if is_goal(child):
                    return stop(Status.SOLVED, goal=child)
                frontier.append(child)
    except SearchStopped as stopped:  # the CPU-time alarm or a second signal, mid-expansion
        return stop(Status.LIMIT_REACHED, stopped.reason)
    return stop(Status.UNSOLVABLE)


def depth_first_search(
    problem: Problem, heuristic: Heuristic = zero_heuristic, *, limits: Limits | None = None
) -> SearchResult:
    """Depth-first graph search with multi-path pruning; the heuristic is ignored.

    Successors are explored in the order the problem yields them: the first
    successor is expanded first.
    """
    stats = Statistics()
    watch = LimitWatch(limits)
    start = problem.initial_state
    parents: dict = {}
    stack: list = [(start, (None, None, 0))]
    successors, is_goal = problem.successors, problem.is_goal
    next_check = 0

    def stop(status: Status, limit: str | None = None, goal=None) -> SearchResult:
        if goal is None:
            return finish("dfs", status, stats, watch, limit=limit)
        actions, states, cost = extract_plan(parents, goal)
        return finish("dfs", status, stats, watch, actions=actions, states=states, cost=cost)

    try:
        while stack:
            state, link = stack.pop()
            if state in parents:
                continue
            if stats.expansions >= next_check:
                limit = watch.check(stats.expansions, len(stack))
                if limit:
                    return stop(Status.LIMIT_REACHED, limit)
                next_check = watch.next_check
            parents[state] = link
            stats.expansions += 1
            if is_goal(state):
                return stop(Status.SOLVED, goal=state)
            children = [
                (child, (state, action, step))
                for action, child, step in successors(state)
                if child not in parents
            ]
            stats.generated += len(children)
            children.reverse()
            stack.extend(children)
            if len(stack) > stats.max_frontier:
                stats.max_frontier = len(stack)
    except SearchStopped as stopped:  # the CPU-time alarm or a second signal, mid-expansion
        return stop(Status.LIMIT_REACHED, stopped.reason)
    return stop(Status.UNSOLVABLE)
