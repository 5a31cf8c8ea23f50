"""Klotski boards: the frame with its exit, and each piece coloured by its shape.

The classic goal (the 2x2 piece at the exit) is drawn as a gap in the bottom
wall with a dashed outline where the 2x2 piece must arrive. A puzzle with a
goal board (CSC384 V3) shows that board beside the current one instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from heurist.domains.klotski.board import BIG, HORIZONTAL, SHAPE_NAME, SHAPE_SIZE, SINGLE, VERTICAL
from heurist.domains.klotski.model import KlotskiProblem
from heurist.scene import Line, Rect, Scene, Text, side_by_side

CELL = 56.0
WALL = 8.0
INSET = 3.0

SHAPE_COLOUR = {BIG: "#d62728", VERTICAL: "#1f77b4", HORIZONTAL: "#2ca02c", SINGLE: "#ff9f1c"}
"""Fill of each piece kind: tests and the viewer's legend use the same table."""
SHAPE_ROLE = {BIG: "big", VERTICAL: "vertical", HORIZONTAL: "horizontal", SINGLE: "single"}
SHAPE_EDGE = {BIG: "#8c1516", VERTICAL: "#124a72", HORIZONTAL: "#1b651b", SINGLE: "#b36b00"}
BOARD_COLOUR = "#f4ead5"
WALL_COLOUR = "#6b4f2a"
MOVED_EDGE = "#111111"


def moved_piece(problem: KlotskiProblem, before: int | None, after: int) -> tuple[int, int] | None:
    """The (shape, anchor) of the piece that moved from ``before`` to ``after`` (None if none did)."""
    if before is None or before == after:
        return None
    geometry = problem.geometry
    arrived = set(geometry.pieces(after)) - set(geometry.pieces(before))
    return next(iter(arrived)) if len(arrived) == 1 else None


def board_scene(problem: KlotskiProblem, state: int, moved: tuple[int, int] | None = None, exit_marked: bool = True) -> Scene:
    """One board: frame, exit (for the classic goal), pieces."""
    geometry = problem.geometry
    width, height = geometry.width, geometry.height
    exit_anchor = problem.goal_anchor if exit_marked and problem.goal_state is None else None
    left = top = WALL + 4
    scene = Scene(2 * left + width * CELL, top + height * CELL + WALL + (28 if exit_anchor is not None else 6))
    scene.add(Rect(left, top, width * CELL, height * CELL, BOARD_COLOUR, role="board"))
    for col in range(1, width):
        scene.add(Line(left + col * CELL, top, left + col * CELL, top + height * CELL, "#e6d8bb", 1, role="grid"))
    for row in range(1, height):
        scene.add(Line(left, top + row * CELL, left + width * CELL, top + row * CELL, "#e6d8bb", 1, role="grid"))
    right, bottom = left + width * CELL, top + height * CELL
    half = WALL / 2
    scene.add(
        Line(left - half, top - half, right + half, top - half, WALL_COLOUR, WALL, role="wall"),
        Line(left - half, top - half, left - half, bottom + half, WALL_COLOUR, WALL, role="wall"),
        Line(right + half, top - half, right + half, bottom + half, WALL_COLOUR, WALL, role="wall"),
    )
    if exit_anchor is not None:
        _, exit_col = geometry.row_col(exit_anchor)
        gap_left, gap_right = left + exit_col * CELL, left + (exit_col + 2) * CELL
        scene.add(
            Line(left - half, bottom + half, gap_left, bottom + half, WALL_COLOUR, WALL, role="wall"),
            Line(gap_right, bottom + half, right + half, bottom + half, WALL_COLOUR, WALL, role="wall"),
            Rect(gap_left + INSET, bottom - 2 * CELL + INSET, 2 * CELL - 2 * INSET, 2 * CELL - 2 * INSET,
                 None, SHAPE_EDGE[BIG], 2, radius=6, dashed=True, role="exit-target"),
            Text((gap_left + gap_right) / 2, bottom + WALL + 11, "EXIT", 13, WALL_COLOUR, role="exit"),
        )
    else:
        scene.add(Line(left - half, bottom + half, right + half, bottom + half, WALL_COLOUR, WALL, role="wall"))
    for shape, anchor in geometry.pieces(state):
        row, col = geometry.row_col(anchor)
        rows, cols = SHAPE_SIZE[shape]
        is_moved = (shape, anchor) == moved
        scene.add(
            Rect(
                left + col * CELL + INSET,
                top + row * CELL + INSET,
                cols * CELL - 2 * INSET,
                rows * CELL - 2 * INSET,
                SHAPE_COLOUR[shape],
                MOVED_EDGE if is_moved else SHAPE_EDGE[shape],
                3.5 if is_moved else 1.5,
                radius=7,
                role=f"piece {SHAPE_ROLE[shape]}" + (" moved" if is_moved else ""),
            )
        )
    return scene


def draw(problem: KlotskiProblem, states: Sequence[int], index: int, flip: bool = False) -> Scene:
    """``states[index]``, the piece that just moved outlined; beside it the goal board, if any."""
    state = states[index]
    moved = moved_piece(problem, states[index - 1] if index else None, state)
    board = board_scene(problem, state, moved)
    board.title = "Klotski board"
    if problem.goal_state is None:
        return board
    goal = board_scene(problem, problem.goal_state, exit_marked=False)
    scene = side_by_side([("start" if index == 0 else "now", board, 1.0), ("goal", goal, 0.5)])
    scene.title = "Klotski board and goal board"
    return scene


LEGEND = [(SHAPE_NAME[shape], SHAPE_COLOUR[shape]) for shape in (BIG, VERTICAL, HORIZONTAL, SINGLE)]


_TERMINAL_SHAPE = {"1": BIG, "^": VERTICAL, "v": VERTICAL, "<": HORIZONTAL, ">": HORIZONTAL, "2": SINGLE}


def terminal_style(problem: KlotskiProblem, state: int) -> Callable[[int, int, str], str | None]:
    """Each piece character of the text board in its shape's colour, as in the pictures."""
    return lambda row, col, char: (
        f"bold black on {SHAPE_COLOUR[_TERMINAL_SHAPE[char]]}" if char in _TERMINAL_SHAPE else None
    )
