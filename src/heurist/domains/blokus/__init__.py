"""Blokus puzzles from the HUJI "Introduction to AI" search exercise.

One player places polyomino pieces on a board: the first piece covers the
start square, every later piece touches one of the player's pieces corner to
corner and none edge to edge, each piece is used once, in any rotation or
reflection. Puzzles: ``fill`` (place every piece), ``corners`` (cover the
three other corners with the fewest tiles), ``cover`` (cover given targets
with the fewest tiles). The course's ``sub-optimal`` and ``mini-contest``
strategies are in :mod:`heurist.domains.blokus.model` and the
``heurist blokus`` command.

An instance file is a course piece file, optionally followed by an instance
section (puzzle, board size, start, targets); command-line options override it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from heurist.domains import Domain
from heurist.domains.blokus.board import Board, Placement
from heurist.domains.blokus.formats import SOLUTION_FORMAT, read_solution
from heurist.domains.blokus.generate import add_generate_arguments, generate
from heurist.domains.blokus.heuristics import HEURISTICS
from heurist.domains.blokus.model import (
    PUZZLES,
    BlokusProblem,
    CornersProblem,
    CoverProblem,
    FillProblem,
    closest_location_search,
    make_problem,
    mini_contest_search,
)
from heurist.domains.blokus.pieces import (
    PieceSet,
    load_pieces,
    parse_pieces,
    parse_targets,
)
from heurist.errors import InputError

DEFAULT_BOARD_SIZE = (20, 20)
"""The course's default board, as ``game.py -s`` has it."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("blokus puzzle (options override the instance section of FILE)")
    group.add_argument(
        "--puzzle", "-z", choices=PUZZLES,
        help="fill, corners or cover (default: the file's, else cover when --targets is given, else fill)",
    )
    group.add_argument(
        "--board-size", "-s", nargs=2, type=int, metavar=("ROWS", "COLS"),
        help="board rows and columns (default: the file's, else 20 20)",
    )
    group.add_argument(
        "--start", "-x", nargs=2, type=int, metavar=("ROW", "COL"),
        help="start square as row and column (default: the file's, else 0 0)",
    )
    group.add_argument("--targets", "-t", metavar="LIST", help='squares to cover, e.g. "[(2,2), (5,5)]"')
    group.add_argument(
        "--legacy-board", action="store_true",
        help="the course's pre-2020 move generator: no piece anchored in the last row or column",
    )


def problem_from_options(pieces: PieceSet, options: argparse.Namespace) -> BlokusProblem:
    """Combine the file's instance section with the command-line options."""
    instance = pieces.instance
    targets = parse_targets(options.targets, "--targets") if getattr(options, "targets", None) else instance.targets
    puzzle = getattr(options, "puzzle", None) or instance.puzzle or ("cover" if targets else "fill")
    if puzzle not in PUZZLES:
        raise InputError(f"unknown puzzle {puzzle!r}; choose one of {', '.join(PUZZLES)}", pieces.name)
    size = getattr(options, "board_size", None) or instance.board_size or DEFAULT_BOARD_SIZE
    start = getattr(options, "start", None) or instance.start or (0, 0)
    return make_problem(
        puzzle, pieces, tuple(size), tuple(start), tuple(targets or ()),
        legacy=bool(getattr(options, "legacy_board", False)),
    )


def load(path: str | Path, options: argparse.Namespace) -> BlokusProblem:
    """Read a piece file (by path or bundled name) and build the puzzle the options describe."""
    return problem_from_options(load_pieces(path), options)


def format_state(problem: BlokusProblem, state) -> str:
    return problem.draw(state)


def format_action(problem: BlokusProblem, action: Placement) -> str:
    return repr(action)


def explore(problem: BlokusProblem, max_states: int):
    """The start's component for exact distances; placements only add tiles, so goals are final and
    are not expanded."""
    from heurist.search.space import explore as explore_breadth_first

    return explore_breadth_first(problem, max_states, expand_goals=False)


DOMAIN = Domain(
    name="blokus",
    summary="Blokus puzzles (fill, corners, cover) from the HUJI Intro to AI search exercise",
    heuristics=HEURISTICS,
    default_heuristic="reach",
    load=load,
    format_state=format_state,
    format_action=format_action,
    add_arguments=add_arguments,
    add_generate_arguments=add_generate_arguments,
    generate=generate,
    read_solution=read_solution,
    explore=explore,
    small_generate_options=("--pieces", "tiny_set_2.txt", "--board-size", "5", "5"),
    solution_format=SOLUTION_FORMAT,
    examples=[
        "heurist solve blokus tiny_set.txt --puzzle fill --board-size 4 7 --algo dfs",
        "heurist solve blokus tiny_set_2.txt --puzzle corners --board-size 8 8",
        'heurist solve blokus small_set.txt -s 10 10 -x 3 3 --targets "[(2,2), (5,5), (6,7)]"',
        "heurist blokus -p small_set.txt -f astar -s 10 10 -H blokus_cover_heuristic -z cover "
        '-x 3 3 "[(2,2), (5, 5), (6, 7)]"',
    ],
)

__all__ = [
    "DOMAIN",
    "HEURISTICS",
    "Board",
    "BlokusProblem",
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
    "problem_from_options",
]
