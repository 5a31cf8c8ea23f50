"""Heuristics for sliding-tile puzzles.

===============  ===========  ==========  ===============================================
name             admissible   consistent  counts
===============  ===========  ==========  ===============================================
zero             yes          yes         nothing (A* becomes uniform-cost search)
misplaced        yes          yes         tiles off their goal cell
manhattan        yes          yes         sum of the tiles' grid distances to their goal cells
linear-conflict  yes          yes         manhattan + 2 per tile that must leave its goal line
===============  ===========  ==========  ===============================================

Each heuristic is ``h(state, problem)`` with ``problem`` a
:class:`~heurist.domains.tiles.model.TilesProblem`. The tables they need
(each tile's distance from each cell, each line's goal positions) are built
once per problem and kept in ``problem.heuristic_memo``. When the parity
rule says the goal cannot be reached at all, ``misplaced``, ``manhattan``
and ``linear-conflict`` return ``inf`` so that a search stops at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from heurist.domains.tiles.model import State, TilesProblem
from heurist.search import HeuristicRegistry

HEURISTICS = HeuristicRegistry("tiles")


@dataclass
class Tables:
    """Per-problem tables: ``distance[cell][tile]`` and, per row and column, each tile's goal slot."""

    distance: list[list[int]]
    row_slices: list[slice]
    col_slices: list[slice]
    row_codes: list[list[int]]
    """``row_codes[r][tile]``: the tile's goal column if its goal row is r (blank excluded), else -1."""
    col_codes: list[list[int]]
    """``col_codes[c][tile]``: the tile's goal row if its goal column is c (blank excluded), else -1."""
    removals: dict[tuple[int, ...], int]
    """Memo of :func:`fewest_removals` by line code."""


def tables(problem: TilesProblem) -> Tables:
    """The problem's tables, built on first use."""
    found = problem.heuristic_memo.get("tables")
    if found is None:
        rows, cols, cells = problem.rows, problem.cols, problem.cells
        goal = problem.goal_index
        distance = [
            [0 if tile == 0 else abs(cell // cols - goal[tile] // cols) + abs(cell % cols - goal[tile] % cols)
             for tile in range(cells)]
            for cell in range(cells)
        ]
        row_codes = [[goal[t] % cols if t and goal[t] // cols == r else -1 for t in range(cells)]
                     for r in range(rows)]
        col_codes = [[goal[t] // cols if t and goal[t] % cols == c else -1 for t in range(cells)]
                     for c in range(cols)]
        found = Tables(
            distance,
            [slice(r * cols, (r + 1) * cols) for r in range(rows)],
            [slice(c, cells, cols) for c in range(cols)],
            row_codes, col_codes, {},
        )
        problem.heuristic_memo["tables"] = found
    return found  # type: ignore[return-value]


def fewest_removals(line: tuple[int, ...]) -> int:
    """Fewest tiles to take out of a line so that the rest are in goal order.

    ``line`` gives, in the line's order, each tile's goal slot within the
    line (-1 for cells that do not count: the blank, tiles whose goal is in
    another line). What remains must be increasing, so the answer is the
    number of counted tiles minus the longest increasing subsequence.
    """
    slots = [slot for slot in line if slot >= 0]
    longest = [1] * len(slots)
    for j in range(len(slots)):
        for i in range(j):
            if slots[i] < slots[j] and longest[i] + 1 > longest[j]:
                longest[j] = longest[i] + 1
    return len(slots) - max(longest, default=0)


@HEURISTICS.register("zero", aliases=("h0", "null"))
def zero(state: State, problem: TilesProblem) -> int:
    """Zero everywhere: admissible and consistent; A* then explores like uniform-cost search."""
    return 0


@HEURISTICS.register("misplaced", aliases=("hamming",))
def misplaced(state: State, problem: TilesProblem) -> float:
    """Tiles (not the blank) off their goal cell.

    Admissible: every misplaced tile has to move at least once, and a move
    moves one tile. Consistent: a move changes the cell of one tile only, so
    h changes by at most 1, the cost of the move.
    """
    if not problem.solvable:
        return math.inf
    return sum(1 for tile, goal in zip(state, problem.goal) if tile != goal and tile)


@HEURISTICS.register("manhattan")
def manhattan(state: State, problem: TilesProblem) -> float:
    """Sum over the tiles (not the blank) of the row and column distance to the goal cell.

    Admissible: a move shifts one tile by one cell, so it lowers the sum by at
    most 1, and the sum is 0 at the goal. Consistent for the same reason: one
    move of cost 1 changes exactly one tile's distance, by exactly 1.
    Dominates ``misplaced``: a misplaced tile is at least one cell away.
    """
    if not problem.solvable:
        return math.inf
    return sum(map(list.__getitem__, tables(problem).distance, state))


@HEURISTICS.register("linear-conflict", aliases=("lc",))
def linear_conflict(state: State, problem: TilesProblem) -> float:
    """Manhattan plus 2 for each tile that must leave its goal row or column to let others pass.

    Admissible (Hansson, Mayer and Yung 1992): tiles in their goal row whose
    goal columns are out of order cannot pass each other inside the row, so
    at least (their number minus the longest subsequence in goal order) of
    them must step out of the row and back: two vertical moves manhattan does
    not count. Likewise per column with horizontal moves; the two kinds of
    extra moves are distinct, so the terms add up. Counting every conflicting
    *pair* instead of this minimum would overestimate (one tile can resolve
    several pairs). Consistent: a move shifts one tile t by one cell, which
    changes manhattan by exactly 1 and keeps the order of the tiles in every
    line (the blank does not count); only the line across the move loses or
    gains t. Removing one tile changes "length minus longest increasing
    subsequence" by 0 or 1, and t counts only in its goal line, so the
    conflict term can drop by 2 only as t leaves its goal line (manhattan
    +1) and rise by 2 only as t enters it (manhattan -1): h changes by
    exactly 1 per move.
    Dominates ``manhattan``.
    """
    if not problem.solvable:
        return math.inf
    table = tables(problem)
    total = sum(map(list.__getitem__, table.distance, state))
    memo = table.removals
    extra = 0
    for cells, code in zip(table.row_slices, table.row_codes):
        key = tuple(map(code.__getitem__, state[cells]))
        found = memo.get(key)
        if found is None:
            found = memo[key] = fewest_removals(key)
        extra += found
    for cells, code in zip(table.col_slices, table.col_codes):
        key = tuple(map(code.__getitem__, state[cells]))
        found = memo.get(key)
        if found is None:
            found = memo[key] = fewest_removals(key)
        extra += found
    return total + 2 * extra


_PDB_ARGUMENT = """

    Admissible: the database of a group holds the exact number of moves of
    the group's own tiles needed to bring them home in the abstract puzzle
    where all other tiles are alike (moves of other tiles cost nothing
    there), which is never more than the real puzzle needs; every real move
    moves one tile, of one group, so it is counted in at most one group's
    term and the sum of the groups' values is still a lower bound. The
    reflected lookup is the same bound for the state mirrored in the
    diagonal through the blank's goal cell, a symmetry of the puzzle that
    keeps distances; the maximum of two lower bounds is one. Consistent:
    a move changes the placement of one group's tiles by one abstract move
    of cost 1 and leaves the other groups' placements unchanged (the blank
    does not count in a placement), so each sum changes by at most 1, and a
    maximum of two functions that change by at most 1 per move changes by
    at most 1. Tables are built by breadth-first search, so entries are
    exact abstract distances. Checked on the whole 8-puzzle space and on
    sampled 15-puzzle states in ``tests/test_tiles_pdb.py``.
    """


def _register_pdb(name: str, partition: str, summary: str, aliases: tuple[str, ...] = ()) -> None:
    from heurist.domains.tiles.pdb import PatternDatabaseHeuristic

    heuristic = PatternDatabaseHeuristic(partition, doc=summary + _PDB_ARGUMENT)
    HEURISTICS.register(name, aliases=aliases)(heuristic)


_register_pdb(
    "pdb", "default",
    "Additive pattern databases, max with the diagonal reflection: 6-6-3 on 4x4, halves up to 8 tiles, "
    "else groups of up to 6.",
    aliases=("pattern-databases",),
)
_register_pdb("pdb-5-5-5", "5-5-5", "Additive pattern databases of three 5-tile groups, max with the reflection.")
_register_pdb("pdb-6-6-3", "6-6-3", "Additive pattern databases of 6, 6 and 3 tiles, max with the reflection.")
