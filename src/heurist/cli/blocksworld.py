"""``heurist blocksworld FILE [-H NAME] [-MAX_ITERS N]``: the CSCE 420 assignment's program.

Prints what the course's reference program prints, so transcripts and
statistics tables can be compared line by line::

    success! iter=N, cost=L, depth=L, max queue size=Q
    move 0, pathcost=0, heuristic=h, f(n)=g(n)+h(n)=f
    <the stacks, one line each, bottom to top; an empty stack is an empty line>
    >>>>>>>>>>
    move 1, ...
    statistics: FILE method Astar planlen L iter N maxq Q

``iter`` counts nodes popped from the frontier and goal-tested (the goal's
pop included) and ``maxq`` is the largest number of states waiting on the
frontier after an expansion: the engine's ``expansions`` and
``max_frontier``. When MAX_ITERS pops find no goal, the line reads
``planlen FAILED``.
"""

from __future__ import annotations

import argparse
import sys

from heurist.cli.common import (
    EXIT_BY_STATUS,
    EXIT_STATUS_HELP,
    add_render_arguments,
    check_render_target,
    interrupted_exit,
    positive_int,
    render_result,
)
from heurist.domains.blocksworld import DEFAULT_HEURISTIC, DOMAIN, load_bwp
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.search import Heuristic, Limits, Status, search

ORDER = 30
DEFAULT_MAX_ITERS = 100_000

EXAMPLES = """examples (the assignment's command lines):
  heurist blocksworld data/blocksworld/probA03.bwp -H H0
  heurist blocksworld data/blocksworld/probB20.bwp -H H1 -MAX_ITERS 1000000
  heurist blocksworld data/blocksworld/probB20.bwp -H deadlock --render plan.html
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    names = "|".join(["H0", "H1", "H6", "prefix", "deadlock"])
    parser = subparsers.add_parser(
        "blocksworld",
        help="the CSCE 420 Blocksworld program: A* on a .bwp file, course output",
        description=(
            "Solve a .bwp problem with A* and print the solution path and the statistics line "
            "exactly as the Texas A&M CSCE 420 Blocksworld assignment does."
        ),
        usage=f"%(prog)s FILE [-H {names}|...] [-MAX_ITERS N] [--render FILE]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        epilog=EXAMPLES + "\n" + _heuristic_help() + "\n\n" + EXIT_STATUS_HELP.replace(
            "--max-expansions, --time-limit, --memory-limit", "-MAX_ITERS"
        ),
    )
    parser.add_argument("file", metavar="FILE", help="a .bwp problem file")
    parser.add_argument(
        "-H",
        "--heuristic",
        default=DEFAULT_HEURISTIC,
        metavar="NAME",
        help="heuristic name (case-insensitive), or FILE.py:FUNCTION (default: %(default)s)",
    )
    parser.add_argument(
        "-MAX_ITERS",
        "--max-iters",
        dest="max_iters",
        type=positive_int,
        default=DEFAULT_MAX_ITERS,
        metavar="N",
        help="give up after N iterations (goal tests) (default: %(default)s)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress line on a terminal")
    add_render_arguments(parser)
    parser.set_defaults(handler=run)


def _heuristic_help() -> str:
    lines = ["heuristics (-H):"]
    for name, summary in HEURISTICS.describe():
        lines.append(f"  {name:<9} {summary}")
    lines.append("  aliases: H0=h0, H1=h1, H2=prefix, H3=Hbest=deadlock, H6=h6")
    return "\n".join(lines)


def resolve_heuristic(name: str) -> Heuristic:
    """A registered name or alias, matched case-insensitively, else a user ``FILE.py:FUNCTION``."""
    for spelling in (name, name.lower(), name.upper(), name.capitalize()):
        if spelling in HEURISTICS:
            return HEURISTICS[spelling]
    return HEURISTICS.resolve(name)


def run(args: argparse.Namespace) -> int:
    check_render_target(args)
    problem = load_bwp(args.file)
    heuristic = resolve_heuristic(args.heuristic)
    result = search(problem, "astar", heuristic, limits=Limits(max_expansions=args.max_iters), progress=not args.quiet)
    if result.status is Status.INTERRUPTED:
        print(f"heurist: {args.file}: interrupted after {result.statistics.expansions} iterations", file=sys.stderr)
        return interrupted_exit()
    render_result(DOMAIN, problem, result, args, title=f"blocksworld: {args.file}", heuristic=heuristic)
    print(DOMAIN.write_solution(problem, result, "trace", heuristic=heuristic, source=args.file))
    return EXIT_BY_STATUS[result.status]
