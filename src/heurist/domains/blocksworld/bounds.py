"""Stronger lower bounds for Blocks World on few stacks: the ``parking`` heuristic.

The ``deadlock`` heuristic counts the misplaced blocks and the fewest blocks
that must move twice (a minimum feedback vertex set of the waits-for graph).
With few stacks many blocks need a third move: a block that moves exactly
twice has to *park* somewhere between its two moves, and the stack it parks on
is frozen under it until it leaves. ``parking`` adds what that costs.

Vocabulary (as in :mod:`heurist.domains.blocksworld.heuristics`): a block is
*misplaced* unless it lies on the longest common bottom prefix of its stack in
the state and in the goal; a misplaced block a *waits for* b when b is now
above a stack slot or block that a must end up above, so b's first move comes
before a's last move. For a misplaced block c write pred(c) for the misplaced
blocks below c in c's goal stack: each must make its last move before c's.

**Parking lemma.** Let a misplaced block c, now on stack S and bound for goal
stack T, move exactly twice, and let P be the stack its first move goes to.
Then P is neither S (a move changes stacks) nor T (the second move, c's last,
goes onto T, so it cannot start from T). Let c' be a misplaced block now on P
that waits for c and that must move before c's last move (c' is in pred(c),
or c waits for c'). Then c' moves at least twice: if it moved once, that
move would come after c's first move (c' waits for c), so c' would still be
on P, under c, when c arrives, and could not move before c leaves P with its
last move; but c' has to move before that.

**Freeze lemma.** In the same situation, nothing that is put on P while c
waits there stays: c must be on top of P again for its last move. So a
misplaced block d whose goal stack is P, that waits for c and that c waits
for, moves at least twice: if it moved once, that move would put d on P for
good, after c's first move (d waits for c) and before c's last move (c waits
for d), while c is parked on P.

So, for each parking stack P (P not S, not T), let W(c, P) be the blocks c'
and d of the two lemmas for P. If W(c, P) is non-empty for *every* such P,
any plan satisfies the clause

    c moves at most once, or c moves three times or more,
    or for some P every block of W(c, P) moves at least twice.

With three stacks P is the one stack other than S and T (or either other
stack when c is on its goal stack already), so such clauses are common.

    h = misplaced + min over the choices of |X2| + |X3|

where X2 (the blocks moving at least twice) is a feedback vertex set of the
waits-for graph, X3 (blocks moving three times or more) lies in X2, and every
clause holds. **Admissible:** the blocks that move at least twice and three
times in an optimal plan are such a choice (X2 is a feedback vertex set, as
in ``deadlock``; the clauses hold by the lemmas), and the plan has at least
misplaced + |X2| + |X3| moves. The minimum is computed over the first
``CLAUSE_LIMIT`` clauses (dropping clauses only lowers it): each clause is
branched on (c out of X2: c is bypassed in the graph, which keeps every cycle
through it; c in X3; or c and W(c, P) in X2 for one P), and the remaining
graph's minimum feedback vertex set is added. Targets from the plain minimum
upwards are tried in turn, cutting branches that cannot meet the target; if
``BRANCH_LIMIT`` branching nodes do not settle it, the last target not
refuted is used, which is still a lower bound. So ``parking`` never falls
below ``deadlock``, and its value depends only on the state.

Consistency is not proved (the search reopens states, so A* stays optimal).
Checked against exact distances over complete 4-6 block spaces on 3 and 4
stacks (tests and ``benchmarks/blocksworld_admissibility.py``).
"""

from __future__ import annotations

from heurist.domains.blocksworld.fvs import bits as _bits
from heurist.domains.blocksworld.fvs import graph_feedback_set_size as _fvs
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.domains.blocksworld.model import BlocksWorld, State

CLAUSE_LIMIT = 20
"""At most this many parking clauses are branched on per state (the rest are dropped, which is sound)."""

BRANCH_LIMIT = 400
"""At most this many branching nodes per state; past it the count proven so far is used (still a lower bound)."""




def _common_prefix(current: str, goal: str) -> int:
    length = 0
    shorter = min(len(current), len(goal))
    while length < shorter and current[length] == goal[length]:
        length += 1
    return length


class _WaitsFor:
    """The waits-for graph of a state, and where each misplaced block is and must go (bit masks)."""

    __slots__ = (
        "misplaced",
        "waits",
        "earlier",
        "stack_of",
        "goal_stack_of",
        "on_stack",
        "bound_for",
    )

    def __init__(self, state: State, problem: BlocksWorld):
        bit = problem.bit
        prefixes = [
            _common_prefix(current, goal) for current, goal in zip(state, problem.goal_state)
        ]
        self.misplaced = 0
        self.waits: dict[
            int, int
        ] = {}  # misplaced block -> the blocks it waits for (itself included if so)
        self.earlier: dict[
            int, int
        ] = {}  # misplaced block -> pred(): misplaced blocks below it in its goal stack
        self.stack_of: dict[int, int] = {}
        self.goal_stack_of: dict[int, int] = {}
        self.on_stack: list[int] = []  # per stack: the misplaced blocks on it
        self.bound_for: list[int] = [0] * len(
            state
        )  # per stack: the misplaced blocks whose goal stack it is
        above: dict[int, int] = {}
        for stack, (current, length) in enumerate(zip(state, prefixes)):
            mask = 0
            for block in reversed(current[length:]):
                above[bit[block]] = mask
                mask |= bit[block]
                self.stack_of[bit[block]] = stack
            self.on_stack.append(mask)
            self.misplaced += len(current) - length
        for stack, (goal, length) in enumerate(zip(problem.goal_state, prefixes)):
            blockers = self.on_stack[stack]
            below = 0
            for block in goal[length:]:
                node = bit[block]
                self.waits[node] = blockers
                self.earlier[node] = below
                self.goal_stack_of[node] = stack
                self.bound_for[stack] |= node
                below |= node
                blockers |= above[node]

    def clauses(self) -> list[tuple[int, list[int]]]:
        """(c, [W(c, P) for each parking stack P]) for every block c with no free parking stack."""
        found = []
        stacks = range(len(self.on_stack))
        for block in self.waits:
            options = []
            for parking in stacks:
                if parking in (self.stack_of[block], self.goal_stack_of[block]):
                    continue
                blocking = 0
                needed = (self.earlier[block] | self.waits[block]) & self.on_stack[parking]
                needed |= self.waits[block] & self.bound_for[parking]
                for other in _bits(needed):
                    if self.waits[other] & block:
                        blocking |= other
                if not blocking:
                    break
                options.append(blocking)
            else:
                if options:
                    found.append((block, sorted(options, key=int.bit_count)))
        return found


@HEURISTICS.register("parking")
def parking(state: State, problem: BlocksWorld) -> int:
    """Misplaced blocks + blocks moving twice + blocks that must move a third time to park.

    Admissible (proof in :mod:`heurist.domains.blocksworld.bounds`): every
    plan has at least misplaced + |X2| + |X3| moves for a feedback vertex set
    X2 of the waits-for graph and a set X3 of X2 that satisfy the parking
    clauses, and this is the least such count. Never below ``deadlock``.
    """
    graph = _WaitsFor(state, problem)
    if not graph.misplaced:
        return 0
    waits = graph.waits
    floor = _fvs(waits)  # every blocker is a misplaced block, hence a node
    clauses = graph.clauses()[:CLAUSE_LIMIT]
    if not clauses:
        return graph.misplaced + floor
    key = (tuple(waits.items()), tuple((block, tuple(options)) for block, options in clauses))
    known = _PARKING_CACHE.get(key)
    if known is not None:
        return graph.misplaced + known
    best = _least_count(waits, clauses, floor)
    if len(_PARKING_CACHE) >= _PARKING_CACHE_LIMIT:
        _PARKING_CACHE.clear()
    _PARKING_CACHE[key] = best
    return graph.misplaced + best


class _OutOfNodes(Exception):
    """The branching for one state used up ``BRANCH_LIMIT`` nodes."""


def _least_count(waits: dict[int, int], clauses: list[tuple[int, list[int]]], floor: int) -> int:
    """The least |X2| + |X3| meeting the clauses, or a proven lower bound on it if branching runs long.

    Tries the targets floor, floor + 1, ... in turn: a depth-first search looks
    for a choice within the target, cutting a branch when its cost so far plus
    the remaining graph's minimum feedback vertex set exceeds it (bypassing a
    node never lowers that minimum, removing one lowers it by at most one).
    When ``BRANCH_LIMIT`` nodes have been visited in all, the current target is
    returned: every smaller one was refuted, so it is still a lower bound.
    """
    visited = 0

    def fits(index: int, remaining: dict[int, int], cost: int, removed: int, target: int) -> bool:
        nonlocal visited
        visited += 1
        if visited > BRANCH_LIMIT:
            raise _OutOfNodes
        if cost + _fvs(remaining) > target:
            return False
        if index == len(clauses):
            return True
        block, options = clauses[index]
        if block & removed and any(blocking & ~removed == 0 for blocking in options):
            return fits(index + 1, remaining, cost, removed, target)  # the clause holds already
        if not block & removed:
            if not remaining[block] & block and fits(
                index + 1, _bypass(remaining, block), cost, removed, target
            ):
                return True  # c moves at most once
            cost += 1
            removed |= block
            remaining = _without(remaining, block)
        for blocking in options:  # c parks on P; the blocks of W(c, P) move twice
            new = blocking & ~removed
            if fits(
                index + 1, _without(remaining, new), cost + new.bit_count(), removed | new, target
            ):
                return True
        return fits(index + 1, remaining, cost + 1, removed, target)  # c moves three times or more

    target = floor
    try:
        while not fits(0, waits, 0, 0, target):
            target += 1
    except _OutOfNodes:
        pass
    return target


_PARKING_CACHE: dict[tuple, int] = {}
"""(waits-for graph, clauses) -> the least |X2| + |X3|: states often share both."""
_PARKING_CACHE_LIMIT = 200_000


def _without(graph: dict[int, int], mask: int) -> dict[int, int]:
    """The graph less the nodes in ``mask`` (they are in the vertex set)."""
    if not mask:
        return graph
    keep = ~mask
    return {node: successors & keep for node, successors in graph.items() if not node & mask}


def _bypass(graph: dict[int, int], node: int) -> dict[int, int]:
    """The graph less ``node`` (not in the vertex set), its predecessors linked to its successors."""
    successors = graph[node]
    bypassed = {}
    for other, targets in graph.items():
        if other != node:
            bypassed[other] = (targets & ~node) | successors if targets & node else targets
    return bypassed
