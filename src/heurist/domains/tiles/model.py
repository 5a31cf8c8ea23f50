"""Sliding-tile puzzles (8-puzzle, 15-puzzle, any rectangle): states, moves and the search problem.

A state is a tuple of the tile numbers in row-major order, ``0`` for the
blank: the solved 8-puzzle is ``(1, 2, 3, 4, 5, 6, 7, 8, 0)``. A move slides
a tile next to the blank into it, at cost 1. Successors are generated in a
fixed order, by the way the *blank* moves: up, down, left, right. The action
names the tile that moves and the way *it* moves, so the blank moving up is
the tile above it sliding down: ``tile 5 down``.

Solvability: a move swaps the blank with a neighbour, which flips the parity
of the permutation of the cells and moves the blank one cell, flipping the
parity of its taxicab distance from its goal cell. So (permutation parity
of the start relative to the goal) == (parity of the blank's taxicab
distance to its goal cell) holds in every reachable state; for boards with
at least two rows and two columns the states where it holds are exactly the
reachable ones. With the blank in the bottom-right corner of the goal this
is the textbook rule: on odd widths the number of inversions must be even;
on even widths the inversions plus the blank's row counted from the bottom
must be odd.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from heurist.domains import ShowsItself

State = tuple[int, ...]

BLANK_MOVES = (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1))
"""The blank's moves in successor order: (name, row step, column step)."""

OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
DIRECTIONS = ("up", "down", "left", "right")


class Slide(NamedTuple):
    """Slide ``tile`` one cell ``direction`` (``up``, ``down``, ``left`` or ``right``) into the blank."""

    tile: int
    direction: str

    def __str__(self) -> str:
        return f"tile {self.tile} {self.direction}"


class IllegalMove(ValueError):
    """A slide that cannot be made in the given state."""


def default_goal(rows: int, cols: int) -> State:
    """Tiles 1 to N-1 in reading order, then the blank in the bottom-right corner."""
    cells = rows * cols
    return (*range(1, cells), 0)


def permutation_parity(state: Sequence[int], goal: Sequence[int]) -> int:
    """Parity (0 even, 1 odd) of the permutation taking ``goal`` to ``state``, blank included."""
    where = {tile: cell for cell, tile in enumerate(goal)}
    seen = [False] * len(state)
    parity = 0
    for cell in range(len(state)):
        if seen[cell]:
            continue
        length = 0
        while not seen[cell]:
            seen[cell] = True
            cell = where[state[cell]]
            length += 1
        parity ^= (length - 1) & 1
    return parity


def is_solvable(rows: int, cols: int, start: Sequence[int], goal: Sequence[int]) -> bool:
    """Whether ``goal`` can be reached from ``start`` (the parity rule; exact when rows, cols >= 2).

    On a single row or column tiles can never pass each other: the goal is
    reachable exactly when the tiles appear in the same order.
    """
    if rows == 1 or cols == 1:
        return [tile for tile in start if tile] == [tile for tile in goal if tile]
    blank, goal_blank = list(start).index(0), list(goal).index(0)
    taxicab = abs(blank // cols - goal_blank // cols) + abs(blank % cols - goal_blank % cols)
    return permutation_parity(start, goal) == taxicab % 2


class TilesProblem(ShowsItself):
    """One instance: a ``rows`` x ``cols`` board, a start and a goal over the tiles 0 (blank) to N-1.

    ``goal_index[tile]`` is the goal cell of each tile; ``solvable`` says
    whether the goal can be reached (see :func:`is_solvable`);
    ``heuristic_memo`` holds the tables heuristics build lazily.
    """

    domain_name = "tiles"

    def __init__(self, rows: int, cols: int, start: Sequence[int], goal: Sequence[int] | None = None, *,
                 name: str = "tiles"):
        if rows < 1 or cols < 1 or rows * cols < 2:
            raise ValueError(f"a board needs at least 2 cells, not {rows}x{cols}")
        self.rows, self.cols = rows, cols
        self.cells = rows * cols
        self.start: State = tuple(start)
        self.goal: State = default_goal(rows, cols) if goal is None else tuple(goal)
        for what, state in (("start", self.start), ("goal", self.goal)):
            if sorted(state) != list(range(self.cells)):
                raise ValueError(f"the {what} must hold the numbers 0 to {self.cells - 1} once each")
        self.name = name
        self.goal_index = [0] * self.cells
        for cell, tile in enumerate(self.goal):
            self.goal_index[tile] = cell
        self.solvable = is_solvable(rows, cols, self.start, self.goal)
        self.heuristic_memo: dict[str, object] = {}
        self._moves: list[tuple[tuple[int, str], ...]] = []
        for cell in range(self.cells):
            row, col = divmod(cell, cols)
            moves = []
            for name_, dr, dc in BLANK_MOVES:
                r, c = row + dr, col + dc
                if 0 <= r < rows and 0 <= c < cols:
                    moves.append((r * cols + c, OPPOSITE[name_]))
            self._moves.append(tuple(moves))

    @property
    def initial_state(self) -> State:
        return self.start

    @property
    def goal_state(self) -> State:
        return self.goal

    @property
    def has_default_goal(self) -> bool:
        return self.goal == default_goal(self.rows, self.cols)

    def is_goal(self, state: State) -> bool:
        return state == self.goal

    def successors(self, state: State) -> Iterator[tuple[Slide, State, int]]:
        """Every slide, the blank moving up, down, left, right (the tile moving the other way)."""
        blank = state.index(0)
        for cell, direction in self._moves[blank]:
            child = list(state)
            tile = child[cell]
            child[blank] = tile
            child[cell] = 0
            yield Slide(tile, direction), tuple(child), 1

    def apply(self, state: State, slide: Slide) -> State:
        """The state after ``slide``; raises :class:`IllegalMove` if it cannot be made."""
        for action, child, _ in self.successors(state):
            if action == slide:
                return child
        if not 1 <= slide.tile < self.cells:
            raise IllegalMove(f"{slide}: the tiles are 1 to {self.cells - 1}")
        raise IllegalMove(f"{slide}: tile {slide.tile} cannot slide {slide.direction} into the blank")

    def replay(self, slides: Iterable[Slide], state: State | None = None) -> State:
        """Apply ``slides`` in turn from ``state`` (default: the start); return the final state."""
        state = self.start if state is None else state
        for slide in slides:
            state = self.apply(state, slide)
        return state

    def kind(self) -> str:
        """``8-puzzle (3x3)``, ``15-puzzle (4x4)``, ``5-puzzle (2x3)``..."""
        return f"{self.cells - 1}-puzzle ({self.rows}x{self.cols})"

    def __repr__(self) -> str:
        return f"TilesProblem({self.name!r}, {self.rows}x{self.cols})"
