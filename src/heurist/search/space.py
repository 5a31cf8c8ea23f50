"""Whole state spaces as arrays: every state reachable from the start, every edge, and h*.

:func:`explore` enumerates the component of the start of any problem (a
breadth-first search that numbers the states in the order it meets them,
the start first) and records every edge. :func:`distances_to_goal` then
computes the exact goal distance h* of every state by searching the
*reversed* edges from all goal states at once: a layer-at-a-time
breadth-first search when every move costs 1, Dijkstra's algorithm (scipy)
otherwise. Working on the reversed edges makes one method right for every
domain: reversible ones (Klotski, Blocks World), where the backward search
is the textbook one, and ones whose moves only accumulate (Blokus), where it
is equivalent to a memoised forward search over the same reachable states.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DEFAULT_MAX_STATES = 10_000_000
"""Largest component explored by default. A state costs about 1 KiB while the
space is built (the state object, its index entry and its edges), so ten
million states stay well within 24 GiB."""


EDGES_PER_STATE = 20
"""The edges kept are limited to this many per allowed state (24 bytes each), so that domains
with many moves per state (Blokus) stop before their edges fill the memory."""


class StateSpaceTooLarge(Exception):
    """The component of the start has more states (or edges) than the limit allows."""

    def __init__(self, limit: int, what: str = "states"):
        self.limit = limit
        super().__init__(f"more than {limit:,} {what} are reachable from the start")


@dataclass
class StateSpace:
    """The reachable component of a problem, with exact goal distances.

    ``states[i]`` is state ``i`` (``states[0]`` the start); edge ``k`` goes
    from ``source[k]`` to ``target[k]`` and costs ``cost[k]``; ``distance[i]``
    is h*(state i), ``inf`` when no goal is reachable from it.
    """

    problem: Any
    states: list
    goal: np.ndarray
    source: np.ndarray
    target: np.ndarray
    cost: np.ndarray
    distance: np.ndarray = field(default_factory=lambda: np.zeros(0))
    method: str = "python"
    seconds: float = 0.0

    @property
    def size(self) -> int:
        return len(self.states)

    @property
    def edge_count(self) -> int:
        return int(self.source.size)

    @property
    def initial_distance(self) -> float:
        return float(self.distance[0])


def explore(problem: Any, max_states: int = DEFAULT_MAX_STATES, *, expand_goals: bool = True) -> StateSpace:
    """Every state reachable from ``problem.initial_state`` and every edge, in plain Python.

    With ``expand_goals=False`` goal states are kept but not expanded: right for
    domains whose goals are absorbing (every successor of a goal is a goal, so
    h* = 0 below it), where it leaves out only goal states that no path
    reaches without passing through another goal.
    """
    start = problem.initial_state
    is_goal = problem.is_goal
    index = {start: 0}
    states = [start]
    source, target, cost = array("q"), array("q"), array("d")
    successors = problem.successors
    max_edges = EDGES_PER_STATE * max_states
    position = 0
    while position < len(states):
        if len(source) > max_edges:
            raise StateSpaceTooLarge(max_edges, "edges")
        state = states[position]
        if not expand_goals and is_goal(state):
            position += 1
            continue
        for _, child, step_cost in successors(state):
            number = index.get(child)
            if number is None:
                number = len(states)
                if number >= max_states:
                    raise StateSpaceTooLarge(max_states)
                index[child] = number
                states.append(child)
            source.append(position)
            target.append(number)
            cost.append(step_cost)
        position += 1
    goal = np.fromiter((bool(is_goal(state)) for state in states), dtype=bool, count=len(states))
    return StateSpace(
        problem,
        states,
        goal,
        np.frombuffer(source, dtype=np.int64),
        np.frombuffer(target, dtype=np.int64),
        np.frombuffer(cost, dtype=np.float64),
    )


def distances_to_goal(size: int, source: np.ndarray, target: np.ndarray, cost: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """h* of every state: the cheapest cost from it to any goal (``inf`` if none is reachable)."""
    if size == 0:
        return np.zeros(0)
    if cost.size == 0 or bool(np.all(cost == 1)):
        return _unit_cost_distances(size, source, target, goal)
    return _dijkstra_distances(size, source, target, cost, goal)


def _ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The concatenation of ``range(starts[i], ends[i])`` for every i, vectorised."""
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(ends - np.cumsum(lengths), lengths)
    return offsets + np.arange(total, dtype=np.int64)


def _unit_cost_distances(size: int, source: np.ndarray, target: np.ndarray, goal: np.ndarray) -> np.ndarray:
    order = np.argsort(target, kind="stable")
    predecessors = source[order]
    pointer = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(target, minlength=size), out=pointer[1:])
    distance = np.full(size, np.inf)
    frontier = np.flatnonzero(goal)
    distance[frontier] = 0
    layer = 0
    while frontier.size:
        layer += 1
        reached = predecessors[_ranges(pointer[frontier], pointer[frontier + 1])]
        reached = np.sort(reached[np.isinf(distance[reached])])
        if reached.size:
            keep = np.ones(reached.size, dtype=bool)
            keep[1:] = reached[1:] != reached[:-1]
            reached = reached[keep]
        distance[reached] = layer
        frontier = reached
    return distance


def _dijkstra_distances(
    size: int, source: np.ndarray, target: np.ndarray, cost: np.ndarray, goal: np.ndarray
) -> np.ndarray:
    # Imported here, not at the top: only weighted spaces need scipy, and it is slow to import.
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    goals = np.flatnonzero(goal)
    if goals.size == 0:
        return np.full(size, np.inf)
    # A sparse matrix adds up parallel edges; keep only the cheapest of each.
    key = source * size + target
    order = np.lexsort((cost, key))
    first = np.ones(order.size, dtype=bool)
    first[1:] = key[order][1:] != key[order][:-1]
    kept = order[first]
    reversed_graph = csr_matrix((cost[kept], (target[kept], source[kept])), shape=(size, size))
    return np.asarray(dijkstra(reversed_graph, directed=True, indices=goals, min_only=True), dtype=float)


Builder = Callable[[Any, int], StateSpace]


def build_state_space(problem: Any, max_states: int = DEFAULT_MAX_STATES, builder: Builder | None = None) -> StateSpace:
    """Explore the component of the start (with ``builder``, default :func:`explore`) and add h*."""
    started = time.perf_counter()
    space = (builder or explore)(problem, max_states)
    space.distance = distances_to_goal(space.size, space.source, space.target, space.cost, space.goal)
    space.seconds = time.perf_counter() - started
    return space


def exact_distances(problem: Any, max_states: int = DEFAULT_MAX_STATES) -> dict:
    """h* by state, for every state of the start's component from which a goal can be reached."""
    space = build_state_space(problem, max_states)
    return {state: distance for state, distance in zip(space.states, space.distance.tolist()) if distance != np.inf}
