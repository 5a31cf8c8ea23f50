"""``heurist solve DOMAIN FILE``: solve one instance and print the plan and statistics."""

from __future__ import annotations

import argparse

from heurist.cli.common import (
    EXIT_BY_STATUS,
    EXIT_STATUS_HELP,
    add_search_arguments,
    format_statistics,
    result_as_json,
    run_search,
)
from heurist.domains import Domain, all_domains
from heurist.search import SearchResult

ORDER = 10


def register(subparsers: argparse._SubParsersAction) -> None:
    domains_list = all_domains()
    examples = "\n".join(f"  {line}" for domain in domains_list for line in domain.examples[:1])
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
        examples = "\n".join(f"  {line}" for line in domain.examples)
        sub = domains.add_parser(
            domain.name,
            help=domain.summary,
            description=domain.summary,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=(f"examples:\n{examples}\n\n" if examples else "") + EXIT_STATUS_HELP,
        )
        sub.add_argument("file", metavar="FILE", help="instance file")
        domain.add_arguments(sub)
        add_search_arguments(sub, domain.heuristics, domain.default_heuristic)
        sub.add_argument(
            "--format", choices=["text", "json"], default="text", help="output format (default: text)"
        )
        sub.add_argument("--quiet", "-q", action="store_true", help="print the statistics only")
        sub.add_argument(
            "--render",
            metavar="FILE",
            help="also draw the plan (or the start, when unsolved); the format follows the "
            "extension: .svg or .png (the final state), .gif (one frame per move), .html (a viewer)",
        )
        sub.set_defaults(handler=lambda args, domain=domain: solve(domain, args))


def solve(domain: Domain, args: argparse.Namespace) -> int:
    if args.render:
        from heurist.render import output_format

        output_format(args.render)  # a bad extension is reported before searching
    problem = domain.load(args.file, args)
    heuristics = getattr(problem, "heuristics", domain.heuristics)
    result = run_search(problem, args, heuristics)
    if args.render:
        render(domain, problem, result, args, heuristics)
    if args.format == "json":
        plan = [
            {"step": i + 1, "action": domain.format_action(problem, action)}
            for i, action in enumerate(result.actions)
        ]
        print(result_as_json(result, plan, domain=domain.name, instance=str(args.file), heuristic=args.heuristic))
        return EXIT_BY_STATUS[result.status]
    if result.solved and not args.quiet:
        from heurist.render.terminal import print_state  # imported here: only plans need it

        for step, state in enumerate(result.states):
            if step == 0:
                print("start:")
            else:
                print(f"move {step}: {domain.format_action(problem, result.actions[step - 1])}")
            print_state(domain.name, problem, state)
            print()
    print(format_statistics(result))
    return EXIT_BY_STATUS[result.status]


def render(domain: Domain, problem, result: SearchResult, args: argparse.Namespace, heuristics) -> None:
    """Draw the plan (or the start state) to ``args.render``, as ``heurist render`` would."""
    from heurist.render import render_plan  # imported here: Pillow is only needed for pictures

    states = result.states if result.solved else [getattr(problem, "start", problem.initial_state)]
    render_plan(
        domain.name,
        problem,
        states,
        result.statistics,
        args.render,
        heuristic=heuristics.resolve(args.heuristic),
        optimal=result.solved and args.algo in ("bfs", "ucs"),
        title=f"{domain.name}: {args.file}",
    )
