"""Sliding-tile puzzles: the 8-puzzle, the 15-puzzle and any rectangular board.

* :mod:`.model` -- :class:`TilesProblem`, slides, states and the parity rule;
* :mod:`.formats` -- puzzle files and text boards, each reader beside its writer;
* :mod:`.heuristics` -- the registered heuristics (misplaced, manhattan, linear conflict, pattern databases);
* :mod:`.pdb` -- additive pattern databases: partitions, tables built with numpy, the cache, the reflection;
* :mod:`.kernel` -- IDA* with those databases compiled with numba (imported only when it runs);
* :mod:`.generate` -- random solvable instances (random walks from the goal);
* :mod:`.drawing` -- boards as scenes and terminal colours.

From Python::

    >>> from heurist.domains.tiles import DOMAIN
    >>> from heurist.search import search
    >>> problem = DOMAIN.load("data/tiles/hardest-31.txt")
    >>> list(DOMAIN.heuristics)
    ['zero', 'misplaced', 'manhattan', 'linear-conflict', 'pdb', 'pdb-5-5-5', 'pdb-6-6-3']
    >>> search(problem, "idastar", "linear-conflict")
    <SearchResult idastar: solved, cost 31, 31 moves, 7,594 expansions>
    >>> search(problem, "idastar", "pdb")  # pattern databases: two groups of four tiles, with the reflection
    <SearchResult idastar: solved, cost 31, 31 moves, 90 expansions>
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from heurist.domains import Domain, Option
from heurist.domains.tiles import drawing
from heurist.domains.tiles.formats import (
    format_board,
    format_tiles,
    load_tiles,
    parse_board_lines,
    parse_tiles,
)
from heurist.domains.tiles.generate import random_instances
from heurist.domains.tiles.heuristics import HEURISTICS
from heurist.domains.tiles.model import (
    DIRECTIONS,
    IllegalMove,
    Slide,
    State,
    TilesProblem,
    default_goal,
    is_solvable,
)
from heurist.errors import InputError
from heurist.scene import Scene

DEFAULT_HEURISTIC = "linear-conflict"
_SLIDE = re.compile(r"^\s*tile (\d+) (up|down|left|right)\s*$")


class TilesDomain(Domain[TilesProblem, State, Slide]):
    name = "tiles"
    summary = "sliding-tile puzzles: the 8-puzzle, the 15-puzzle, any rectangular board"
    heuristics = HEURISTICS
    default_heuristic = DEFAULT_HEURISTIC
    generate_options = (
        Option("rows", "board rows (default: 3)", type=int, default=3, minimum=1, maximum=32),
        Option("cols", "board columns (default: 3)", type=int, default=3, minimum=1, maximum=32),
        Option("steps", "length of the random walk from the goal (default: 200)", type=int, default=200,
               minimum=1, maximum=1_000_000),
    )
    small_instances = {"rows": 3, "cols": 3, "steps": 30}
    legend = tuple(drawing.LEGEND)
    examples = {
        "solve": [
            "heurist solve tiles data/tiles/aima-26.txt",
            "heurist solve tiles data/tiles/hardest-31.txt --heuristic manhattan",
            "heurist solve tiles data/tiles/fifteen-46.txt --algo idastar --format json",
        ],
        "validate": [
            "heurist solve tiles data/tiles/aima-26.txt > plan.txt && "
            "heurist validate tiles data/tiles/aima-26.txt plan.txt",
        ],
        "render": [
            "heurist render tiles data/tiles/hardest-31.txt --out start.svg",
            "heurist render tiles data/tiles/aima-26.txt --solve --out replay.html",
        ],
        "check": [
            "heurist check tiles data/tiles/hardest-31.txt -H linear-conflict --against manhattan",
            "heurist check tiles --generated 3 --seed 1 -H manhattan --claim consistent",
        ],
        "generate": [
            "heurist generate tiles --seed 1 --count 10 --out puzzles/",
            "heurist generate tiles --rows 4 --cols 4 --steps 60 --seed 2 > fifteen.txt",
        ],
    }

    def load(self, path: str | Path, **options: Any) -> TilesProblem:
        """A puzzle file (no options)."""
        self.check_options(options, str(path))
        return load_tiles(path)

    def parse(self, text: str, source: str = "<tiles>", **options: Any) -> TilesProblem:
        """Like :meth:`load`, from the text of a puzzle file."""
        self.check_options(options, source)
        return parse_tiles(text, source)

    def default_search(self, problem: TilesProblem) -> tuple[str, str]:
        """IDA* with pattern databases (``pdb``, compiled) from 16 cells up; A* with linear conflict below.

        On the 15-puzzle that solves Korf's hundred instances in seconds
        (docs/tiles.md); the 6-6-3 tables are built once, in about a minute,
        and then read from the user's cache. On the 8-puzzle A* with linear
        conflict is already instant and needs no tables.
        """
        if problem.cells >= 16:
            return "idastar", "pdb"
        return "astar", DEFAULT_HEURISTIC

    def write_instance(self, problem: TilesProblem) -> str:
        return format_tiles(problem)

    def generate(self, *, seed: int = 0, count: int = 1, **options: Any) -> list[tuple[str, str]]:
        values = self.check_generate_options(options)
        if values["rows"] * values["cols"] < 2:
            raise InputError("the board needs at least 2 cells", "--rows/--cols")
        return random_instances(values["rows"], values["cols"], values["steps"], seed, count)

    def format_state(self, problem: TilesProblem, state: State) -> str:
        return format_board(problem.rows, problem.cols, state)

    def parse_state(self, problem: TilesProblem, lines: Sequence[str], source: str, line: int) -> State:
        return parse_board_lines(lines, problem, source, line)

    def format_action(self, problem: TilesProblem, action: Slide) -> str:
        return str(action)

    def parse_action(self, problem: TilesProblem, text: str, source: str, line: int) -> Slide:
        match = _SLIDE.match(text)
        if match is None:
            raise InputError(f"expected 'tile N DIRECTION' (up, down, left, right), got {text[:60]!r}",
                             source, line)
        return Slide(int(match.group(1)), match.group(2))

    def describe(self, problem: TilesProblem) -> str:
        if problem.solvable:
            return problem.kind()
        return f"{problem.kind()}, unsolvable: the start and goal differ in parity"

    def draw(self, problem: TilesProblem, states: Sequence[State], index: int = -1, *,
             flip: bool = False) -> Scene:
        return drawing.draw(problem, states, index % len(states), flip)

    def terminal_style(self, problem: TilesProblem, state: State) -> Callable[[int, int, str], str | None]:
        return drawing.terminal_style(problem, state)


DOMAIN = TilesDomain()

load = DOMAIN.load
"""Read a puzzle file as a problem."""

__all__ = [
    "DEFAULT_HEURISTIC",
    "DIRECTIONS",
    "DOMAIN",
    "HEURISTICS",
    "IllegalMove",
    "Slide",
    "State",
    "TilesDomain",
    "TilesProblem",
    "default_goal",
    "format_board",
    "format_tiles",
    "is_solvable",
    "load",
    "load_tiles",
    "parse_board_lines",
    "parse_tiles",
]
