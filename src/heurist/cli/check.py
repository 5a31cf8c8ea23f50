"""``heurist check DOMAIN INSTANCE... --heuristic H [--against H2]``: settle claims about a heuristic.

Computes the exact goal distance h* of every state reachable from each
instance's start, then reports whether the heuristic is admissible,
goal-aware, safe and consistent (with the worst witness of each violation
drawn as a board), how informed it is, and, with ``--against``, whether it
dominates another heuristic.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path

from heurist.analysis.checks import PROPERTIES, CheckReport, InstanceCheck, run_checks
from heurist.analysis.domains import generated_instances, load_problem, state_space
from heurist.cli.common import (
    EXIT_INPUT_ERROR,
    EXIT_LIMIT,
    add_domain_options,
    domain_examples,
    domain_examples_epilog,
    option_values,
    positive_int,
    whole_number,
)
from heurist.domains import Domain, named_domains
from heurist.errors import InputError
from heurist.search.space import DEFAULT_MAX_STATES, StateSpaceTooLarge

DOMAIN_ARGUMENT = True  # register() reads the domain's name from the command line
ORDER = 40
EXIT_HOLDS = 0
EXIT_VIOLATED = 1
DEFAULT_CLAIMS = ("admissible", "goal-aware")

EXIT_HELP = f"""exit status:
  0  every claimed property holds on every instance checked
  1  a claimed property is violated (the report shows a witness)
  {EXIT_INPUT_ERROR}  bad input: a malformed file or option, or an output that cannot be written
     (one line on stderr says where)
  {EXIT_LIMIT}  no violation found, but some instance had more states than --max-states"""


def register(subparsers: argparse._SubParsersAction, words: Sequence[str] = ()) -> None:
    domains_list = named_domains(words)
    parser = subparsers.add_parser(
        "check",
        help="verify a heuristic's admissibility, consistency and dominance against exact distances",
        description="Compute exact goal distances over every reachable state and check a heuristic against them.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=domain_examples_epilog("check", domains_list),
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in domains_list:
        names = ", ".join(domain.heuristics.names())
        sub = domains.add_parser(
            domain.name,
            help=domain.summary,
            description=f"Check a {domain.name} heuristic against exact goal distances. Heuristics: {names}; "
            "or FILE.py:FUNCTION / MODULE:FUNCTION for your own.",
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=domain_examples(domain, "check") + EXIT_HELP,
        )
        sub.add_argument("instances", metavar="INSTANCE", nargs="*", help="instance files")
        add_domain_options(sub, domain, search_only=False)
        group = sub.add_argument_group("check")
        group.add_argument("--heuristic", "-H", required=True, metavar="NAME", help="the heuristic to check")
        group.add_argument("--against", metavar="NAME", help="also check that --heuristic dominates this one")
        group.add_argument(
            "--claim", action="append", choices=PROPERTIES, metavar="PROPERTY",
            help=f"a property that must hold for exit status 0, repeatable: {', '.join(PROPERTIES)} "
            f"(default: {', '.join(DEFAULT_CLAIMS)}, plus dominates with --against)",
        )
        group.add_argument(
            "--max-states", type=positive_int, default=DEFAULT_MAX_STATES, metavar="N",
            help="skip an instance whose reachable states exceed N (default: %(default)s)",
        )
        group.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
        group.add_argument(
            "--quiet", "-q", action="store_true", help="text output: one line per instance instead of the full report"
        )
        if domain.can_generate:
            generator = ", ".join(option.flag for option in domain.generate_options)
            family = sub.add_argument_group("generated instances (instead of or besides INSTANCE files)")
            family.add_argument("--generated", type=positive_int, metavar="N", help="check N generated instances too")
            family.add_argument("--seed", type=whole_number, default=0, help="seed of the generator (default: 0)")
            family.add_argument(
                "--generate-options", metavar="OPTIONS",
                help=f'options of "heurist generate {domain.name}" in one quoted string ({generator})',
            )
        sub.set_defaults(handler=lambda args, domain=domain: check(domain, args),
                         generated=None, seed=0, generate_options=None)


def check(domain: Domain, args: argparse.Namespace) -> int:
    if not args.instances and not args.generated:
        raise InputError("give instance files, --generated N, or both", "check")
    heuristic = domain.heuristics.resolve(args.heuristic)
    against = domain.heuristics.resolve(args.against) if args.against else None
    claims = list(dict.fromkeys(args.claim or DEFAULT_CLAIMS))
    if against is not None and "dominates" not in claims:
        claims.append("dominates")
    if "dominates" in claims and against is None:
        raise InputError("claiming dominance needs --against NAME", "--claim")
    run = CheckReport(domain.name, args.heuristic, args.against, claims)
    text = args.format == "text"
    for name, path in _instances(domain, args):
        problem = load_problem(domain, path, **option_values(args, domain.options))
        rules = domain.describe(problem)
        draw = partial(domain.format_state, problem)
        try:
            space = state_space(domain, problem, args.max_states)
        except StateSpaceTooLarge as error:
            found = InstanceCheck(name, rules, skipped=f"{error}; raise --max-states to check it")
        else:
            report = run_checks(space, heuristic, args.heuristic, against, args.against or "")
            found = InstanceCheck.checked(name, rules, space, report, claims)
        run.add(found, draw)
        if text:
            print(found.to_line() if args.quiet else found.to_text(draw), flush=True)
    print(run.to_text() if text else run.to_json())
    if run.violated:
        return EXIT_VIOLATED
    return EXIT_LIMIT if run.skipped else EXIT_HOLDS


def _instances(domain: Domain, args: argparse.Namespace) -> Iterable[tuple[str, Path]]:
    for instance in args.instances:
        yield instance, Path(instance)
    if args.generated:
        yield from generated_instances(domain, args.generated, args.seed, args.generate_options)
