"""The course's own search, for ``heurist blokus``: the numbers a student's ``game.py`` prints.

The exercise hands out a ``search.py`` skeleton; every public solution we
compared (four of them, 2022-2024) completes it the same way, the classic
Berkeley completion: one generic graph search over a fringe of nodes
(state, actions, cost)::

    push the start node
    while the fringe is not empty:
        node = pop()
        if is_goal_state(node.state): return node.actions   # goal test on pop
        if node.state in visited: continue                  # closed set checked on pop
        visited.add(node.state)
        for successor, action, step in get_successors(node.state):
            push(child node)                                # duplicates are pushed too

DFS uses ``util.Stack`` (the last successor pushed is expanded first), BFS
``util.Queue``, UCS and A* ``util.PriorityQueue`` keyed on g and g + h. The
course's ``util.PriorityQueue`` stores ``(priority, item)`` in a heap and,
since nodes do not compare, patches the node class's ``<`` to return True;
ties are then broken by the heap's own comparisons, reproduced here.

"Expanded nodes" is ``problem.expanded``, which the course's problem code
increments in ``get_successors``: one per closed node, the goal not included.

The order of the successors matters as much as the fringe: ``get_legal_moves``
enumerates pieces in file order, then columns, then rows, then the piece's
orientations in the iteration order of the ``frozenset`` the course's
``pieces.py`` builds (eight transforms of the drawing as ``(x, y)`` offsets,
added to a set in a fixed order). :func:`course_pieces` gives a piece set whose
orientations come in that order; the board then generates moves exactly as
``game.py`` does. heurist's generic search engine (``heurist solve``) tests for
the goal on generation in BFS, expands the first successor first in DFS and
orders orientations its own way, so its counts differ (and are smaller).
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import replace

from heurist.domains.blokus.pieces import PieceSet, Shape
from heurist.search import Limits, SearchResult, Statistics, Status
from heurist.search.limits import LimitWatch
from heurist.search.plan import finish

COURSE_ALGORITHMS = ("dfs", "bfs", "ucs", "astar")


def _positive(values: list[int]) -> list[int]:
    """Negate every value and shift so that the smallest is 0 (the course's ``negate_list_positive``)."""
    negated = [-v for v in values]
    low = min(negated)
    return [v - low for v in negated]


def course_orientation_order(shape: Shape) -> tuple[Shape, ...]:
    """The distinct orientations of ``shape`` in the order ``game.py`` tries them.

    The course's piece holds the frozenset of eight (x, y) transforms: the
    drawing, rotated clockwise once, twice and three times, and each of those
    mirrored (x negated), added in that order to a set that is then frozen.
    Iterating that frozenset gives the order; it is Python's own set order,
    so it is computed here the same way rather than tabulated.
    """
    xs = [c for _, c in shape]
    ys = [r for r, _ in shape]
    xs_flipped, ys_flipped = _positive(xs), _positive(ys)
    transforms = [(xs, ys), (ys, xs_flipped), (xs_flipped, ys_flipped), (ys_flipped, xs)]
    transforms += [(_positive(x), y) for x, y in transforms]
    found: set = set()
    for x, y in transforms:
        found.add(frozenset(zip(x, y)))
    frozen = frozenset(found)
    return tuple(tuple(sorted((y, x) for x, y in orientation)) for orientation in frozen)


def course_pieces(pieces: PieceSet) -> PieceSet:
    """The same pieces with their orientations in the course's order (see :func:`course_orientation_order`)."""
    return replace(
        pieces,
        pieces=tuple(replace(piece, orientations=course_orientation_order(piece.orientations[0]))
                     for piece in pieces.pieces),
    )


class _Node:
    """A fringe node: the state, its parent node, the action from the parent, and g."""

    __slots__ = ("state", "parent", "action", "cost")

    def __init__(self, state, parent, action, cost):
        self.state, self.parent, self.action, self.cost = state, parent, action, cost

    def __lt__(self, other) -> bool:  # util.PriorityQueue's patch: ties keep the heap's order
        return True


class _Stack:
    def __init__(self):
        self.items: list = []

    def push(self, node: _Node) -> None:
        self.items.append(node)

    def pop(self) -> _Node:
        return self.items.pop()


class _Queue(_Stack):
    def __init__(self):
        self.items = deque()

    def pop(self) -> _Node:
        return self.items.popleft()


class _PriorityQueue(_Stack):
    def __init__(self, priority):
        self.items = []
        self.priority = priority

    def push(self, node: _Node) -> None:
        heapq.heappush(self.items, (self.priority(node), node))

    def pop(self) -> _Node:
        return heapq.heappop(self.items)[1]


def course_search(problem, algorithm: str, heuristic=None, *, limits: Limits | None = None) -> SearchResult:
    """Graph search as the course's solutions complete ``search.py`` (see the module's docstring).

    ``statistics.expansions`` is the course's count: calls to the successor
    function (closed nodes), the goal not included. ``problem.expanded``
    counts the same calls.
    """
    if algorithm == "dfs":
        fringe = _Stack()
    elif algorithm == "bfs":
        fringe = _Queue()
    elif algorithm == "ucs":
        fringe = _PriorityQueue(lambda node: node.cost)
    elif algorithm == "astar":
        h = heuristic or (lambda state, problem: 0)
        fringe = _PriorityQueue(lambda node: node.cost + h(node.state, problem))
    else:
        raise ValueError(f"unknown search function {algorithm!r}; choose one of {', '.join(COURSE_ALGORITHMS)}")
    stats = Statistics()
    watch = LimitWatch(limits)
    visited: set = set()
    start = problem.initial_state
    if algorithm == "astar":
        stats.initial_h_value = h(start, problem)
    fringe.push(_Node(start, None, None, 0))
    successors, is_goal = problem.successors, problem.is_goal
    while fringe.items:
        stats.max_frontier = max(stats.max_frontier, len(fringe.items))
        node = fringe.pop()
        state = node.state
        if is_goal(state):
            return _solution(algorithm, node, stats, watch)
        if state in visited:
            continue
        limit = watch.exceeded(stats.expansions)
        if limit:
            return finish(algorithm, Status.LIMIT_REACHED, stats, watch, limit=limit)
        visited.add(state)
        stats.expansions += 1
        for action, child, step in successors(state):
            stats.generated += 1
            fringe.push(_Node(child, node, action, node.cost + step))
    return finish(algorithm, Status.UNSOLVABLE, stats, watch)


def _solution(algorithm: str, goal: _Node, stats: Statistics, watch: LimitWatch) -> SearchResult:
    actions, states = [], []
    node = goal
    while node is not None:
        states.append(node.state)
        if node.parent is not None:
            actions.append(node.action)
        node = node.parent
    actions.reverse()
    states.reverse()
    return finish(algorithm, Status.SOLVED, stats, watch, actions=actions, states=states, cost=goal.cost)
