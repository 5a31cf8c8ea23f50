"""Blocks World: the fast ``deadlock`` evaluation equals a straightforward computation from the definition.

``deadlock`` evaluates a freshly generated child from its parent's waits-for
graph and any other state from scratch. Both are checked here against a
reference written directly from the definition in docs/blocksworld.md: the
waits-for relation built block by block, and the minimum feedback vertex set
found by trying every set of blocks, smallest first.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.domains.blocksworld.heuristics import HEURISTICS, _deadlock_from_scratch
from heurist.domains.blocksworld.model import BlocksWorld, State

LETTERS = "ABCDEFGHIJKL"


def reference_deadlock(state: State, goal: State) -> int:
    """misplaced + minimum feedback vertex set of the waits-for graph, by the definition."""
    where = {}  # block -> (stack, height) now
    for stack, tower in enumerate(state):
        for height, block in enumerate(tower):
            where[block] = (stack, height)
    misplaced = set()
    for current, target in zip(state, goal):
        prefix = 0
        while prefix < min(len(current), len(target)) and current[prefix] == target[prefix]:
            prefix += 1
        misplaced.update(current[prefix:])

    def now_above(block: str, support: str | int) -> bool:
        """Is ``block`` now above ``support`` (a block, or a stack position given as an int)?"""
        stack, height = where[block]
        if isinstance(support, int):
            return stack == support
        support_stack, support_height = where[support]
        return stack == support_stack and height > support_height

    waits = {}
    for a in misplaced:
        goal_stack = next(index for index, tower in enumerate(goal) if a in tower)
        supports = [goal_stack, *goal[goal_stack][: goal[goal_stack].index(a)]]
        waits[a] = {b for b in misplaced if any(now_above(b, support) for support in supports)}

    def acyclic(nodes: set[str]) -> bool:
        remaining = set(nodes)
        while remaining:
            sinks = {a for a in remaining if not waits[a] & remaining}
            if not sinks:
                return False
            remaining -= sinks
        return True

    blocks = sorted(misplaced)
    for size in range(len(blocks) + 1):
        for chosen in itertools.combinations(blocks, size):
            if acyclic(misplaced - set(chosen)):
                return len(misplaced) + size
    raise AssertionError("removing every block leaves no cycle")


@st.composite
def placements(draw: st.DrawFn, blocks: str, stack_count: int) -> State:
    order = draw(st.permutations(blocks))
    stacks = [draw(st.integers(0, stack_count - 1)) for _ in order]
    return tuple("".join(block for block, stack in zip(order, stacks) if stack == index) for index in range(stack_count))


@st.composite
def problems(draw: st.DrawFn, max_blocks: int = 12) -> BlocksWorld:
    stack_count = draw(st.integers(3, 6))
    blocks = LETTERS[: draw(st.integers(1, max_blocks))]
    goal = draw(placements(blocks, stack_count))
    if draw(st.booleans()):
        start = draw(placements(blocks, stack_count))
    else:  # near the goal, where many blocks are in position
        start = goal
        for choice in draw(st.lists(st.integers(0, 10**6), max_size=6)):
            children = [child for _, child, _ in BlocksWorld(start, goal).successors(start)]
            start = children[choice % len(children)]
    return BlocksWorld(start, goal)


@settings(max_examples=150, deadline=None)
@given(problems())
def test_children_evaluated_from_the_parent_match_the_reference(problem):
    deadlock = HEURISTICS["deadlock"]
    state = problem.initial_state
    for _, child, _ in problem.successors(state):
        assert deadlock(child, problem) == reference_deadlock(child, problem.goal_state), child
    assert problem.heuristic_memo["deadlock-parent"].state is state


@settings(max_examples=150, deadline=None)
@given(problems())
def test_evaluation_from_scratch_matches_the_reference(problem):
    state = problem.initial_state
    assert HEURISTICS["deadlock"](state, problem) == reference_deadlock(state, problem.goal_state)
    assert _deadlock_from_scratch(state, problem) == reference_deadlock(state, problem.goal_state)


@settings(max_examples=60, deadline=None)
@given(problems(max_blocks=8), st.lists(st.integers(0, 10**6), min_size=1, max_size=8))
def test_a_walk_evaluates_every_child_as_from_scratch(problem, choices):
    """Successive expansions: each parent's graph replaces the last one, and no value drifts."""
    deadlock = HEURISTICS["deadlock"]
    state = problem.initial_state
    for choice in choices:
        children = []
        for _, child, _ in problem.successors(state):
            assert deadlock(child, problem) == _deadlock_from_scratch(child, problem)
            children.append(child)
        state = children[choice % len(children)]
