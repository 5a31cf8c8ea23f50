"""The course's two Blokus search strategies, ``sub-optimal`` and ``mini-contest``.

* :func:`closest_location_search` (``sub-optimal``, the course's
  ``ClosestLocationSearch``): repeatedly cover the nearest uncovered target;
  fast, not optimal.
* :func:`mini_contest_search` (``mini-contest``, the course's
  ``MiniContestSearch``): an optimal cover within a time budget.

Both run several searches on the problems of :mod:`.model` with the ``reach``
heuristic and its batched bounds (:mod:`.reach`), and count the course's
"Expanded nodes" in ``problem.expanded`` as the problems do.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from heurist.domains.blokus.board import Board, Placement
from heurist.domains.blokus.heuristics import reach
from heurist.domains.blokus.model import (
    AnyState,
    BlokusProblem,
    CoverProblem,
    TreeOrderCoverProblem,
)
from heurist.domains.blokus.pieces import Cell
from heurist.domains.blokus.reach import reach_below, reach_children, reach_floors, target_bound
from heurist.search import Limits, SearchResult, Statistics, Status, search
from heurist.search.limits import clock


@dataclass
class StrategyResult:
    """What the sub-optimal and mini-contest strategies return."""

    result: SearchResult
    expanded: int
    proven_optimal: bool
    searches: list[SearchResult] = field(default_factory=list)
    note: str = ""


def _combine(algorithm: str, status: Status, parts: list[SearchResult], started: float) -> SearchResult:
    """One result for a sequence of searches: concatenated plan, summed statistics."""
    stats = Statistics()
    for part in parts:
        for name in ("expansions", "generated", "evaluated", "evaluations", "reopened", "dead_ends"):
            setattr(stats, name, getattr(stats, name) + getattr(part.statistics, name))
        stats.max_frontier = max(stats.max_frontier, part.statistics.max_frontier)
        stats.memory = max(stats.memory, part.statistics.memory)
    if parts:
        stats.initial_h_value = parts[0].statistics.initial_h_value
    stats.search_time = stats.total_time = clock() - started
    actions: list = []
    states: list = []
    for part in parts:
        actions += part.actions
        states += part.states if not states else part.states[1:]
    cost = sum(part.cost or 0 for part in parts) if status is Status.SOLVED else None
    limit = parts[-1].limit if parts and status is not Status.SOLVED else None
    return SearchResult(
        status=status, algorithm=algorithm, actions=actions, states=states, cost=cost, statistics=stats, limit=limit
    )


def closest_location_search(problem: BlokusProblem, limits: Limits | None = None) -> StrategyResult:
    """The course's ``ClosestLocationSearch``: cover the nearest uncovered target, repeat.

    "Nearest" is the admissible ``reach`` bound of the cost to cover that
    target alone (ties: the first target in the list). Each sub-search is an
    A* search for the cheapest cover of that one target which also keeps every
    other uncovered target coverable (a move that boxes one in is a dead end).
    The expanded count is the sum over the sub-searches, as the course asks.
    If a sub-search fails, the remaining targets are searched for together.
    """
    started = clock()
    state = problem.initial_state
    parts: list[SearchResult] = []
    expanded = 0
    while not problem.is_goal(state):
        uncovered = [t for t in problem.targets if not state[0] & problem.board.bit(*t)]
        nearest = min(uncovered, key=lambda t: target_bound(state, problem, t))
        others = tuple(t for t in uncovered if t != nearest)
        sub = CoverProblem(problem.board, problem.start, (nearest,), initial=state, protected=others)
        result = search(sub, "astar", reach, limits=_remaining(limits, started))
        expanded += sub.expanded
        if not result.solved:
            sub = CoverProblem(problem.board, problem.start, tuple(uncovered), initial=state)
            result = search(sub, "astar", reach, limits=_remaining(limits, started))
            expanded += sub.expanded
        parts.append(result)
        if not result.solved:
            problem.expanded += expanded
            return StrategyResult(_combine("sub-optimal", result.status, parts, started), expanded, False, parts)
        state = result.states[-1]
    problem.expanded += expanded
    return StrategyResult(_combine("sub-optimal", Status.SOLVED, parts, started), expanded, False, parts)


DEFAULT_BUDGET = 30.0
"""The mini-contest's time limit in seconds, as the assignment states it."""


def mini_contest_search(
    problem: BlokusProblem, budget: float = DEFAULT_BUDGET, limits: Limits | None = None
) -> StrategyResult:
    """The course's ``MiniContestSearch``: an optimal cover, found within ``budget`` CPU seconds.

    1. A first plan from :func:`closest_location_search`, then a better one,
       usually, from weighted A* (w = 1.2) on the :class:`TreeOrderCoverProblem`
       (until a quarter of the budget).
    2. A* with the admissible ``reach`` heuristic on the same problem, pruning
       every state whose f = g + h reaches the best plan's cost (it cannot
       lead to a cheaper plan; ``reach_below`` skips the exact Steiner trees
       when the cheaper bound already prunes), until 90% of the budget: if it finds a plan,
       that plan is optimal; if it runs out of states, the best plan is.
    3. Otherwise the best plan is returned, not proven optimal, with the
       largest f that A* took from its frontier as a lower bound on the
       optimum (A* with an admissible heuristic never takes a node with f
       above the optimal cost).

    The note says which plan was returned and what is proven. The budget is
    in CPU seconds, like every heurist time limit.
    """
    started = clock()
    limits = limits or Limits()
    total = budget if limits.time_limit is None else min(budget, limits.time_limit)

    def until(fraction: float) -> Limits:
        left = max(total * fraction - (clock() - started), 1e-3)
        return replace(limits, time_limit=left)

    closest = closest_location_search(problem, until(0.1))
    expanded = closest.expanded
    searches = list(closest.searches)
    best, how = closest.result, "the sub-optimal search"
    weighted_problem = _ReachedTreeOrderProblem(
        problem.board, problem.start, problem.targets, initial=problem.initial_state
    )
    weighted = search(weighted_problem, "wastar", weighted_problem.heuristic, weight=WEIGHT, limits=until(0.25))
    expanded += weighted_problem.expanded
    searches.append(weighted)
    if weighted.solved and (not best.solved or weighted.cost < best.cost):
        best, how = weighted, f"weighted A* (w = {WEIGHT})"
    bound_to_beat = best.cost if best.solved else math.inf
    ordered = _BoundedProblem(problem.board, problem.start, problem.targets, problem.initial_state, bound_to_beat)
    optimal = search(ordered, "astar", ordered.heuristic, limits=until(0.9))
    expanded += ordered.expanded
    searches.append(optimal)
    problem.expanded += expanded - closest.expanded  # closest_location_search counted its own
    if optimal.solved:
        return StrategyResult(optimal, expanded, True, searches, "A* found a cheaper plan: optimal")
    if optimal.status is Status.UNSOLVABLE:
        if not best.solved:
            return StrategyResult(optimal, expanded, False, searches, "no cover exists")
        return StrategyResult(best, expanded, True, searches, f"plan from {how}; A* proved that none is cheaper")
    note = (
        f"A* did not finish ({optimal.limit} limit); plan from {how}, cost {best.cost}, "
        f"not proven optimal: the optimum is at least {ordered.lower_bound:g}"
    )
    return StrategyResult(best, expanded, False, searches, note)


WEIGHT = 1.2
"""Weight of the weighted A* that finds the mini-contest's first good plan."""


class _ReachedTreeOrderProblem(TreeOrderCoverProblem):
    """The tree-ordered cover problem computing ``reach`` of all the children of a state together.

    ``heuristic`` is ``reach``, the same values: the successors compute them
    with :func:`reach_children`, which shares the exact Steiner trees'
    work between siblings, and ``heuristic`` reads them back.
    """

    def __init__(self, board: Board, start: Cell, targets: tuple[Cell, ...], initial: AnyState):
        super().__init__(board, start, targets, initial=initial)
        self.known_h: dict[AnyState, float] = {}

    def heuristic(self, state: AnyState, problem: BlokusProblem) -> float:
        value = self.known_h.pop(state, None)
        return reach(state, self) if value is None else value

    def successors(self, state: AnyState) -> Iterator[tuple[Placement, AnyState, int]]:
        self.expanded += 1
        occupied, used, _ = state
        orders = self._legal_orders(state)
        targets = self.target_mask
        known_h = self.known_h
        known_h.clear()  # the engine asks for the h of a child right after generating it
        placements = self.board.placements
        for order, value in zip(orders.tolist(), reach_children(self, state, orders)):
            move = placements[order]
            child = (occupied | move.mask, used | 1 << move.piece, 0 if move.mask & targets else move.mask)
            known_h[child] = value
            yield move, child, len(move.cells)


class _BoundedProblem(TreeOrderCoverProblem):
    """The tree-ordered cover problem with every state whose f = g + ``reach`` reaches a bound left out.

    A* on it is A* with the heuristic "``reach``, or infinity when f reaches
    the bound" (branch and bound: such a state cannot lead to a plan cheaper
    than the bound), with the pruned children not generated at all instead
    of being evaluated one by one: :func:`reach_floors` bounds ``reach`` of
    all the children of a state together, and ``reach`` itself (through
    ``reach_below``, which may stop at a smaller value that already prunes)
    is computed only for the children whose floor stays below the bound.
    The children kept and their h are the same either way, so are the
    expansions, their order and the plan.

    ``heuristic`` gives the h computed when a state was generated. It also
    records the largest f = g + h that A* takes from its frontier: a lower
    bound on the optimum (``lower_bound``).
    """

    def __init__(self, board: Board, start: Cell, targets: tuple[Cell, ...], initial: AnyState, bound: float):
        super().__init__(board, start, targets, initial=initial)
        self.bound = bound
        self.known_h: dict[AnyState, float] = {}
        self.lower_bound: float = 0
        self._tiles_at_start = initial[0].bit_count()

    def heuristic(self, state: AnyState, problem: BlokusProblem) -> float:
        value = self.known_h.get(state)
        if value is None:  # the initial state; children get theirs in ``successors``
            value = self._bounded_reach(state, self.bound - self._g(state))
        return value

    def _g(self, state: AnyState) -> int:
        return state[0].bit_count() - self._tiles_at_start

    def _bounded_reach(self, state: AnyState, limit: float) -> float:
        value = reach_below(state, self, limit)
        if value >= limit:
            return math.inf
        self.known_h[state] = value
        return value

    def successors(self, state: AnyState) -> Iterator[tuple[Placement, AnyState, int]]:
        self.expanded += 1
        occupied, used, _ = state
        board = self.board
        orders = self._legal_orders(state)
        room = self.bound - self._g(state)  # a child of s tiles is pruned when reach >= room - s
        if room < math.inf:
            # a child of s tiles is pruned when its reach is at least room - s; floors are exact below room - 1
            floors = reach_floors(self, state, orders, int(room) - 1)
            if floors is not None:
                orders = orders[floors < room - board.move_arrays().size[orders]]
        placements = board.placements
        targets = self.target_mask
        known_h = self.known_h
        for order in orders.tolist():
            move = placements[order]
            size = len(move.cells)
            child = (occupied | move.mask, used | 1 << move.piece, 0 if move.mask & targets else move.mask)
            if child not in known_h and self._bounded_reach(child, room - size) == math.inf:
                continue
            yield move, child, size

    def is_goal(self, state: AnyState) -> bool:
        f = self._g(state) + self.known_h.get(state, 0)
        if f > self.lower_bound:
            self.lower_bound = f
        return super().is_goal(state)


def _remaining(limits: Limits | None, started: float) -> Limits | None:
    if limits is None or limits.time_limit is None:
        return limits
    left = max(limits.time_limit - (clock() - started), 1e-6)
    return replace(limits, time_limit=left)
