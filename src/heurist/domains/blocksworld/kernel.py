"""The ``deadlock`` heuristic compiled with numba, for every child of a state at once.

Long searches spend most of their time in ``deadlock``: on the 5-stack,
20-block challenge problems about two thirds of A*'s CPU time, even with the
evaluation from the parent (:class:`.heuristics._ParentGraph`). This module
computes the same values with a compiled kernel: one call per expanded state
evaluates every child (every pair of stacks) from scratch, with the waits-for
graph and its exact minimum feedback vertex set held in 64-bit masks, and the
search then reads the children's values from a list.

The values are those of the Python computation, exactly: both compute the
misplaced count plus the minimum feedback vertex set of the same graph, and a
minimum is a minimum (``tests/test_blocksworld_kernel.py`` compares them on
every state of searches and on random states). Only the speed differs.

numba is imported here and nowhere else, and this module is imported only
when a search has expanded :data:`.heuristics.KERNEL_AFTER` states, so short
searches and the command's start-up never pay for it. The kernel is compiled
once per machine and cached on disk by numba (``cache=True``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from heurist.domains.blocksworld.model import BlocksWorld, State

SEPARATOR = ord("|")
"""Stacks are passed to the kernel as one byte string, separated by this byte."""


@njit(cache=True, nogil=True)
def _popcount(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def _minimum_feedback_set(succ, pred, alive, n):  # pragma: no cover - compiled
    """Size of a smallest feedback vertex set of the graph on the nodes of ``alive``.

    ``succ[v]`` and ``pred[v]`` are masks, read through ``alive`` (bits of
    removed nodes may linger). The arrays are changed. The method is that of
    :mod:`.fvs`: nodes with no predecessor or no successor are dropped, a
    self-loop forces its node into the set, a node with one predecessor or
    one successor is bypassed (Levy & Low), then the busiest node is branched
    on: in the set, or bypassed.
    """
    forced = 0
    changed = True
    while changed:
        changed = False
        for v in range(n):
            bit = 1 << v
            if not alive & bit:
                continue
            s = succ[v] & alive
            p = pred[v] & alive
            if s & bit:
                forced += 1
                alive &= ~bit
                changed = True
            elif s == 0 or p == 0:
                alive &= ~bit
                changed = True
            elif (s & (s - 1)) == 0 or (p & (p - 1)) == 0:
                for u in range(n):
                    if p >> u & 1:
                        succ[u] |= s
                    if s >> u & 1:
                        pred[u] |= p
                alive &= ~bit
                changed = True
    if alive == 0:
        return forced
    pivot = -1
    degree = -1
    for v in range(n):
        if alive >> v & 1:
            d = _popcount(succ[v] & alive) + _popcount(pred[v] & alive)
            if d > degree:
                degree = d
                pivot = v
    bit = 1 << pivot
    size = _minimum_feedback_set(succ.copy(), pred.copy(), alive & ~bit, n)
    best = size + 1
    if size > 0:  # the other branch cannot beat a set of one
        s = succ[pivot] & alive
        p = pred[pivot] & alive
        for u in range(n):
            if p >> u & 1:
                succ[u] |= s
            if s >> u & 1:
                pred[u] |= p
        other = _minimum_feedback_set(succ, pred, alive & ~bit, n)
        if other < best:
            best = other
    return forced + best


@njit(cache=True, nogil=True)
def _value(stacks, heights, k, goal, goal_len, n, above, succ, pred):  # pragma: no cover - compiled
    """The ``deadlock`` value of the state in ``stacks``/``heights`` (the rest are work arrays)."""
    misplaced = 0
    in_stack = np.zeros(k, np.int64)
    prefix = np.zeros(k, np.int64)
    for s in range(k):
        p = 0
        while p < heights[s] and p < goal_len[s] and stacks[s, p] == goal[s, p]:
            p += 1
        prefix[s] = p
        mask = 0
        for h in range(heights[s] - 1, p - 1, -1):
            b = stacks[s, h]
            above[b] = mask
            mask |= 1 << b
        in_stack[s] = mask
        misplaced += heights[s] - p
    if misplaced == 0:
        return 0
    twice = 0
    nodes = 0
    for v in range(n):
        succ[v] = 0
        pred[v] = 0
    for s in range(k):
        blockers = in_stack[s]
        for h in range(prefix[s], goal_len[s]):
            b = goal[s, h]
            bit = 1 << b
            if blockers & bit:
                twice |= bit
            elif blockers:
                succ[b] = blockers
                nodes |= bit
            blockers |= above[b]
    alive = nodes & ~twice
    for v in range(n):
        if alive >> v & 1:
            targets = succ[v] & alive
            succ[v] = targets
            for u in range(n):
                if targets >> u & 1:
                    pred[u] |= 1 << v
    return misplaced + _popcount(twice) + _minimum_feedback_set(succ, pred, alive, n)


@njit(cache=True, nogil=True)
def _decode(text, k, index_of, n):  # pragma: no cover - compiled
    """The stacks in ``text`` (letters, stacks separated by :data:`SEPARATOR`) as block numbers, bottom
    first, and each stack's height."""
    stacks = np.zeros((k, n + 1), np.int64)
    heights = np.zeros(k, np.int64)
    s = 0
    for c in text:
        if c == SEPARATOR:
            s += 1
        else:
            stacks[s, heights[s]] = index_of[c]
            heights[s] += 1
    return stacks, heights


@njit(cache=True, nogil=True)
def children_values(text, k, index_of, goal, goal_len, n, out):  # pragma: no cover - compiled
    """``out[source * k + target]``: the ``deadlock`` value of each child of the state in ``text``.

    ``text`` holds the stacks as bytes (block letters), separated by
    :data:`SEPARATOR`; ``index_of`` maps a letter's code to its block number.
    Entries for an empty source stack or for source == target are left alone.
    """
    stacks, heights = _decode(text, k, index_of, n)
    above = np.zeros(n, np.int64)
    succ = np.zeros(n, np.int64)
    pred = np.zeros(n, np.int64)
    for source in range(k):
        if heights[source] == 0:
            continue
        block = stacks[source, heights[source] - 1]
        heights[source] -= 1
        for target in range(k):
            if target == source:
                continue
            stacks[target, heights[target]] = block
            heights[target] += 1
            out[source * k + target] = _value(stacks, heights, k, goal, goal_len, n, above, succ, pred)
            heights[target] -= 1
        heights[source] += 1
        stacks[source, heights[source] - 1] = block


@njit(cache=True, nogil=True)
def state_value(text, k, index_of, goal, goal_len, n):  # pragma: no cover - compiled
    """The ``deadlock`` value of the state in ``text`` itself (same encoding as :func:`children_values`)."""
    stacks, heights = _decode(text, k, index_of, n)
    above = np.zeros(n, np.int64)
    succ = np.zeros(n, np.int64)
    pred = np.zeros(n, np.int64)
    return _value(stacks, heights, k, goal, goal_len, n, above, succ, pred)


class CompiledDeadlock:
    """The goal tables of one problem in the kernel's form, and a buffer for children's values."""

    def __init__(self, problem: BlocksWorld):
        blocks = problem.blocks
        self.k = problem.stack_count
        self.n = len(blocks)
        self.index_of = np.zeros(128, np.int64)
        for index, block in enumerate(blocks):
            self.index_of[ord(block)] = index
        longest = max((len(tower) for tower in problem.goal_state), default=0)
        self.goal = np.zeros((self.k, longest + 1), np.int64)
        self.goal_len = np.zeros(self.k, np.int64)
        for stack, tower in enumerate(problem.goal_state):
            self.goal_len[stack] = len(tower)
            for height, block in enumerate(tower):
                self.goal[stack, height] = blocks.index(block)
        self._out = np.zeros(self.k * self.k, np.int64)

    def children(self, state: State) -> list[int]:
        """Index ``source * k + target``: the value of the child moving the top of ``source`` onto ``target``."""
        text = "|".join(state).encode("ascii")
        children_values(text, self.k, self.index_of, self.goal, self.goal_len, self.n, self._out)
        return self._out.tolist()

    def value(self, state: State) -> int:
        """The value of ``state`` itself."""
        text = "|".join(state).encode("ascii")
        return int(state_value(text, self.k, self.index_of, self.goal, self.goal_len, self.n))
