"""``heurist validate DOMAIN INSTANCE SOLUTION``: replay a solution file and judge it.

Reads a solution in any format heurist writes or a course program prints,
replays it move by move and reports: whether every step is legal (else the
first illegal step, its line and the two states), whether it starts at the
instance's start and ends at a goal, its cost, the cost it states (if any),
and whether the cost is optimal, found by solving the instance with A* and an
admissible heuristic. The decisions are in :mod:`heurist.analysis.validation`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from heurist.analysis.solutions import load_for_solution
from heurist.analysis.validation import (
    Optimum,
    Validity,
    find_optimum,
    optimal_search,
    validate_solution,
)
from heurist.cli.common import (
    EXIT_INPUT_ERROR,
    EXIT_LIMIT,
    add_domain_options,
    add_limit_arguments,
    domain_examples,
    domain_examples_epilog,
    limits_from,
    option_values,
)
from heurist.domains import Domain, named_domains
from heurist.errors import InputError, read_text
from heurist.search.limits import SearchStopped, memory_guard
from heurist.search.solutions import replay

DOMAIN_ARGUMENT = True  # register() reads the domain's name from the command line
ORDER = 45
EXIT_VALID = 0
EXIT_INVALID = 1

EXIT_HELP = f"""exit status:
  0  the solution is legal, starts at the instance, ends at a goal and states its cost
     correctly (with --require-optimal: and its cost is optimal)
  1  it is not: the report says where
  {EXIT_INPUT_ERROR}  the instance or the solution cannot be read, is cut short, or is for another
     instance, or the standard output cannot be written (one line on stderr gives the
     file and line)
  {EXIT_LIMIT}  unverified: the claim needs the optimum ('no solution', --require-optimal),
     and the search for it stopped at a limit or was switched off"""


def register(subparsers: argparse._SubParsersAction, words: Sequence[str] = ()) -> None:
    domains_list = named_domains(words)
    parser = subparsers.add_parser(
        "validate",
        help="replay a solution file: legal, starts and ends right, its cost, and whether it is optimal",
        description="Replay a solution (heurist's text or JSON output, or a course program's) and judge it.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=domain_examples_epilog("validate", domains_list),
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in domains_list:
        sub = domains.add_parser(
            domain.name,
            help=domain.summary,
            description=f"Validate a {domain.name} solution. SOLUTION is one of: {domain.solution_help}.",
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=domain_examples(domain, "validate") + EXIT_HELP,
        )
        sub.add_argument("instance", metavar="INSTANCE", help="instance file")
        sub.add_argument("solution", metavar="SOLUTION", help="solution file")
        add_domain_options(sub, domain, search_only=False)
        group = sub.add_argument_group("optimality (found by solving the instance with an admissible heuristic)")
        group.add_argument(
            "--heuristic", "-H", metavar="NAME",
            help=f"an admissible heuristic for A* (default: the domain's own search, A* with "
            f"{domain.default_heuristic} unless the instance calls for another)",
        )
        group.add_argument("--require-optimal", action="store_true", help="a valid but costlier solution fails too")
        group.add_argument("--no-optimality", action="store_true", help="do not solve the instance")
        add_limit_arguments(sub, whole_run=True)
        for group in sub._action_groups:
            if group.title and group.title.startswith("limits"):
                group.title = ("limits of the whole run: reading and replaying the plan, then the search for "
                               "the optimum (reaching one there leaves the optimum unknown); exit status 3")
        sub.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
        sub.set_defaults(handler=lambda args, domain=domain: validate(domain, args))


def validate(domain: Domain, args: argparse.Namespace) -> int:
    if not args.solution.strip():
        raise InputError("the solution file name is empty", "SOLUTION")
    limits = limits_from(args)
    try:
        with memory_guard(limits.memory_limit):
            text = read_text(args.solution)
            problem = load_for_solution(domain, args.instance, text, args.solution,
                                        option_values(args, domain.options))
            solution = domain.read_solution(text, problem, args.solution)
            replayed = None if solution.unsolvable else replay(problem, solution)
    except SearchStopped as stopped:
        print(f"heurist: {args.solution}: {stopped} while reading and replaying the plan", file=sys.stderr)
        return EXIT_LIMIT
    if args.no_optimality:
        optimum = Optimum(None)
    else:
        algorithm, heuristic = optimal_search(domain, problem, args.heuristic)
        optimum = find_optimum(problem, domain.heuristics.resolve(heuristic), limits_from(args), algorithm)
    report = validate_solution(domain, problem, solution, optimum, instance=args.instance,
                               require_optimal=args.require_optimal, replayed=replayed)
    print(report.to_json() if args.format == "json" else report.to_text())
    if report.verdict is Validity.UNVERIFIED:
        return EXIT_LIMIT
    return EXIT_VALID if report.passed else EXIT_INVALID


__all__ = ["register", "validate"]
