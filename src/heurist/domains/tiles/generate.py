"""Random sliding-tile instances: random walks of the blank from the goal.

Every move can be undone, so a board reached by walking from the goal can be
solved by walking back: every generated instance is solvable, and the walk's
length bounds its optimal cost. The walk never undoes the move it just made
(unless it has no other move), and a walk that ends on the goal goes on
until it leaves it. The same seed, size and length give the same files.
"""

from __future__ import annotations

import random

from heurist.domains.tiles.formats import format_tiles
from heurist.domains.tiles.model import State, TilesProblem, default_goal


def random_walk(rows: int, cols: int, steps: int, rng: random.Random) -> State:
    """The board after ``steps`` random blank moves from the default goal (at least one move away)."""
    problem = TilesProblem(rows, cols, default_goal(rows, cols))
    state, previous = problem.goal, None
    taken = 0
    while taken < steps or state == problem.goal:
        children = [child for _, child, _ in problem.successors(state) if child != previous]
        previous, state = state, rng.choice(children or [previous])
        taken += 1
    return state


def random_instances(rows: int, cols: int, steps: int, seed: int, count: int) -> list[tuple[str, str]]:
    """``count`` instances as (file name, puzzle file text)."""
    rng = random.Random(seed)
    instances = []
    for index in range(1, count + 1):
        start = random_walk(rows, cols, steps, rng)
        problem = TilesProblem(rows, cols, start)
        name = f"tiles-{rows}x{cols}-walk{steps}-seed{seed}-{index:03d}.txt"
        instances.append((name, format_tiles(problem)))
    return instances
