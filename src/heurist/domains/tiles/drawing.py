"""Sliding-tile boards: a framed grid of numbered tiles.

A tile on its goal cell is drawn green, the others orange; the tile that
just moved is outlined. A board whose goal is not the usual one (1 to N-1
in reading order, the blank last) shows its goal beside it, smaller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from heurist.domains.tiles.model import State, TilesProblem
from heurist.scene import Rect, Scene, Text, side_by_side

CELL = 56.0
FRAME = 8.0
INSET = 3.0
BOARD_COLOUR = "#d9d4c7"
FRAME_COLOUR = "#5a4a3a"
IN_PLACE = "#7cc67c"
OUT_OF_PLACE = "#f5a65b"
EDGE = "#3b3b3b"
MOVED_EDGE = "#111111"


def moved_tile(before: State | None, after: State) -> int | None:
    """The tile that slid from ``before`` to ``after`` (None at the start, or if not one slide)."""
    if before is None:
        return None
    changed = [cell for cell, (old, new) in enumerate(zip(before, after)) if old != new]
    if len(changed) != 2:
        return None
    tile = max(after[cell] for cell in changed)
    return tile or None


def board_scene(problem: TilesProblem, state: State, moved: int | None = None, flip: bool = False) -> Scene:
    """One board: the frame, then each tile with its number (row 0 at the top, at the bottom if ``flip``)."""
    rows, cols = problem.rows, problem.cols
    left = top = FRAME + 4
    scene = Scene(2 * left + cols * CELL, 2 * top + rows * CELL)
    scene.add(Rect(left - FRAME / 2, top - FRAME / 2, cols * CELL + FRAME, rows * CELL + FRAME,
                   BOARD_COLOUR, FRAME_COLOUR, FRAME, radius=4, role="board"))
    size = CELL * (0.42 if problem.cells <= 100 else 0.32)
    for cell, tile in enumerate(state):
        if not tile:
            continue
        row, col = divmod(cell, cols)
        if flip:
            row = rows - 1 - row
        x, y = left + col * CELL, top + row * CELL
        in_place = problem.goal[cell] == tile
        is_moved = tile == moved
        scene.add(
            Rect(x + INSET, y + INSET, CELL - 2 * INSET, CELL - 2 * INSET,
                 IN_PLACE if in_place else OUT_OF_PLACE,
                 MOVED_EDGE if is_moved else EDGE, 3.5 if is_moved else 1.2, radius=6,
                 role="tile " + ("in-place" if in_place else "out-of-place") + (" moved" if is_moved else "")),
            Text(x + CELL / 2, y + CELL / 2, str(tile), size, "#1a1a1a", role="tile-label"),
        )
    return scene


def draw(problem: TilesProblem, states: Sequence[State], index: int, flip: bool = False) -> Scene:
    """``states[index]`` with the tile that just moved outlined; an unusual goal beside it."""
    state = states[index]
    moved = moved_tile(states[index - 1] if index else None, state)
    board = board_scene(problem, state, moved, flip)
    board.title = f"{problem.kind()} board"
    if problem.has_default_goal:
        return board
    goal = board_scene(problem, problem.goal, flip=flip)
    scene = side_by_side([("start" if index == 0 else "now", board, 1.0), ("goal", goal, 0.5)])
    scene.title = f"{problem.kind()} board and goal"
    return scene


LEGEND = [("on its goal cell", IN_PLACE), ("still to move", OUT_OF_PLACE)]


def terminal_style(problem: TilesProblem, state: State) -> Callable[[int, int, str], str | None]:
    """Each tile's digits green on its goal cell, orange elsewhere (the text of ``format_board``)."""
    width = len(str(problem.cells - 1)) + 1  # the number and the space after it

    def style(row: int, col: int, char: str) -> str | None:
        cell = col // width
        if not char.isdigit() or row >= problem.rows or cell >= problem.cols:
            return None
        index = row * problem.cols + cell
        return f"bold black on {IN_PLACE if state[index] == problem.goal[index] else OUT_OF_PLACE}"

    return style
