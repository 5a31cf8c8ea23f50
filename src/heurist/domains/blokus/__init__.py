"""Blokus puzzles from the HUJI "Introduction to AI" search exercise.

One player places polyomino pieces on a board: the first piece covers the
start square, every later piece touches one of the player's pieces corner to
corner and none edge to edge, each piece is used once, in any rotation or
reflection. Puzzles: ``fill`` (place every piece), ``corners`` (cover the
three other corners with the fewest tiles), ``cover`` (cover given targets
with the fewest tiles). The course's ``sub-optimal`` and ``mini-contest``
strategies are in :mod:`.strategies` and the ``heurist blokus`` command.

An instance file is a course piece file, optionally followed by an instance
section (puzzle, board size, start, targets); keyword options override it.

* :mod:`.board` -- bitboards and legal placements;
* :mod:`.pieces` -- pieces, their orientations, and the piece files with their instance section;
* :mod:`.model` -- :class:`BlokusProblem` and its puzzles;
* :mod:`.strategies` -- the course's ``sub-optimal`` and ``mini-contest`` strategies;
* :mod:`.formats` -- solution files (move lists, the ``game.py`` report), each reader beside its writer;
* :mod:`.heuristics` -- the registered heuristics;
* :mod:`.reach` -- the bounds the admissible ``reach`` heuristic is built from, one state or all children at once;
* :mod:`.generate` -- random cover instances, solvable by construction;
* :mod:`.drawing` -- boards as scenes and terminal colours.

From Python: a cover puzzle on the course's ``small_set.txt`` (a bundled
piece file, found by name), with the options of ``heurist solve blokus``::

    >>> import heurist
    >>> from heurist.search import search
    >>> problem = heurist.load("blokus", "small_set.txt", board_size=(6, 6), start=(3, 3),
    ...                        targets=[(2, 2), (5, 5), (1, 4)])
    >>> problem
    CoverProblem('cover on 6x6 with small_set.txt from (3, 3), targets [(2, 2), (5, 5), (1, 4)]')
    >>> result = search(problem)  # A* with the default heuristic, reach; the cost is tiles placed
    >>> result
    <SearchResult astar: solved, cost 7, 3 moves, 4 expansions>
    >>> [problem.domain.format_action(problem, action) for action in result.actions]
    ['piece 7 (4 tiles) at (2,2) (2,3) (3,3) (4,3)', 'piece 2 (2 tiles) at (5,4) (5,5)', 'piece 1 (1 tile) at (1,4)']
    >>> print(problem.domain.format_state(problem, result.states[-1]))
    . . . . . .
    . . . . X .
    . . X # . .
    . . . # . .
    . . . # . .
    . . . . # X
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from heurist.domains import Domain, Option, SolutionFormat
from heurist.domains.blokus import drawing
from heurist.domains.blokus.board import Board, Placement
from heurist.domains.blokus.formats import (
    SOLUTION_FORMAT,
    format_placement,
    parse_placement,
    read_solution,
    write_course_solution,
)
from heurist.domains.blokus.generate import generate_files
from heurist.domains.blokus.heuristics import HEURISTICS
from heurist.domains.blokus.model import (
    PUZZLES,
    BlokusProblem,
    CornersProblem,
    CoverProblem,
    FillProblem,
    make_problem,
)
from heurist.domains.blokus.pieces import (
    PieceSet,
    check_board_size,
    check_on_board,
    format_instance,
    load_pieces,
    parse_pieces,
    parse_targets,
)
from heurist.domains.blokus.strategies import closest_location_search, mini_contest_search
from heurist.domains.suites import command_suite
from heurist.errors import InputError
from heurist.scene import Scene

DEFAULT_BOARD_SIZE = (20, 20)
"""The course's default board, as ``game.py -s`` has it."""


def _targets(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(parse_targets(text, "--targets"))


def _format_targets(targets: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(f"({row},{col})" for row, col in targets) + "]"


def problem_from_pieces(pieces: PieceSet, *, puzzle: str | None = None, board_size: tuple[int, int] | None = None,
                        start: tuple[int, int] | None = None, targets: Sequence[tuple[int, int]] | None = None,
                        legacy_board: bool = False) -> BlokusProblem:
    """Combine the piece file's instance section with the options (which win).

    Targets given for a puzzle that takes none (fill, corners) are refused,
    and a start square or target of the file's section that is off the board
    is reported at its line in the file.
    """
    instance = pieces.instance
    if targets and puzzle in ("fill", "corners"):
        raise InputError(f"a {puzzle} puzzle takes no targets; targets are for cover", "--targets")
    targets = tuple(targets) if targets else instance.targets
    puzzle = puzzle or instance.puzzle or ("cover" if targets else "fill")
    if puzzle not in PUZZLES:
        raise InputError(f"unknown puzzle {puzzle!r}; choose one of {', '.join(PUZZLES)}", pieces.name)
    if puzzle == "cover" and not targets:
        raise InputError("a cover puzzle needs targets: give --targets, or a 'targets:' line in the instance "
                         "section", *instance.where("puzzle", instance.source or pieces.name))
    size = tuple(board_size or instance.board_size or DEFAULT_BOARD_SIZE)
    check_board_size(*size, *instance.where("board", "--board-size") if not board_size else ("--board-size",))
    from_file = replace(
        instance,
        start=None if start else instance.start,
        targets=instance.targets if puzzle == "cover" and targets is instance.targets else None,
    )
    check_on_board(from_file, *size)
    start = start or instance.start or (0, 0)
    return make_problem(puzzle, pieces, size, tuple(start), tuple(targets or ()) if puzzle == "cover" else (),
                        legacy=legacy_board)


COURSE_COMMANDS = (
    # (label, piece file, options): the exercise's reference commands that the
    # generic engine solves (fill, corners, cover), as `heurist solve blokus` options.
    ("fill-4x7-tiny", "tiny_set.txt", "--puzzle fill --board-size 4 7"),
    ("corners-5x5-small", "small_set.txt", "--puzzle corners --board-size 5 5"),
    ("corners-6x6-tiny2", "tiny_set_2.txt", "--puzzle corners --board-size 6 6"),
    ("corners-8x8-tiny2", "tiny_set_2.txt", "--puzzle corners --board-size 8 8"),
    ("cover-6x6-small", "small_set.txt", '--board-size 6 6 --start 3 3 --targets "[(2,2), (5,5), (1,4)]"'),
    ("cover-8x8-small", "small_set.txt", '--board-size 8 8 --start 3 3 --targets "[(2,2), (5,5), (6,7)]"'),
    ("cover-10x10-small", "small_set.txt", '--board-size 10 10 --start 3 3 --targets "[(2,2), (5,5), (6,7)]"'),
    ("cover-10x10-valid-a", "valid_pieces.txt", '--board-size 10 10 --start 7 7 --targets "[(5,5), (8,8), (4,9)]"'),
    ("cover-10x10-valid-b", "valid_pieces.txt", '--board-size 10 10 --start 5 5 --targets "[(3,4), (6,6), (7,5)]"'),
    (
        "cover-15x15-contest", "valid_pieces.txt",
        '--board-size 15 15 --start 0 0 --targets "[(0,1), (0,9), (5,5), (8,8), (4,9), (9,2)]"',
    ),
)


class BlokusDomain(Domain[BlokusProblem, tuple, Placement]):
    name = "blokus"
    summary = "Blokus puzzles (fill, corners, cover) from the HUJI Intro to AI search exercise"
    heuristics = HEURISTICS
    default_heuristic = "reach"
    suites = (command_suite("blokus-course", "blokus", "the HUJI exercise's fill, corners and cover commands",
                            "blokus", COURSE_COMMANDS),)
    options = (
        Option("puzzle", "fill, corners or cover (default: the file's, else cover when --targets is given, "
               "else fill)", choices=PUZZLES, flags=("-z",)),
        Option("board_size", "board rows and columns (default: the file's, else 20 20)", type=int, nargs=2,
               flags=("-s",), metavar=("ROWS", "COLS")),
        Option("start", "start square as row and column (default: the file's, else 0 0)", type=int, nargs=2,
               flags=("-x",), metavar=("ROW", "COL")),
        Option("targets", 'squares to cover, e.g. "[(2,2), (5,5)]"', type=_targets, flags=("-t",), metavar="LIST",
               format=_format_targets),
        Option("legacy_board", "the course's pre-2020 move generator: no piece anchored in the last row or column",
               type=bool, default=False, nargs=0),
    )
    generate_options = (
        Option("pieces", "piece file, by path or bundled name (default: small_set.txt)", default="small_set.txt",
               flags=("-p",), metavar="FILE"),
        Option("board_size", "board size (default: 10 10)", type=int, nargs=2, default=(10, 10), flags=("-s",),
               minimum=1, maximum=50,
               metavar=("ROWS", "COLS")),
        Option("start", "start square (default: random)", type=int, nargs=2, flags=("-x",), metavar=("ROW", "COL")),
        Option("targets", "number of targets (default: 3)", type=int, default=3, flags=("-t",), minimum=1,
               maximum=2500),
        Option("legacy_board", "use the pre-2020 move generator", type=bool, default=False, nargs=0),
    )
    small_instances = {"pieces": "tiny_set_2.txt", "board_size": (5, 5)}
    course_formats = (
        SolutionFormat("game", SOLUTION_FORMAT, write=write_course_solution, read=read_solution),
    )
    flips = True
    legend = tuple(drawing.LEGEND)
    template_placeholders = {
        "pieces": "the piece file (the same as {input})",
        "size": "the board's rows and columns, two words ('10 10')",
        "start": "the start square's row and column, two words ('3 3')",
        "targets": "the targets as one quoted word ('[(2,2), (5,5)]'), empty when the puzzle has none",
        "puzzle": "fill, corners or cover",
    }
    examples = {
        "solve": [
            "heurist solve blokus tiny_set.txt --puzzle fill --board-size 4 7 --algo dfs",
            "heurist solve blokus tiny_set_2.txt --puzzle corners --board-size 8 8",
            'heurist solve blokus small_set.txt -s 10 10 -x 3 3 --targets "[(2,2), (5,5), (6,7)]"',
            "heurist blokus -p small_set.txt -f astar -s 10 10 -H blokus_cover_heuristic -z cover "
            '-x 3 3 "[(2,2), (5, 5), (6, 7)]"',
        ],
        "validate": [
            'heurist validate blokus small_set.txt moves.txt -s 6 6 -x 3 3 --targets "[(2,2), (5,5), (1,4)]"',
        ],
        "render": [
            'heurist render blokus small_set.txt -s 10 10 -x 3 3 --targets "[(2,2), (5,5), (6,7)]" --out board.png',
            'heurist render blokus small_set.txt -s 10 10 -x 3 3 --targets "[(2,2), (5,5), (6,7)]" --solve '
            "--out cover.html",
            'heurist render blokus small_set.txt -s 10 10 -x 3 3 --targets "[(2,2), (5,5), (6,7)]" --plan moves.txt '
            "--out moves.gif",
        ],
        "check": ['heurist check blokus small_set.txt -s 5 5 -x 2 2 --targets "[(0,0), (4,4)]" -H cover'],
        "generate": ["heurist generate blokus --pieces small_set.txt --board-size 8 8 --count 5 --out blokus/"],
    }

    def load(self, path: str | Path, **options: Any) -> BlokusProblem:
        """A piece file (by path or bundled name) and the puzzle its instance section and ``options`` describe."""
        values = self.check_options(options, str(path))
        return problem_from_pieces(load_pieces(path), **values)

    def write_instance(self, problem: BlokusProblem) -> str:
        board = problem.board
        return format_instance(board.pieces, problem.kind, (board.rows, board.cols), problem.start,
                               problem.targets if problem.kind == "cover" else ())

    def generate(self, *, seed: int = 0, count: int = 1, **options: Any) -> list[tuple[str, str]]:
        values = self.check_generate_options(options)
        return list(generate_files(seed, count, **values))

    def format_state(self, problem: BlokusProblem, state: tuple) -> str:
        return problem.draw(state)

    def template_values(self, problem: BlokusProblem, input_word: str) -> dict[str, str]:
        """``game.py``'s words: ``-p {pieces} -s {size} -x {start} -z {puzzle} {targets}``."""
        board = problem.board
        targets = ""
        if problem.kind == "cover" and problem.targets:
            targets = shlex.quote("[" + ", ".join(f"({r},{c})" for r, c in problem.targets) + "]")
        return {"pieces": input_word, "size": f"{board.rows} {board.cols}",
                "start": f"{problem.start[0]} {problem.start[1]}", "targets": targets, "puzzle": problem.kind}

    def format_action(self, problem: BlokusProblem, action: Placement) -> str:
        return format_placement(action)

    def parse_action(self, problem: BlokusProblem, text: str, source: str, line: int) -> Placement:
        return parse_placement(problem, text, source, line)

    def describe(self, problem: BlokusProblem) -> str:
        return problem.describe()

    def step(self, problem: BlokusProblem, state: tuple, after: tuple) -> tuple[Placement, float] | None:
        """Found among the legal placements without counting an expansion, as the course counts them."""
        occupied, used = state[0], state[1]
        for move in problem.board.legal_placements(occupied, used, problem.start_bit):
            if (occupied | move.mask, used | 1 << move.piece) == (after[0], after[1]):
                return move, (move.size if problem.tile_cost else 1)
        return None

    def draw(self, problem: BlokusProblem, states: Sequence[tuple], index: int = -1, *, flip: bool = False) -> Scene:
        plain = [drawing.problem_state(state) for state in states]
        return drawing.draw(problem, plain, index % len(plain), flip)

    def terminal_style(self, problem: BlokusProblem, state: tuple) -> Callable[[int, int, str], str | None]:
        return drawing.terminal_style(problem, state)

    def explore(self, problem: BlokusProblem, max_states: int) -> Any:
        """Placements only add tiles, so goals are final and are not expanded."""
        from heurist.search.space import explore

        return explore(problem, max_states, expand_goals=False)


DOMAIN = BlokusDomain()

load = DOMAIN.load
"""Read a piece file as a puzzle: ``load("small_set.txt", board_size=(10, 10), targets=[(2, 2)])``."""

__all__ = [
    "DEFAULT_BOARD_SIZE",
    "DOMAIN",
    "HEURISTICS",
    "PUZZLES",
    "BlokusDomain",
    "BlokusProblem",
    "Board",
    "CornersProblem",
    "CoverProblem",
    "FillProblem",
    "PieceSet",
    "Placement",
    "closest_location_search",
    "load",
    "load_pieces",
    "make_problem",
    "mini_contest_search",
    "parse_pieces",
    "problem_from_pieces",
]
