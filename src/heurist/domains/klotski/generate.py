"""Random Klotski layouts, two ways.

* :func:`random_walk_layouts` (the default): random walks from a goal layout
  of the classic piece set. Moves are reversible, so a layout reached by
  walking from a goal layout can be solved by walking back: every such
  instance is solvable.
* :func:`random_layouts` (``--pieces B,V,H,S``): any piece set dropped at
  random on a board of any size, solvable or not.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from heurist.domains.klotski.board import SHAPES, Geometry
from heurist.domains.klotski.formats import format_board, parse_board
from heurist.errors import InputError

CLASSIC_GOAL = ["^<>^", "v22v", "^..^", "v11v", "211" + "2"]
"""A goal layout of the classic piece set (one 2x2, four vertical and one
horizontal 1x2, four 1x1): the 2x2 piece at the exit."""


def random_walk_layouts(
    seed: int, count: int, steps: int = 500, goal_rows: list[str] | None = None
) -> Iterator[tuple[Geometry, int]]:
    """``count`` layouts, each the end of a ``steps``-move random walk from the goal layout.

    The walk never steps straight back to the state it just left, and a layout
    that already satisfies the exit goal is walked further, so every layout
    needs at least one move.
    """
    rng = random.Random(seed)
    geometry, goal = parse_board(goal_rows or CLASSIC_GOAL, "chars")
    exit_bit = 1 << geometry.index(geometry.height - 2, (geometry.width - 2) // 2)
    for _ in range(count):
        state, previous = goal, None
        taken = 0
        while taken < steps or state & exit_bit:
            options = [child for _, child, _ in geometry.step_successors(state) if child != previous]
            if not options:
                options = [previous]
            previous, state = state, rng.choice(options)
            taken += 1
        yield geometry, state


def generated_files(seed: int, count: int, steps: int = 500) -> Iterator[tuple[str, str]]:
    for number, (geometry, state) in enumerate(random_walk_layouts(seed, count, steps), start=1):
        yield f"klotski_s{seed}_{number:03d}.txt", format_board(geometry, state) + "\n"


def piece_counts(text: str) -> tuple[int, int, int, int]:
    """``B,V,H,S``: how many 2x2, vertical 1x2, horizontal 1x2 and 1x1 pieces."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 4 or min(counts) < 0:
        raise ValueError("expected four counts B,V,H,S (2x2, vertical, horizontal, 1x1), e.g. 1,1,0,2")
    return counts  # type: ignore[return-value]


def random_layouts(
    seed: int, count: int, counts: tuple[int, int, int, int], rows: int = 5, cols: int = 4
) -> list[tuple[str, str]]:
    """``count`` random layouts of a chosen piece set, each piece dropped on a random free place.

    The random walks of :func:`random_walk_layouts` start from a goal of the
    classic piece set, whose two empty cells leave little room; sparser sets
    reach states the course layouts never do (a heuristic's claim has to hold
    there too). Unlike the walks, these layouts need not be solvable. The
    2x2 pieces go first, then the others, each on a uniformly chosen free
    anchor; a layout that already meets the exit goal is drawn again.
    """
    if counts[0] < 1:
        raise InputError("the exit goal needs a 2x2 piece: the first count must be at least 1", "--pieces")
    if rows < 2 or cols < 2 or rows * cols > 64:
        raise InputError("the board must be at least 2x2 and at most 64 cells", "--rows/--cols")
    geometry = Geometry(cols, rows)
    exit_bit = 1 << geometry.index(rows - 2, (cols - 2) // 2)
    rng = random.Random(seed)
    layouts = []
    for number in range(1, count + 1):
        for _ in range(10_000):
            occupied, masks = 0, [0, 0, 0, 0]
            for shape in SHAPES:
                for _ in range(counts[shape]):
                    free = [a for a, cells in geometry.piece_cells[shape].items() if not cells & occupied]
                    if not free:
                        break
                    anchor = rng.choice(free)
                    occupied |= geometry.piece_cells[shape][anchor]
                    masks[shape] |= 1 << anchor
            placed = [mask.bit_count() for mask in masks]
            if placed == list(counts) and not masks[0] & exit_bit:
                break
        else:
            raise InputError("these pieces do not fit the board (or always meet the goal)", "--pieces")
        state = geometry.pack(*masks)
        layouts.append((f"klotski_{','.join(map(str, counts))}_s{seed}_{number:03d}.txt", format_board(geometry, state) + "\n"))
    return layouts
