"""``heurist blokus``: the HUJI Intro to AI Blokus exercise's ``game.py``, without a window.

Accepts the course's command lines unchanged, e.g.::

    heurist blokus -p small_set.txt -f astar -s 10 10 -H blokus_cover_heuristic \\
        -z cover -x 3 3 "[(2,2), (5, 5), (6, 7)]"

and prints the final board as text, then the course's line
``Expanded nodes: N, score: S``. N counts calls to the problem's successor
function, as the course's ``problem.expanded`` does (summed over the
sub-searches for ``sub-optimal``); S is the number of tiles placed.

``-f dfs|bfs|ucs|astar`` search as the course's solutions of ``search.py``
do (:mod:`heurist.domains.blokus.course_search`), with the course's order of
moves, so N is the number a student's ``game.py`` prints for the same search.
The course's heuristic names (``blokus_corners_heuristic``,
``blokus_cover_heuristic``) run ``reach``, an admissible heuristic; the
write-ups' inadmissible estimate is ``-H cover``.
"""

from __future__ import annotations

import argparse
import math

from heurist.cli.common import (
    EXIT_BY_STATUS,
    EXIT_STATUS_HELP,
    add_limit_arguments,
    add_render_arguments,
    check_render_target,
    limits_from,
    render_result,
)
from heurist.domains.blokus import DOMAIN, HEURISTICS, load_pieces, make_problem
from heurist.domains.blokus.course_search import course_pieces, course_search
from heurist.domains.blokus.pieces import parse_targets
from heurist.domains.blokus.strategies import (
    DEFAULT_BUDGET,
    StrategyResult,
    closest_location_search,
    mini_contest_search,
)
from heurist.errors import InputError

ORDER = 31

PUZZLE_CHOICES = ("fill", "diagonal", "corners", "cover", "sub-optimal", "mini-contest")
SEARCH_FUNCTIONS = ("dfs", "bfs", "ucs", "astar")

EXAMPLES = """examples (the assignment's commands):
  heurist blokus -p tiny_set.txt -s 4 7 -z fill
  heurist blokus -p tiny_set_2.txt -f bfs -s 6 6 -z corners
  heurist blokus -p tiny_set_2.txt -f astar -s 8 8 -z corners -H blokus_corners_heuristic
  heurist blokus -p small_set.txt -f astar -s 6 6 -H null_heuristic -z cover -x 3 3 "[(2,2), (5, 5), (1, 4)]"
  heurist blokus -p valid_pieces.txt -s 10 10 -z sub-optimal -x 7 7 "[(5,5), (8,8), (4,9)]"
  heurist blokus -p valid_pieces.txt -s 15 15 -z mini-contest "[(0,1),(0,9),(5,5), (8,8), (4,9),(9,2)]"
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "blokus",
        help="the HUJI Intro to AI Blokus game.py: course command lines, text output",
        description=(
            "Solve a Blokus puzzle from the course's game.py command line and print the final board "
            "and 'Expanded nodes: N, score: S'. Coordinates are (row, col); -s ROWS COLS."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        epilog=EXAMPLES + "\n" + _heuristic_help() + "\n\n" + EXIT_STATUS_HELP,
    )
    parser.add_argument(
        "-p", "--pieces", default="valid_pieces.txt", metavar="FILE",
        help="piece file: a bundled name (valid_pieces.txt, small_set.txt, tiny_set.txt, "
        "tiny_set_2.txt) or a path (default: %(default)s)",
    )
    parser.add_argument(
        "-f", "--search-function", choices=SEARCH_FUNCTIONS, default="dfs",
        help="search function; ignored by sub-optimal and mini-contest (default: %(default)s)",
    )
    parser.add_argument(
        "-s", "--board-size", nargs=2, type=int, default=(20, 20), metavar=("ROWS", "COLS"),
        help="board height and width (default: 20 20)",
    )
    parser.add_argument(
        "-H", "--heuristic", metavar="NAME",
        help="heuristic for astar (default: null_heuristic); see below",
    )
    parser.add_argument("-z", "--puzzle", choices=PUZZLE_CHOICES, help="the puzzle to solve")
    parser.add_argument(
        "-x", "--start-point", nargs=2, type=int, default=(0, 0), metavar=("ROW", "COL"),
        help="starting square as row and column (default: 0 0)",
    )
    parser.add_argument(
        "targets", nargs="*", metavar="TARGETS",
        help='squares to cover, e.g. "[(2,2), (5, 5)]"; the arguments are joined, so quoting is optional',
    )
    heurist = parser.add_argument_group("heurist options (not in game.py)")
    heurist.add_argument(
        "--legacy-board", action="store_true",
        help="the pre-2020 board: no piece anchored in the last row or column",
    )
    heurist.add_argument(
        "--time-budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
        help="mini-contest: CPU seconds for the whole search (default: %(default)g)",
    )
    heurist.add_argument("--quiet", "-q", action="store_true", help="print only the 'Expanded nodes' line")
    heurist.add_argument("--moves", action="store_true", help="also list the moves of the solution")
    add_render_arguments(heurist, flip=True)
    add_limit_arguments(parser)
    parser.set_defaults(handler=run)


def _heuristic_help() -> str:
    lines = ["heuristics (-H):"]
    for name, summary in HEURISTICS.describe():
        lines.append(f"  {name:<8} {summary}")
    lines.append("  course names: null_heuristic (= zero); blokus_corners_heuristic and blokus_cover_heuristic (= reach,")
    lines.append("  admissible); the write-ups' inadmissible estimate is cover")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    heuristic = HEURISTICS.resolve(args.heuristic) if args.heuristic else HEURISTICS["zero"]
    puzzle = args.puzzle
    if puzzle is None:
        raise InputError(
            "give a puzzle with -z fill|corners|cover|sub-optimal|mini-contest "
            "(game.py's four-player random game is not supported)",
            "-z",
        )
    if puzzle == "diagonal":
        raise InputError("game.py accepts 'diagonal' but defines no such puzzle", "-z")
    targets = parse_targets("".join(args.targets), "targets") if args.targets else ()
    if puzzle in ("fill", "corners") and targets:
        raise InputError(f"a {puzzle} puzzle takes no target list; targets are for cover, sub-optimal and "
                         "mini-contest", "targets")
    if puzzle in ("cover", "sub-optimal") and not targets:
        raise InputError(f"{puzzle} puzzles require at least one point to cover", "targets")
    if not (math.isfinite(args.time_budget) and args.time_budget > 0):
        raise InputError(f"must be a positive number of seconds, got {args.time_budget}", "--time-budget")
    check_render_target(args)
    pieces = load_pieces(args.pieces)
    if puzzle in ("fill", "corners", "cover"):
        pieces = course_pieces(pieces)  # the course's order of moves, for the course's expanded counts
    problem = make_problem(
        puzzle, pieces, tuple(args.board_size), tuple(args.start_point), targets, legacy=args.legacy_board
    )
    limits = limits_from(args)
    if puzzle == "sub-optimal":
        outcome = closest_location_search(problem, limits)
    elif puzzle == "mini-contest":
        outcome = mini_contest_search(problem, args.time_budget, limits)
    else:
        result = course_search(problem, args.search_function, heuristic, limits=limits)
        outcome = StrategyResult(result, problem.expanded, False, [result])
    render_result(
        DOMAIN,
        problem,
        outcome.result,
        args,
        title=f"blokus: {args.pieces}, {args.board_size[0]}x{args.board_size[1]} {puzzle}",
        heuristic=heuristic if args.heuristic else None,
        optimal=outcome.proven_optimal or (puzzle in ("fill", "corners", "cover") and args.search_function == "ucs"),
    )
    print(DOMAIN.write_solution(problem, outcome.result, "game", expanded=outcome.expanded, note=outcome.note,
                                quiet=args.quiet, moves=args.moves))
    return EXIT_BY_STATUS[outcome.result.status]
