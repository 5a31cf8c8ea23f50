"""``heurist render DOMAIN INSTANCE [--plan SOLUTION | --solve] --out FILE``: pictures and replays.

The output format follows the extension of ``--out``: ``.svg`` or ``.png``
(a picture: the start, or the end of the plan), ``.gif`` (one frame per
move, a pause on the last) or ``.html`` (a self-contained viewer with
play / pause / step / scrub controls and the search statistics).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from heurist.analysis.domains import load_problem
from heurist.analysis.solutions import load_for_solution, read_plan
from heurist.cli.common import (
    EXIT_BY_STATUS,
    EXIT_STATUS_HELP,
    add_domain_options,
    add_search_arguments,
    domain_examples,
    domain_examples_epilog,
    format_statistics,
    option_values,
    run_search,
)
from heurist.domains import Domain, named_domains
from heurist.errors import read_text
from heurist.files import check_writable
from heurist.render import (
    FINAL_MILLISECONDS,
    FORMATS,
    MOVE_MILLISECONDS,
    output_format,
    render_plan,
)

DOMAIN_ARGUMENT = True  # register() reads the domain's name from the command line
ORDER = 40


def register(subparsers: argparse._SubParsersAction, words: Sequence[str] = ()) -> None:
    domains_list = named_domains(words)
    parser = subparsers.add_parser(
        "render",
        help="draw an instance or a plan as SVG, PNG, an animated GIF or an HTML viewer",
        description=__doc__.split("\n\n", 1)[1].replace("``", "'"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=domain_examples_epilog("render", domains_list),
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in domains_list:
        sub = domains.add_parser(
            domain.name,
            help=f"draw a {domain.name} instance or plan",
            description=f"Draw a {domain.name} instance, a plan read from a solution file (--plan), "
            "or the plan heurist finds (--solve).",
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=domain_examples(domain, "render") + "\n" + EXIT_STATUS_HELP,
        )
        sub.add_argument("file", metavar="INSTANCE", help="instance file")
        output = sub.add_argument_group("output")
        output.add_argument(
            "--out", "-o", required=True, metavar="FILE",
            help=f"where to draw; the format from the extension: {', '.join(FORMATS)}",
        )
        output.add_argument("--title", help="the HTML viewer's title (default: domain and instance)")
        output.add_argument(
            "--frame-time", type=_milliseconds, default=MOVE_MILLISECONDS, metavar="MS",
            help="GIF: how long each move shows, in milliseconds (default: %(default)s; the last state stays "
            f"at least {FINAL_MILLISECONDS})",
        )
        output.add_argument(
            "--optimal", action="store_true",
            help="the plan is a cheapest one: the viewer also plots h*, the cost still to go "
            "(set by itself for --solve with ucs)",
        )
        if domain.flips:
            output.add_argument(
                "--flip", action="store_true",
                help="draw row 0 at the top (default: at the bottom, as the course's pictures do)",
            )
        plan = sub.add_mutually_exclusive_group()
        plan.add_argument("--plan", metavar="SOLUTION", help=f"a solution file: {domain.solution_help}")
        plan.add_argument("--solve", action="store_true", help="solve the instance first and draw the plan found")
        add_domain_options(sub, domain)
        add_search_arguments(sub, domain.heuristics, domain.default_heuristic)
        sub.set_defaults(handler=lambda args, domain=domain: render(domain, args))


def render(domain: Domain, args: argparse.Namespace) -> int:
    output_format(args.out)
    check_writable(args.out)
    options = option_values(args, domain.options)
    # Plans read from files and pictures of the start show real states: no search-only reductions.
    plan_text = read_text(args.plan) if args.plan else None
    if args.solve:
        problem = domain.load(args.file, **options)
    elif plan_text is not None:
        problem = load_for_solution(domain, args.file, plan_text, args.plan, options)
    else:
        problem = load_problem(domain, args.file, **options)
    if not args.solve and args.heuristic is None:
        # the viewer's h curve of a given plan: the domain's default heuristic, never tables that take
        # a minute to build (a 15-puzzle's own search would bring its pattern databases)
        args.heuristic = domain.default_heuristic
    statistics = None
    optimal = args.optimal
    actions = step_costs = None  # recovered from the problem's moves unless a replay gives them
    if args.solve:
        result = run_search(problem, args, domain.heuristics, domain)
        if not result.solved:
            print(format_statistics(result), file=sys.stderr)
            print(f"heurist: {args.file}: no plan found, nothing drawn", file=sys.stderr)
            return EXIT_BY_STATUS[result.status]
        states, actions = result.states, result.actions
        statistics = {
            "algorithm": result.algorithm,
            "heuristic": args.heuristic,
            **({"weight": args.weight} if result.algorithm == "wastar" else {}),
            "cost": result.cost,
            "plan_length": result.plan_length,
            **result.statistics.as_dict(),
        }
        optimal = optimal or result.algorithm == "ucs"
    elif args.plan:
        replayed = read_plan(domain, problem, args.plan, plan_text)
        states, actions, step_costs = replayed.states, replayed.actions, replayed.step_costs
    else:
        states = [problem.initial_state]
    heuristic = domain.heuristics.resolve(args.heuristic) if output_format(args.out) == ".html" else None
    render_plan(
        domain,
        problem,
        states,
        statistics,
        args.out,
        actions=actions,
        step_costs=step_costs,
        heuristic=heuristic,
        optimal=optimal and len(states) > 1,
        flip=getattr(args, "flip", False),
        title=args.title or f"{domain.name}: {args.file}",
        frame_milliseconds=args.frame_time,
    )
    return 0


def _milliseconds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 20 <= value <= 60_000:
        raise argparse.ArgumentTypeError(f"expected a whole number of milliseconds from 20 to 60000, got {text!r}")
    return value
