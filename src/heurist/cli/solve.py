"""``heurist solve DOMAIN FILE``: solve one instance and print the plan and statistics.

The output is the domain's ``text`` or ``json`` solution format
(:mod:`heurist.domains.formats`), which ``heurist validate`` and
``heurist render --plan`` read back.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from heurist.cli.common import (
    EXIT_BY_STATUS,
    EXIT_STATUS_HELP,
    add_domain_options,
    add_render_arguments,
    add_search_arguments,
    check_render_target,
    domain_examples,
    format_statistics,
    option_values,
    render_result,
    run_search,
)
from heurist.domains import Domain, named_domains
from heurist.domains.formats import instance_record

DOMAIN_ARGUMENT = True  # register() reads the domain's name from the command line
ORDER = 10


def register(subparsers: argparse._SubParsersAction, words: Sequence[str] = ()) -> None:
    domains_list = named_domains(words)
    examples = "\n".join(f"  {domain.examples['solve'][0]}" for domain in domains_list if domain.examples.get("solve"))
    parser = subparsers.add_parser(
        "solve",
        help="solve one puzzle instance and print the plan and statistics",
        description="Solve one instance of a domain; print the plan as boards, then the statistics. "
        "'heurist solve DOMAIN --help' lists the domain's options and heuristics.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"examples:\n{examples}\n\n{EXIT_STATUS_HELP}",
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in domains_list:
        sub = domains.add_parser(
            domain.name,
            help=domain.summary,
            description=domain.summary,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=domain_examples(domain, "solve") + EXIT_STATUS_HELP,
        )
        sub.add_argument("file", metavar="FILE", help="instance file")
        add_domain_options(sub, domain)
        add_search_arguments(sub, domain.heuristics, domain.default_heuristic)
        sub.add_argument(
            "--format", choices=["text", "json"], default="text", help="output format (default: text)"
        )
        sub.add_argument("--quiet", "-q", action="store_true", help="print the statistics only")
        add_render_arguments(sub, flip=domain.flips)
        sub.set_defaults(handler=lambda args, domain=domain: solve(domain, args))


def solve(domain: Domain, args: argparse.Namespace) -> int:
    check_render_target(args)
    problem = domain.load(args.file, **option_values(args, domain.options))
    result = run_search(problem, args, domain.heuristics, domain)
    render_result(
        domain,
        problem,
        result,
        args,
        title=f"{domain.name}: {args.file}",
        heuristic=domain.heuristics.resolve(args.heuristic) if args.render else None,
        optimal=args.algo == "ucs",
    )
    record = instance_record(domain, problem, instance=str(args.file), options=option_values(args, domain.options),
                             heuristic=args.heuristic)
    if args.format == "json":
        print(domain.write_solution(problem, result, "json", record=record))
    elif result.solved and not args.quiet and _colour_terminal():
        _print_coloured(domain, problem, result, record.header())
    else:
        print(domain.write_solution(problem, result, "text", quiet=args.quiet, record=record), end="")
    return EXIT_BY_STATUS[result.status]


def _colour_terminal() -> bool:
    """Whether rich would colour standard output (a terminal, or FORCE_COLOR set; not NO_COLOR)."""
    if not any(name in os.environ for name in ("FORCE_COLOR", "TTY_COMPATIBLE")):
        try:
            if not sys.stdout.isatty():
                return False  # what rich decides too, without the time it takes to import
        except (AttributeError, ValueError):
            return False
    from rich.console import Console

    console = Console()
    return console.is_terminal and console.color_system is not None


def _print_coloured(domain: Domain, problem, result, header: str) -> None:
    """The text format, its boards coloured as in the pictures (a terminal only)."""
    from heurist.domains.formats import plan_steps
    from heurist.render.terminal import print_state  # imported here: only terminals need it

    print(header)
    for step, state in plan_steps(domain, problem, result):
        print(step)
        print_state(domain, problem, state)
        print()
    print(format_statistics(result))
