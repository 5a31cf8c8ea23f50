"""Blocks World: the stacks as towers of lettered blocks, the goal beside them.

A block is drawn green when it is in its goal place for good: it stands on
its goal stack at its goal height with every block under it in its goal
place too (no move can improve it); the others are drawn orange. The goal
towers are drawn all green, smaller, on the right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from heurist.domains.blocksworld.model import BlocksWorld, State
from heurist.scene import Line, Rect, Scene, Text, side_by_side

BLOCK = 40.0
GAP = 14.0
TABLE = "#555555"
IN_PLACE = "#7cc67c"
OUT_OF_PLACE = "#f5a65b"
EDGE = "#3b3b3b"
MOVED_EDGE = "#111111"


def blocks_in_place(problem: BlocksWorld, state: State) -> set[str]:
    """Blocks on their goal stack, at their goal height, on a correct tower."""
    placed = set()
    for stack, tower in enumerate(state):
        goal = problem.goal_state[stack]
        for height, block in enumerate(tower):
            if height >= len(goal) or goal[height] != block:
                break
            placed.add(block)
    return placed


def moved_block(before: State | None, after: State) -> str | None:
    """The block that was moved from ``before`` to ``after``, if exactly one was."""
    if before is None:
        return None
    grown = [tower for old, tower in zip(before, after) if len(tower) == len(old) + 1]
    return grown[0][-1] if len(grown) == 1 else None


def stacks_scene(problem: BlocksWorld, state: State, levels: int, moved: str | None = None, all_in_place: bool = False) -> Scene:
    """Towers for ``state`` on a table, room for ``levels`` blocks, stack numbers underneath."""
    count = len(state)
    table_y = 10 + levels * BLOCK
    scene = Scene(GAP + count * (BLOCK + GAP), table_y + 30)
    placed = set(problem.blocks) if all_in_place else blocks_in_place(problem, state)
    for stack, tower in enumerate(state):
        x = GAP + stack * (BLOCK + GAP)
        for height, block in enumerate(tower):
            in_place = block in placed
            is_moved = block == moved
            y = table_y - (height + 1) * BLOCK
            scene.add(
                Rect(
                    x + 1, y + 1, BLOCK - 2, BLOCK - 2,
                    IN_PLACE if in_place else OUT_OF_PLACE,
                    MOVED_EDGE if is_moved else EDGE,
                    3 if is_moved else 1.2,
                    radius=4,
                    role="block " + ("in-place" if in_place else "out-of-place") + (" moved" if is_moved else ""),
                ),
                Text(x + BLOCK / 2, y + BLOCK / 2, block, 19, "#1a1a1a", role="block-label"),
            )
        scene.add(Text(x + BLOCK / 2, table_y + 16, str(stack), 12, "#666666", role="stack-number"))
    scene.add(Line(GAP / 2, table_y + 2, scene.width - GAP / 2, table_y + 2, TABLE, 4, role="table"))
    return scene


def draw(problem: BlocksWorld, states: Sequence[State], index: int, flip: bool = False) -> Scene:
    """``states[index]`` with the block just moved outlined, and the goal on its right."""
    levels = max(len(tower) for state in (*states, problem.goal_state) for tower in state)
    levels = max(levels, 1)
    state = states[index]
    moved = moved_block(states[index - 1] if index else None, state)
    current = stacks_scene(problem, state, levels, moved)
    goal = stacks_scene(problem, problem.goal_state, levels, all_in_place=True)
    scene = side_by_side([("start" if index == 0 else "now", current, 1.0), ("goal", goal, 0.6)], align_bottom=True)
    scene.title = "Blocks World stacks and goal"
    return scene


LEGEND = [("in its goal place", IN_PLACE), ("still to move", OUT_OF_PLACE)]


def terminal_style(problem: BlocksWorld, state: State) -> Callable[[int, int, str], str | None]:
    """Each block letter green when it is in its goal place, orange while it still has to move."""
    placed = blocks_in_place(problem, state)

    def style(row: int, col: int, char: str) -> str | None:
        if not ("A" <= char <= "Z"):
            return None
        return f"bold black on {IN_PLACE if char in placed else OUT_OF_PLACE}"

    return style
