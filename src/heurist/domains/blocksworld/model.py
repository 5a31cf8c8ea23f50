"""Blocks World on a fixed number of labelled stacks: states, moves and the search problem.

A state is a tuple with one string per stack, each string listing the stack's
blocks from the bottom up (``("CE", "AD", "B")``); an empty stack is ``""``.
Tuples of short strings hash and compare quickly and need no conversion to be
printed, which makes them a good fit for the hot loop of a best-first search.

A move takes the top block of one stack and puts it on top of any *other*
stack, empty or not, at cost 1. Stacks are numbered from 0, as in the
course's ``.bwp`` files; there is no separate table.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from heurist.domains import ShowsItself

State = tuple[str, ...]


class Move(NamedTuple):
    """Move ``block`` from the top of stack ``source`` onto stack ``target`` (0-based)."""

    block: str
    source: int
    target: int

    def __str__(self) -> str:
        return f"{self.block} from stack {self.source} to stack {self.target}"


class IllegalMove(ValueError):
    """A move that cannot be made in the given state."""


class BlocksWorldProblem(ShowsItself):
    """One instance: a start and a goal over the same blocks and the same number of stacks.

    Goal tables used by every heuristic are computed once here:
    ``goal_stack[block]`` and ``goal_height[block]`` (0 = bottom), and
    ``bit[block]``, a one-bit mask per block for set arithmetic on ints.
    """

    domain_name = "blocksworld"

    def __init__(
        self,
        initial_state: Sequence[str],
        goal_state: Sequence[str],
        *,
        name: str = "blocksworld",
        scramble_moves: int = -1,
    ):
        self._initial = tuple(initial_state)
        self.goal_state: State = tuple(goal_state)
        if len(self._initial) != len(self.goal_state):
            raise ValueError("start and goal have different numbers of stacks")
        if sorted("".join(self._initial)) != sorted("".join(self.goal_state)):
            raise ValueError("start and goal hold different blocks")
        self.name = name
        self.scramble_moves = scramble_moves
        self.stack_count = len(self._initial)
        self.blocks = "".join(sorted("".join(self._initial)))
        self.bit = {block: 1 << index for index, block in enumerate(self.blocks)}
        self.goal_stack = {}
        self.goal_height = {}
        for stack, tower in enumerate(self.goal_state):
            for height, block in enumerate(tower):
                self.goal_stack[block] = stack
                self.goal_height[block] = height
        self.heuristic_memo: dict[str, object] = {}
        """Per-instance tables that heuristics build lazily (keyed by heuristic name)."""
        self.last_successor: tuple[State, State, int, int] | None = None
        """(child, parent, source, target) of the successor :meth:`successors` yielded last.

        A search evaluates each child right after it is generated, so a
        heuristic that finds its argument here (by identity) may compute the
        child's value from data it keeps about the parent, where a move
        changes only two stacks, instead of starting from scratch.
        """
        self._pairs = [
            (source, target, {block: Move(block, source, target) for block in self.blocks})
            for source in range(self.stack_count)
            for target in range(self.stack_count)
            if source != target
        ]
        """(source, target, block -> the move) for every pair of stacks, moves made once."""

    @property
    def initial_state(self) -> State:
        return self._initial

    def is_goal(self, state: State) -> bool:
        return state == self.goal_state

    def successors(self, state: State) -> Iterator[tuple[Move, State, int]]:
        """Every legal move, source stack ascending, then target stack ascending."""
        for source, target, moves in self._pairs:
            tower = state[source]
            if not tower:
                continue
            block = tower[-1]
            child = list(state)
            child[source] = tower[:-1]
            child[target] = state[target] + block
            successor = tuple(child)
            self.last_successor = (successor, state, source, target)
            yield moves[block], successor, 1

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``; raises :class:`IllegalMove` if it cannot be made."""
        block, source, target = move
        stacks = self.stack_count
        if not (0 <= source < stacks and 0 <= target < stacks):
            raise IllegalMove(f"{move}: there are only stacks 0 to {stacks - 1}")
        if source == target:
            raise IllegalMove(f"{move}: source and target are the same stack")
        if not state[source] or state[source][-1] != block:
            raise IllegalMove(f"{move}: {block} is not on top of stack {source}")
        child = list(state)
        child[source] = state[source][:-1]
        child[target] = state[target] + block
        return tuple(child)

    def replay(self, moves: Iterable[Move], state: State | None = None) -> State:
        """Apply ``moves`` in turn from ``state`` (default: the start); return the final state."""
        state = self._initial if state is None else state
        for move in moves:
            state = self.apply(state, move)
        return state

    def __repr__(self) -> str:
        return f"BlocksWorldProblem({self.name!r}, stacks={self.stack_count}, blocks={self.blocks!r})"


BlocksWorld = BlocksWorldProblem
"""The name the class had first, kept for existing code."""


def format_stacks(state: State) -> str:
    """One line per stack, bottom to top, as in ``.bwp`` files (an empty stack is an empty line)."""
    return "\n".join(state)


def format_numbered_stacks(state: State) -> str:
    """One line per stack, numbered, so that empty stacks stay visible: ``0: CE``."""
    return "\n".join(f"{number}: {tower}".rstrip() for number, tower in enumerate(state))


def all_states(blocks: str, stack_count: int) -> Iterator[State]:
    """Every placement of ``blocks`` on ``stack_count`` labelled stacks, once each.

    A state is an order of the blocks (read stack by stack, bottom to top)
    plus the stack heights, a weak composition of n into k parts: "stars and
    bars" with k-1 bars among n+k-1 places.
    """
    places = len(blocks) + stack_count - 1
    for order in itertools.permutations(blocks):
        for bars in itertools.combinations(range(places), stack_count - 1):
            yield split_into_stacks(order, bars, places)


def split_into_stacks(order: Sequence[str], bars: Sequence[int], places: int) -> State:
    """Cut ``order`` into stacks at the bar positions (stars and bars)."""
    stacks = []
    previous = -1
    used = 0
    for bar in [*bars, places]:
        height = bar - previous - 1
        stacks.append("".join(order[used : used + height]))
        used += height
        previous = bar
    return tuple(stacks)
