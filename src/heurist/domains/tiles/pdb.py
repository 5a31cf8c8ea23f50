"""Additive disjoint pattern databases for sliding-tile puzzles (Korf and Felner 2002; Felner, Korf and Hanan 2004).

The tiles (not the blank) are split into disjoint groups. For one group, the
*abstract* puzzle keeps the group's tiles and the blank and makes every other
tile indistinguishable; its database holds, for every placement of the
group's tiles and every cell of the blank, the fewest moves **of the group's
tiles** needed to bring them home. Moves of the other tiles are free in that
count, so each real move is counted by at most one group and the sums over
the groups add up without overestimating (admissible). A move of one of the
group's tiles is one abstract move of cost 1, and a move of another tile is
an abstract move of cost 0 in both directions, which leaves the distance as
it is; so a real move changes one group's value by at most 1 and no other
(consistent). Keeping the blank's cell in the table matters: the smaller
table minimised over the blank (as Felner, Korf and Hanan store it) is
admissible but not consistent -- group tiles can wall the blank in, and one
move can then drop that minimum by several.

Tables are built by a breadth-first search over (placement of the group's
tiles, blank cell) in which moving the blank into a cell no group tile
occupies costs 0 and swapping it with a group tile costs 1 (a 0-1 BFS done
level by level with numpy). Placements are numbered by a perfect ranking of
partial permutations (the group's tiles in order, each cell counted among
the cells the earlier tiles left free), and entry ``rank * cells + blank``
holds the distance in one byte: ``cells * n! / (n - k)!`` bytes for k tiles
on n cells (92 MB for a group of 6 on the 15-puzzle).

Any goal works: every tile is *labelled* by its goal cell, so a database
is about labels and cells and depends only on the board's size, the goal
cell of the blank and the group (a set of goal cells). On a square board
whose blank goal lies on a diagonal, the reflection about that diagonal
maps the puzzle onto itself (labels reflected too) and keeps distances, so
``h(reflected state)`` is a second admissible, consistent estimate: the
heuristic takes the larger of the two sums (Culberson and Schaeffer's and
Korf and Felner's reflection lookup), with no second table.

Tables are kept in the user's cache (:mod:`heurist.cache`) under a key
naming their version, the board, the blank's goal cell and the group: the
cache reads only regular files of bounded size, checks a CRC-32 and the
key, and each table's length is checked before it is used.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from heurist.domains.tiles.model import State, TilesProblem
from heurist.errors import InputError

PDB_VERSION = 2
"""Version of the tables' cache entries: raise it whenever their values could change."""
_CACHE_KIND = "tiles-pdb"
MAX_TABLE_STATES = 400_000_000
"""The largest table (placements x blank cells, one byte each) heurist builds."""
DEFAULT_TABLE_BYTES = 100_000_000
"""The largest table a default partition uses on boards other than 4x4."""
UNREACHED = 255


# ----- partitions ------------------------------------------------------------------------------

NAMED_PARTITIONS_4X4: dict[str, tuple[tuple[int, ...], ...]] = {
    # Goal cells (row-major) of each group, for the blank's goal in the top-left corner (cell 0):
    #  .  1  2  3
    #  4  5  6  7
    #  8  9 10 11
    # 12 13 14 15
    "5-5-5": ((1, 2, 4, 5, 8), (3, 6, 7, 10, 11), (9, 12, 13, 14, 15)),
    "6-6-3": ((1, 2, 4, 5, 8, 9), (3, 6, 7, 10, 11, 15), (12, 13, 14)),
    "7-8": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
}
"""The 15-puzzle's static partitions, as groups of goal cells with the blank's goal in cell 0."""


def _corner_map(rows: int, cols: int, blank: int):
    """A board symmetry taking cell 0 to the blank's goal corner (a mirror in rows, columns or both), or None."""
    row, col = divmod(blank, cols)
    if row not in (0, rows - 1) or col not in (0, cols - 1):
        return None
    flip_rows, flip_cols = row != 0, col != 0

    def move(cell: int) -> int:
        r, c = divmod(cell, cols)
        return (rows - 1 - r if flip_rows else r) * cols + (cols - 1 - c if flip_cols else c)

    return move


def chunked_partition(rows: int, cols: int, blank: int, sizes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Groups of the given sizes taken in reading order from the goal cells other than the blank's."""
    cells = [cell for cell in range(rows * cols) if cell != blank]
    if sum(sizes) != len(cells) or min(sizes) < 1:
        raise ValueError(f"group sizes {list(sizes)} do not cover the {len(cells)} tiles")
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(cells[start:start + size]))
        start += size
    return tuple(groups)


def default_group_sizes(rows: int, cols: int) -> tuple[int, ...]:
    """A sensible partition for any board: 6-6-3 on 4x4; two halves up to 8 tiles; else groups as large as
    keep each table within :data:`DEFAULT_TABLE_BYTES` (at most 6 tiles)."""
    cells = rows * cols
    tiles = cells - 1
    if (rows, cols) == (4, 4):
        return (6, 6, 3)
    if tiles <= 8:
        first = (tiles + 1) // 2
        return (first, tiles - first) if tiles - first else (first,)
    size = 1
    while size < min(tiles, 6) and table_states(cells, size + 1) * cells <= DEFAULT_TABLE_BYTES:
        size += 1
    sizes = [size] * (tiles // size)
    if tiles % size:
        sizes.append(tiles % size)
    return tuple(sizes)


def partition_for(rows: int, cols: int, blank: int, name: str) -> tuple[tuple[int, ...], ...]:
    """The groups of goal cells of the partition ``name`` ("default", "6-6-3"...) on this board and goal.

    On 4x4 boards with the blank's goal in a corner, the named partitions are
    the shapes of :data:`NAMED_PARTITIONS_4X4` mirrored into that corner;
    elsewhere a name "a-b-c" means groups of those sizes in reading order.
    """
    if name == "default":
        if (rows, cols) == (4, 4):
            name = "6-6-3"
        else:
            return chunked_partition(rows, cols, blank, default_group_sizes(rows, cols))
    if (rows, cols) == (4, 4) and name in NAMED_PARTITIONS_4X4:
        move = _corner_map(rows, cols, blank)
        if move is not None:
            return tuple(tuple(sorted(move(cell) for cell in group)) for group in NAMED_PARTITIONS_4X4[name])
    sizes = tuple(int(part) for part in name.split("-"))
    return chunked_partition(rows, cols, blank, sizes)


def reflection(rows: int, cols: int, blank: int) -> list[int] | None:
    """The diagonal mirror of the board that fixes the blank's goal cell, as a cell map; None if there is none."""
    if rows != cols:
        return None
    row, col = divmod(blank, cols)
    if row == col:
        return [(cell % cols) * cols + cell // cols for cell in range(rows * cols)]
    if row + col == cols - 1:
        return [(cols - 1 - cell % cols) * cols + (cols - 1 - cell // cols) for cell in range(rows * cols)]
    return None


# ----- ranking ---------------------------------------------------------------------------------

def table_states(cells: int, size: int) -> int:
    """Placements of ``size`` distinct tiles on ``cells`` cells: cells! / (cells - size)!."""
    return math.perm(cells, size)


def rank(positions: Sequence[int], cells: int) -> int:
    """The index of a placement (cells of the group's tiles, in label order) in 0 .. perm(cells, k) - 1.

    Mixed radix: the i-th tile's digit is its cell counted among the cells
    the earlier tiles left free, in 0 .. cells - i - 1.
    """
    index = 0
    for i, cell in enumerate(positions):
        digit = cell
        for earlier in positions[:i]:
            if earlier < cell:
                digit -= 1
        index = index * (cells - i) + digit
    return index


def _rank_rows(positions, cells: int):
    """:func:`rank` of every row of an (m, k) integer array, vectorised."""
    import numpy as np

    index = np.zeros(len(positions), dtype=np.int64)
    for i in range(positions.shape[1]):
        digit = positions[:, i].astype(np.int64)
        for j in range(i):
            digit -= positions[:, j] < positions[:, i]
        index = index * (cells - i) + digit
    return index


# ----- building --------------------------------------------------------------------------------

def build_table(rows: int, cols: int, blank: int, group: Sequence[int]):
    """The database of one group: a uint8 array, entry ``rank * cells + blank`` the fewest group moves.

    ``group`` lists the goal cells (labels) of the group's tiles; the abstract
    goal has each of them on its own cell and the blank on ``blank``.
    Entries no search reaches keep :data:`UNREACHED`: the blank on a group
    tile's cell, and (when the group holds every tile) the half of the
    placements of the wrong parity.
    """
    import numpy as np

    cells, size = rows * cols, len(group)
    placements = table_states(cells, size)
    if placements * cells > MAX_TABLE_STATES:
        raise OverflowError(f"a group of {size} tiles on {cells} cells needs {placements * cells:,} states")
    neighbours = np.full((cells, 4), -1, dtype=np.int64)
    for cell in range(cells):
        row, col = divmod(cell, cols)
        for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= row + dr < rows and 0 <= col + dc < cols:
                neighbours[cell, d] = (row + dr) * cols + col + dc
    distance = np.full(placements * cells, UNREACHED, dtype=np.uint8)
    positions = np.array([list(group)], dtype=np.int8)
    blanks = np.array([blank], dtype=np.int64)
    distance[_rank_rows(positions, cells) * cells + blanks] = 0
    level = 0
    while len(blanks):
        # Close the level under free moves: the blank into a cell no group tile holds.
        layer_positions, layer_blanks = [positions], [blanks]
        new_positions, new_blanks = positions, blanks
        while len(new_blanks):
            found_positions, found_blanks = [], []
            for d in range(4):
                target = neighbours[new_blanks, d]
                free = (target >= 0) & ~(new_positions == target[:, None]).any(axis=1)
                if not free.any():
                    continue
                moved_positions, moved_blanks = new_positions[free], target[free]
                index = _rank_rows(moved_positions, cells) * cells + moved_blanks
                fresh = distance[index] == UNREACHED
                index, first = np.unique(index[fresh], return_index=True)
                if len(index):
                    distance[index] = level
                    found_positions.append(moved_positions[fresh][first])
                    found_blanks.append(moved_blanks[fresh][first])
            if not found_blanks:
                break
            new_positions, new_blanks = np.concatenate(found_positions), np.concatenate(found_blanks)
            layer_positions.append(new_positions)
            layer_blanks.append(new_blanks)
        positions, blanks = np.concatenate(layer_positions), np.concatenate(layer_blanks)
        # Moves that cost 1: the blank swaps with a group tile.
        next_positions, next_blanks = [], []
        for d in range(4):
            target = neighbours[blanks, d]
            hit = (positions == target[:, None]) & (target >= 0)[:, None]
            moving = hit.any(axis=1)
            if not moving.any():
                continue
            moved_positions = positions[moving].copy()
            which = hit[moving].argmax(axis=1)
            moved_positions[np.arange(len(which)), which] = blanks[moving]
            moved_blanks = target[moving]
            index = _rank_rows(moved_positions, cells) * cells + moved_blanks
            fresh = distance[index] == UNREACHED
            index, first = np.unique(index[fresh], return_index=True)
            if len(index):
                distance[index] = level + 1
                next_positions.append(moved_positions[fresh][first])
                next_blanks.append(moved_blanks[fresh][first])
        if not next_blanks:
            break
        positions, blanks = np.concatenate(next_positions), np.concatenate(next_blanks)
        level += 1
        if level >= UNREACHED:
            raise OverflowError("a pattern database's distances exceed one byte")
    return distance


_LOADED: dict[tuple, Any] = {}
"""Tables this process has loaded, by board, blank cell and group: the next problem of the same kind shares them."""


def load_table(rows: int, cols: int, blank: int, group: Sequence[int]):
    """:func:`build_table`, read from the user's cache when it holds it (and written there when it does not).

    Kept for the rest of the process too (a few hundred MB at most), so that
    a hundred 15-puzzles read their tables once.
    """
    group = tuple(int(cell) for cell in group)
    found = _LOADED.get((rows, cols, blank, group))
    if found is None:
        found = _LOADED[rows, cols, blank, group] = _read_or_build(rows, cols, blank, group)
    return found


def _read_or_build(rows: int, cols: int, blank: int, group: tuple[int, ...]):
    import numpy as np

    from heurist import cache

    key = ("tiles pattern database", PDB_VERSION, rows, cols, blank, group)
    size = table_states(rows * cols, len(group)) * rows * cols

    def valid(value: Any) -> bool:
        return isinstance(value, bytes) and len(value) == size

    stored = cache.load(_CACHE_KIND, key, valid)
    if stored is not cache.MISSING:
        return np.frombuffer(stored, dtype=np.uint8)
    table = build_table(rows, cols, blank, group)
    cache.store(_CACHE_KIND, key, table.tobytes())
    return table


# ----- the heuristic ---------------------------------------------------------------------------

class Prepared:
    """One problem's databases: the groups (goal cells), their tables, and how tiles map to labels.

    * ``label[tile]``: the tile's goal cell;
    * ``mirror``: the diagonal reflection of cells (and labels), or None when it is not used;
    * ``lists``: the tables as Python lists (fast single lookups; small boards only).
    """

    __slots__ = ("cells", "groups", "tables", "label", "mirror", "lists")

    def __init__(self, cells: int, groups: tuple[tuple[int, ...], ...], tables: list[Any], label: list[int],
                 mirror: list[int] | None, lists: list[list[int]]):
        self.cells, self.groups, self.tables = cells, groups, tables
        self.label, self.mirror, self.lists = label, mirror, lists


class PatternDatabaseHeuristic:
    """An additive disjoint pattern-database heuristic with a given partition (see the module's docstring)."""

    def __init__(self, partition: str, *, reflect: bool = True, doc: str = ""):
        self.partition = partition
        self.reflect = reflect
        self.__doc__ = doc
        self.__name__ = f"pdb_{partition.replace('-', '_')}"

    def __repr__(self) -> str:
        return f"<tiles pattern databases {self.partition}{' with reflection' if self.reflect else ''}>"

    def prepared(self, problem: TilesProblem) -> Prepared:
        """The problem's databases, built or read from the cache on first use."""
        key = f"pdb {self.partition} {self.reflect}"
        found = problem.heuristic_memo.get(key)
        if found is None:
            rows, cols = problem.rows, problem.cols
            blank = problem.goal_index[0]
            try:
                groups = partition_for(rows, cols, blank, self.partition)
            except ValueError as error:
                raise InputError(f"the partition {self.partition} does not fit a {problem.kind()}: {error}",
                                 "--heuristic") from None
            tables = [load_table(rows, cols, blank, group) for group in groups]
            found = Prepared(
                problem.cells, groups, tables, list(problem.goal_index),
                reflection(rows, cols, blank) if self.reflect else None,
                [table.tolist() for table in tables] if problem.cells <= 9 else [],
            )
            problem.heuristic_memo[key] = found
        return found  # type: ignore[return-value]

    def prepare(self, problem: TilesProblem) -> None:
        """Build (or read) the databases before the search starts, so that their time is counted apart."""
        if problem.solvable:
            self.prepared(problem)

    def __call__(self, state: State, problem: TilesProblem) -> float:
        if not problem.solvable:
            return math.inf
        memo = self.prepared(problem)
        cells = memo.cells
        where = [0] * cells
        for cell, tile in enumerate(state):
            where[memo.label[tile]] = cell
        tables = memo.lists or memo.tables
        blank = where[memo.label[0]]
        total = 0
        for group, table in zip(memo.groups, tables):
            total += int(table[rank([where[label] for label in group], cells) * cells + blank])
        mirror = memo.mirror
        if mirror is not None:
            other = 0
            for group, table in zip(memo.groups, tables):
                other += int(table[rank([mirror[where[mirror[label]]] for label in group], cells) * cells
                                   + mirror[blank]])
            total = max(total, other)
        return total

    def specialised(self, algorithm: str, problem: Any):
        """A compiled IDA* for tiles with these databases, when numba is installed (same results, faster)."""
        if algorithm != "idastar" or not isinstance(problem, TilesProblem) or not problem.solvable:
            return None
        try:
            import numba  # noqa: F401
        except ImportError:
            return None
        from heurist.domains.tiles.kernel import idastar_with_databases

        return lambda problem, heuristic, *, limits=None: idastar_with_databases(
            problem, self.prepared(problem), limits=limits)
