"""Klotski / Hua Rong Dao: sliding blocks of four shapes on a rectangular board.

* :mod:`.board` -- bitboard geometry, packed states and move generation;
* :mod:`.model` -- :class:`KlotskiProblem` (goal, move metric, mirror symmetry);
* :mod:`.formats` -- the CSC384 V1/V2/V3 puzzle and solution files, each reader beside its writer;
* :mod:`.heuristics` -- the registered heuristics;
* :mod:`.generate` -- random layouts (solvable random walks, or any piece set);
* :mod:`.drawing` -- boards as scenes and terminal colours;
* :mod:`.space` -- whole state spaces with numpy, a breadth-first layer at a time;
* :mod:`.compiled` -- breadth-first search and whole state spaces compiled with numba
  (imported only when asked for: numba's import alone costs more than a small solve).

From Python (``heurist.load("klotski", ...)`` is the same as ``DOMAIN.load``)::

    >>> from heurist.domains.klotski import DOMAIN
    >>> from heurist.search import search
    >>> problem = DOMAIN.load("data/hrd/w23_s24_char/testhrd_hard1.txt", metric="slide")
    >>> result = search(problem)  # A* with the default heuristic, pattern databases
    >>> result
    <SearchResult astar: solved, cost 90, 90 moves, 11,057 expansions>
    >>> DOMAIN.format_action(problem, result.actions[0])
    '1x1 at (3,1) down'
    >>> print(DOMAIN.format_state(problem, result.states[-1]))
    ^^^^
    vvvv
    22<>
    .112
    .112
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from heurist.domains import Domain, Option, SolutionFormat
from heurist.domains.klotski.board import DIRECTION_NAME, DIRECTIONS, SHAPE_NAME, Geometry
from heurist.domains.klotski.formats import (
    SOLUTION_FORMAT,
    V1,
    V2,
    V3,
    Puzzle,
    format_board,
    format_puzzle,
    format_solution,
    parse_puzzle,
    parse_state_lines,
    read_puzzle,
    read_solution,
)
from heurist.domains.klotski.generate import generated_files, piece_counts, random_layouts
from heurist.domains.klotski.heuristics import HEURISTICS
from heurist.domains.klotski.model import METRICS, KlotskiProblem
from heurist.domains.suites import file_suite
from heurist.search import SearchResult, Status

if TYPE_CHECKING:
    from heurist.scene import Scene


def problem_from_puzzle(puzzle: Puzzle, metric: str = "step", symmetry: bool = False) -> KlotskiProblem:
    """The search problem of a parsed puzzle file."""
    return KlotskiProblem(
        puzzle.geometry, puzzle.start, puzzle.goal, metric, name=puzzle.source, symmetry=symmetry,
        variant=puzzle.variant,
    )


def describe_move(board: Geometry | KlotskiProblem, action: tuple[int, int, int]) -> str:
    """E.g. ``2x2 at (0,1) down`` for one-cell steps, ``... to (3,1)`` for longer moves; ``board`` is the
    problem or its geometry."""
    geometry = board.geometry if isinstance(board, KlotskiProblem) else board
    shape, source, target = action
    r, c = geometry.row_col(source)
    tr, tc = geometry.row_col(target)
    for direction, (dr, dc) in DIRECTIONS.items():
        if (tr - r, tc - c) == (dr, dc):
            return f"{SHAPE_NAME[shape]} at ({r},{c}) {DIRECTION_NAME[direction]}"
    return f"{SHAPE_NAME[shape]} at ({r},{c}) to ({tr},{tc})"


def write_course_solution(problem: KlotskiProblem, result: SearchResult, **_: Any) -> str:
    """The CSC384 ``hrd.py`` output file, in the variant the puzzle was read from."""
    if result.status is Status.LIMIT_REACHED:
        raise ValueError("a search stopped at a limit has no solution file: neither a plan nor 'No solution'")
    states = result.states if result.solved else None
    return format_solution(problem.geometry, states, problem.variant, result.cost)


NOT_PUZZLES = ("solution", "output", ".out")
"""Words in the names of the course folders' files that are outputs, not puzzles."""
NOT_COURSE_MADE = ("med1T.txt",)
"""Files in the course folders that the course did not make (data/hrd/SOURCES.md): kept, but in no suite."""


class KlotskiDomain(Domain[KlotskiProblem, int, Any]):
    name = "klotski"
    summary = "Klotski / Hua Rong Dao sliding-block puzzles (CSC384 formats V1, V2, V3)"
    heuristics = HEURISTICS
    default_heuristic = "pdb"
    suites = (
        file_suite("hrd-v1", "klotski", "CSC384 Fall 2022 numeric boards (course kit, classic, two peers' inputs)",
                   "hrd/f22_numeric", "*.txt", NOT_PUZZLES),
        file_suite("hrd-v2", "klotski", "CSC384 2023-2024 character boards", "hrd/w23_s24_char", "*.txt",
                   NOT_PUZZLES),
        file_suite("hrd-v3", "klotski", "CSC384 2024-2025 boards with goal grids (two are unsolvable)",
                   "hrd/f24_w25_goal", "*.txt", (*NOT_PUZZLES, *NOT_COURSE_MADE)),
        file_suite("hrd-layouts32", "klotski", "the 32 classic Hua Rong Dao layouts (numeric format)",
                   "hrd/f22_numeric/layouts32_longles", "*.txt"),
    )
    options = (
        Option("metric", "what one move is: " + "; ".join(f"{name}: {text}" for name, text in METRICS.items())
               + " (default: step)", choices=tuple(METRICS), default="step"),
        Option("symmetry", "search one of each pair of mirror-image boards when the goal is symmetric: "
               "same optimal cost, about half the expansions (default: on)",
               type=bool, default=True, nargs=0, search_only=True),
    )
    generate_options = (
        Option("steps", "length of the random walk from a goal layout (default: 500)", type=int, default=500,
               minimum=1, maximum=1_000_000),
        Option("pieces", "instead of random walks (always solvable) from the classic goal, drop this many 2x2, "
               "vertical, horizontal and 1x1 pieces at random on a ROWSxCOLS board (solvable or not), e.g. 1,1,0,2",
               type=piece_counts, metavar="B,V,H,S"),
        Option("rows", "with --pieces: board rows (default: 5)", type=int, default=5, minimum=2, maximum=32),
        Option("cols", "with --pieces: board columns (default: 4)", type=int, default=4, minimum=2, maximum=32),
    )
    small_instances = {"steps": 200}
    course_formats = (
        SolutionFormat("hrd", SOLUTION_FORMAT, write=write_course_solution, read=read_solution),
    )
    examples = {
        "solve": [
            "heurist solve klotski data/hrd/w23_s24_char/testhrd_hard1.txt",
            "heurist solve klotski puzzle.txt --algo astar --heuristic manhattan --metric slide",
            "heurist solve klotski puzzle.txt --heuristic my_heuristics.py:h --format json",
        ],
        "validate": [
            "heurist validate klotski data/hrd/f24_w25_goal/hard1.txt data/hrd/f24_w25_goal/hard1.out",
            "heurist solve klotski puzzle.txt > plan.txt && heurist validate klotski puzzle.txt plan.txt",
            "heurist validate klotski puzzle.txt dfs_output.txt --format json",
        ],
        "render": [
            "heurist render klotski data/hrd/w23_s24_char/testhrd_med1.txt --out start.png",
            "heurist render klotski data/hrd/w23_s24_char/testhrd_easy1.txt "
            "--plan data/hrd/w23_s24_char/testhrd_easy1_astar_output_1.txt --out replay.html",
            "heurist render klotski data/hrd/w23_s24_char/testhrd_med1.txt --solve --out solution.gif",
        ],
        "check": [
            "heurist check klotski data/hrd/w23_s24_char/testhrd_hard1.txt -H blocking --against manhattan",
            "heurist check klotski data/hrd/f24_w25_goal/med1.txt -H pdb --metric path --claim consistent",
            "heurist check klotski --generated 20 --seed 1 -H student.py:h --format json",
            'heurist check klotski --generated 20 --generate-options "--pieces 1,1,0,2" -H neighbors',
        ],
        "generate": [
            "heurist generate klotski --seed 1 --count 10 --out puzzles/",
            "heurist generate klotski --seed 2 --steps 2000 > one.txt",
        ],
    }

    def load(self, path: str | Path, **options: Any) -> KlotskiProblem:
        """A puzzle file of any CSC384 variant; ``metric`` (default ``step``), ``symmetry`` (default on)."""
        values = self.check_options(options, str(path))
        return problem_from_puzzle(read_puzzle(path), values["metric"], values["symmetry"])

    def parse(self, text: str, source: str = "<string>", **options: Any) -> KlotskiProblem:
        """Like :meth:`load`, from the text of a puzzle file."""
        values = self.check_options(options, source)
        return problem_from_puzzle(parse_puzzle(text, source), values["metric"], values["symmetry"])

    def write_instance(self, problem: KlotskiProblem) -> str:
        return format_puzzle(problem.geometry, problem.start, problem.goal_state, problem.variant)

    def generate(self, *, seed: int = 0, count: int = 1, **options: Any) -> list[tuple[str, str]]:
        values = self.check_generate_options(options)
        if values["pieces"]:
            return random_layouts(seed, count, values["pieces"], values["rows"], values["cols"])
        return list(generated_files(seed, count, values["steps"]))

    def plain(self, problem: KlotskiProblem) -> KlotskiProblem:
        return problem.without_symmetry()

    def format_state(self, problem: KlotskiProblem, state: int) -> str:
        return format_board(problem.geometry, state)

    def parse_state(self, problem: KlotskiProblem, lines: Sequence[str], source: str, line: int) -> int:
        return parse_state_lines(list(lines), problem.geometry, source, line)

    def format_action(self, problem: KlotskiProblem, action: tuple[int, int, int]) -> str:
        return describe_move(problem.geometry, action)

    def describe(self, problem: KlotskiProblem) -> str:
        return problem.describe()

    # Drawing is imported when something is drawn: solving a puzzle needs none of it.

    @property
    def legend(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]
        from heurist.domains.klotski import drawing

        return tuple(drawing.LEGEND)

    def draw(self, problem: KlotskiProblem, states: Sequence[int], index: int = -1, *, flip: bool = False) -> Scene:
        from heurist.domains.klotski import drawing

        return drawing.draw(problem, states, index % len(states), flip)

    def terminal_style(self, problem: KlotskiProblem, state: int) -> Callable[[int, int, str], str | None]:
        from heurist.domains.klotski import drawing

        return drawing.terminal_style(problem, state)

    def explore(self, problem: KlotskiProblem, max_states: int) -> Any:
        """The start's component a breadth-first layer at a time with numpy (see :mod:`.space`)."""
        from heurist.domains.klotski.space import klotski_state_space

        return klotski_state_space(problem, max_states)


DOMAIN = KlotskiDomain()

load = DOMAIN.load
"""Read a puzzle file as a problem: ``load(path, metric="slide", symmetry=False)``."""

__all__ = [
    "DOMAIN",
    "HEURISTICS",
    "METRICS",
    "V1",
    "V2",
    "V3",
    "KlotskiDomain",
    "KlotskiProblem",
    "Puzzle",
    "describe_move",
    "format_puzzle",
    "load",
    "parse_puzzle",
    "problem_from_puzzle",
    "read_puzzle",
]
