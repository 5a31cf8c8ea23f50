"""Random solvable Klotski layouts: random walks back from goal layouts.

Moves are reversible, so a layout reached by walking from a goal layout can
be solved by walking back: every generated instance is solvable.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from heurist.domains.klotski.board import Geometry
from heurist.domains.klotski.formats import format_board, parse_board

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
