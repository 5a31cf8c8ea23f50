"""``heurist hrd``: a drop-in for the CSC384 Hua Rong Dao ``hrd.py``.

Both course command lines work unchanged:

* V2/V3 (2023-2025): ``heurist hrd --algo astar|dfs --inputfile IN --outputfile OUT``
* V1 (Fall 2022):    ``heurist hrd IN DFS_OUT ASTAR_OUT`` (one run writes both files)

The output follows the input's variant: V1 files get the ``Cost of the
solution`` line and the V1 digits; V2 and V3 files get the boards; an
unsolvable puzzle gets ``No solution``.
"""

from __future__ import annotations

import argparse
import sys

from heurist.cli.common import (
    EXIT_LIMIT,
    EXIT_STATUS_HELP,
    EXIT_UNSOLVABLE,
    add_limit_arguments,
    add_render_arguments,
    check_render_target,
    format_statistics,
    interrupted_exit,
    limits_from,
    render_files,
)
from heurist.domains.klotski import DOMAIN, HEURISTICS, problem_from_puzzle
from heurist.domains.klotski.formats import read_puzzle
from heurist.errors import InputError
from heurist.files import check_writable, write_files
from heurist.search import Status, search

ORDER = 30

EXAMPLES = """examples:
  heurist hrd --algo astar --inputfile testhrd_hard1.txt --outputfile hard1_astar.txt
  heurist hrd --algo dfs --inputfile hard2.txt --outputfile hard2_dfs.txt
  heurist hrd hrd_input0.txt hrd_dfs.txt hrd_output0.txt
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hrd",
        help="the CSC384 Hua Rong Dao solver's command line (hrd.py)",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES + "\n" + EXIT_STATUS_HELP,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="V1 form: INPUT DFS_OUTPUT ASTAR_OUTPUT")
    parser.add_argument("--algo", choices=["astar", "dfs"], help="V2/V3 form: the algorithm")
    parser.add_argument("--inputfile", metavar="IN", help="V2/V3 form: the puzzle")
    parser.add_argument("--outputfile", metavar="OUT", help="V2/V3 form: where to write the solution")
    parser.add_argument(
        "--heuristic",
        "-H",
        default="pdb",
        metavar="NAME",
        help=f"A*'s heuristic: {', '.join(HEURISTICS.names())}, or FILE.py:FUNCTION (default: pdb)",
    )
    parser.add_argument(
        "--symmetry",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="search one of each pair of mirror-image boards when the goal allows (default: on)",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="print the statistics to stderr")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress line on a terminal")
    add_render_arguments(parser)
    add_limit_arguments(parser, whole_run=True)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    flags = [args.algo, args.inputfile, args.outputfile]
    if args.files:
        if any(flag is not None for flag in flags) or len(args.files) != 3:
            raise InputError("give either INPUT DFS_OUTPUT ASTAR_OUTPUT, or --algo, --inputfile and --outputfile", "hrd")
        source, dfs_out, astar_out = args.files
        jobs = [("dfs", dfs_out), ("astar", astar_out)]
    else:
        if any(flag is None for flag in flags):
            raise InputError("the arguments --algo, --inputfile and --outputfile are required", "hrd")
        source = args.inputfile
        jobs = [(args.algo, args.outputfile)]
    check_render_target(args)
    for _, destination in jobs:  # every output is checked before any is written
        check_writable(destination)
    puzzle = read_puzzle(source)
    heuristic = HEURISTICS.resolve(args.heuristic)
    outputs = []
    status = 0
    stopped = []  # said after the files are written: a failed write must stay the only line on stderr
    for algorithm, destination in jobs:
        problem = problem_from_puzzle(puzzle, symmetry=args.symmetry)
        result = search(problem, algorithm, heuristic if algorithm == "astar" else HEURISTICS["zero"],
                        limits=limits_from(args), progress=not args.quiet)
        if args.verbose:
            print(f"{algorithm} -> {destination}\n{format_statistics(result)}", file=sys.stderr)
        if result.status is Status.INTERRUPTED:
            print(f"heurist: {source}: {algorithm} interrupted; no output file written", file=sys.stderr)
            return interrupted_exit()
        if result.status is Status.LIMIT_REACHED:
            stopped.append(f"heurist: {source}: {algorithm} stopped at its {result.limit} limit; "
                           f"{destination} not written")
            status = EXIT_LIMIT
            continue
        if result.status is Status.UNSOLVABLE and status != EXIT_LIMIT:
            status = EXIT_UNSOLVABLE
        outputs.append((destination, DOMAIN.write_solution(problem, result, "hrd")))
        drawn = (problem, result)
    if outputs:  # the plan files and the picture, all or nothing
        problem, result = drawn
        outputs += render_files(DOMAIN, problem, result, args, title=f"hrd: {source}")
    write_files(outputs)
    for line in stopped:
        print(line, file=sys.stderr)
    return status
