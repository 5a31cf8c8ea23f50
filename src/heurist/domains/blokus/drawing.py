"""Blokus boards: placed pieces, the start square and the targets.

The course's pictures put row 0 at the bottom (its board is drawn like a
graph, y growing upwards), so that is the default here; ``flip=True`` puts
row 0 at the top, as the text boards of ``heurist solve`` do. Row and column
numbers are written along the edges either way.

A state only records which squares are covered, not by which piece, so the
pieces of a plan are told apart by replaying it: each move's new squares get
the colour of the piece it placed (piece i always has the same colour). A
lone state is drawn in one tile colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from heurist.domains.blokus.model import BlokusProblem
from heurist.scene import Circle, Line, Rect, Scene, Text

CELL = 26.0
MARGIN = 30.0
EMPTY = "#f7f7f2"
GRID = "#d0d0c8"
TILE = "#5a7bd8"
START = "#ffe08a"
TARGET = "#d62728"
PIECE_COLOURS = (
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948", "#76b7b2", "#ff9da7",
    "#9c755f", "#e15759", "#8cd17d", "#499894", "#d37295", "#86bcb6", "#fabfd2",
    "#b6992d", "#a0cbe8", "#ffbe7d", "#d4a6c8", "#79706e", "#f1ce63", "#bab0ac",
)
"""One colour per piece of the standard 21-piece set (then repeating)."""


def problem_state(state: tuple) -> tuple[int, int]:
    """A Blokus state as the puzzles have it, (occupied, used); the strategies' searches carry more."""
    return state[0], state[1]


def piece_colour(piece: int) -> str:
    return PIECE_COLOURS[piece % len(PIECE_COLOURS)]


def tile_owners(problem: BlokusProblem, states: Sequence[tuple], index: int) -> dict[tuple[int, int], int | None]:
    """Square -> index of the piece covering it in ``states[index]`` (None: placed before the plan)."""
    board = problem.board
    owners: dict[tuple[int, int], int | None] = {cell: None for cell in board.cells_of(states[0][0])}
    for before, after in zip(states[:index], states[1 : index + 1]):
        new_tiles = after[0] & ~before[0]
        new_pieces = after[1] & ~before[1]
        piece = new_pieces.bit_length() - 1 if new_pieces and not new_pieces & (new_pieces - 1) else None
        for cell in board.cells_of(new_tiles):
            owners[cell] = piece
    return owners


def draw(problem: BlokusProblem, states: Sequence[tuple], index: int, flip: bool = False) -> Scene:
    """``states[index]``: row 0 at the bottom unless ``flip``; the piece just placed outlined."""
    board = problem.board
    rows, cols = board.rows, board.cols
    owners = tile_owners(problem, states, index)
    just_placed = (
        set(board.cells_of(states[index][0] & ~states[index - 1][0])) if index else set()
    )
    scene = Scene(2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL, title="Blokus board")

    def top_left(row: int, col: int) -> tuple[float, float]:
        shown_row = row if flip else rows - 1 - row
        return MARGIN + col * CELL, MARGIN + shown_row * CELL

    scene.add(Rect(MARGIN, MARGIN, cols * CELL, rows * CELL, EMPTY, role="board"))
    label_size = 11 if max(rows, cols) < 100 else 8
    for row in range(rows):
        _, y = top_left(row, 0)
        scene.add(Text(MARGIN - 6, y + CELL / 2, str(row), label_size, "#777777", "end", role="row-number"))
    for col in range(cols):
        x, _ = top_left(0, col)
        scene.add(Text(x + CELL / 2, MARGIN + rows * CELL + 12, str(col), label_size, "#777777", role="column-number"))
    start_x, start_y = top_left(*problem.start)
    scene.add(Rect(start_x, start_y, CELL, CELL, START, role="start"))
    for col in range(cols + 1):
        scene.add(Line(MARGIN + col * CELL, MARGIN, MARGIN + col * CELL, MARGIN + rows * CELL, GRID, 1, role="grid"))
    for row in range(rows + 1):
        scene.add(Line(MARGIN, MARGIN + row * CELL, MARGIN + cols * CELL, MARGIN + row * CELL, GRID, 1, role="grid"))
    for cell, piece in sorted(owners.items()):
        x, y = top_left(*cell)
        fill = TILE if piece is None else piece_colour(piece)
        is_new = cell in just_placed
        scene.add(
            Rect(x + 1, y + 1, CELL - 2, CELL - 2, fill, "#111111" if is_new else "#333333", 2.5 if is_new else 0.8,
                 radius=3, role="tile" + (" placed" if is_new else ""))
        )
    covered = states[index][0]
    start_covered = bool(covered & board.bit(*problem.start))
    scene.add(
        Text(start_x + CELL / 2, start_y + CELL / 2, "S", 13, "#ffffff" if start_covered else "#7a5b00", role="start-label")
    )
    for target in problem.targets:
        x, y = top_left(*target)
        hit = bool(covered & board.bit(*target))
        scene.add(
            Circle(x + CELL / 2, y + CELL / 2, CELL * (0.18 if hit else 0.3), "#ffffff" if hit else None, TARGET,
                   2.5, role="target covered" if hit else "target")
        )
    orientation = "row 0 at the top" if flip else "row 0 at the bottom"
    scene.add(Text(MARGIN, MARGIN / 2, f"{rows}x{cols}, {orientation}", 11, "#777777", "start", role="orientation"))
    return scene


LEGEND = [("start square", START), ("target", TARGET)]


_TERMINAL_STYLES = {"#": f"bold {TILE}", "x": f"bold {TARGET}", "X": f"bold white on {TARGET}", "s": f"bold black on {START}"}


def terminal_style(problem: BlokusProblem, state: tuple) -> Callable[[int, int, str], str | None]:
    """Tiles, targets (covered or not) and the start square in the pictures' colours."""
    return lambda row, col, char: _TERMINAL_STYLES.get(char)
