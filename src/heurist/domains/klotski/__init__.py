"""Klotski / Hua Rong Dao: sliding blocks of four shapes on a rectangular board.

* :mod:`.board` -- bitboard geometry, packed states and move generation;
* :mod:`.formats` -- the CSC384 V1/V2/V3 file formats;
* :mod:`.problem` -- :class:`KlotskiProblem` (goal and move metric);
* :mod:`.heuristics` -- the registered heuristics;
* :mod:`.generate` -- random layouts (solvable random walks, or any piece set);
* :mod:`.solutions` -- the course's output files read back;
* :mod:`.space` -- whole state spaces with numpy, a breadth-first layer at a time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from heurist.domains import Domain
from heurist.domains.klotski.board import DIRECTION_NAME, DIRECTIONS, SHAPE_NAME, Geometry
from heurist.domains.klotski.formats import (
    SOLUTION_FORMAT,
    Puzzle,
    format_board,
    read_puzzle,
    read_solution,
)
from heurist.domains.klotski.generate import generated_files, piece_counts, random_layouts
from heurist.domains.klotski.heuristics import HEURISTICS
from heurist.domains.klotski.model import METRICS, KlotskiProblem


def load(path: str | Path, options: argparse.Namespace | None = None) -> KlotskiProblem:
    """Read a puzzle file (any CSC384 variant) as a problem.

    ``options.metric`` picks the move metric (default ``step``) and
    ``options.symmetry`` the mirror-symmetry reduction (default off here; the
    command line turns it on).
    """
    metric = getattr(options, "metric", "step")
    symmetry = getattr(options, "symmetry", False)
    return problem_from_puzzle(read_puzzle(path), metric, symmetry)


def problem_from_puzzle(puzzle: Puzzle, metric: str = "step", symmetry: bool = False) -> KlotskiProblem:
    return KlotskiProblem(
        puzzle.geometry, puzzle.start, puzzle.goal, metric, name=puzzle.source, symmetry=symmetry
    )


def format_state(problem: KlotskiProblem, state: int) -> str:
    return format_board(problem.geometry, state)


def describe_move(geometry: Geometry, action: tuple[int, int, int]) -> str:
    """E.g. ``2x2 at (0,1) down`` for one-cell steps, ``... to (3,1)`` for longer moves."""
    shape, source, target = action
    r, c = geometry.row_col(source)
    tr, tc = geometry.row_col(target)
    for direction, (dr, dc) in DIRECTIONS.items():
        if (tr - r, tc - c) == (dr, dc):
            return f"{SHAPE_NAME[shape]} at ({r},{c}) {DIRECTION_NAME[direction]}"
    return f"{SHAPE_NAME[shape]} at ({r},{c}) to ({tr},{tc})"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--metric",
        choices=list(METRICS),
        default="step",
        help="what one move is: "
        + "; ".join(f"{name}: {text}" for name, text in METRICS.items())
        + " (default: step)",
    )
    parser.add_argument(
        "--symmetry",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="search one of each pair of mirror-image boards when the goal is symmetric: "
        "same optimal cost, about half the expansions (default: on)",
    )


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--steps", type=int, default=500, help="length of the random walk from a goal layout (default: 500)"
    )
    parser.add_argument(
        "--pieces", type=piece_counts, metavar="B,V,H,S",
        help="instead of random walks (always solvable) from the classic goal, drop this many 2x2, vertical, "
        "horizontal and 1x1 pieces at random on a ROWSxCOLS board (solvable or not), e.g. 1,1,0,2",
    )
    parser.add_argument("--rows", type=int, default=5, help="with --pieces: board rows (default: 5)")
    parser.add_argument("--cols", type=int, default=4, help="with --pieces: board columns (default: 4)")


def generate(options: argparse.Namespace):
    if getattr(options, "pieces", None):
        return random_layouts(options.seed, options.count, options.pieces, options.rows, options.cols)
    return generated_files(options.seed, options.count, options.steps)


def explore(problem: KlotskiProblem, max_states: int):
    """The start's component a breadth-first layer at a time with numpy (see :mod:`.space`)."""
    from heurist.domains.klotski.space import klotski_state_space

    return klotski_state_space(problem, max_states)


DOMAIN = Domain(
    name="klotski",
    summary="Klotski / Hua Rong Dao sliding-block puzzles (CSC384 formats V1, V2, V3)",
    heuristics=HEURISTICS,
    default_heuristic="pdb",
    load=load,
    format_state=format_state,
    format_action=lambda problem, action: describe_move(problem.geometry, action),
    add_arguments=add_arguments,
    add_generate_arguments=add_generate_arguments,
    generate=generate,
    read_solution=read_solution,
    explore=explore,
    small_generate_options=("--steps", "200"),
    search_only_options=("symmetry",),
    solution_format=SOLUTION_FORMAT,
    examples=[
        "heurist solve klotski data/hrd/w23_s24_char/testhrd_hard1.txt",
        "heurist solve klotski puzzle.txt --algo astar --heuristic manhattan --metric slide",
        "heurist solve klotski puzzle.txt --heuristic my_heuristics.py:h --format json",
    ],
)

__all__ = ["DOMAIN", "HEURISTICS", "KlotskiProblem", "load", "problem_from_puzzle"]
