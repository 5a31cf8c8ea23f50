"""``heurist solve DOMAIN FILE``: solve one instance and print the plan and statistics."""

from __future__ import annotations

import argparse

from heurist.cli.common import (
    EXIT_BY_STATUS,
    EXIT_STATUS_HELP,
    add_render_arguments,
    add_search_arguments,
    check_render_target,
    format_statistics,
    render_result,
    result_as_json,
    run_search,
)
from heurist.domains import Domain, all_domains

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
        add_render_arguments(sub, flip=domain.name == "blokus")
        sub.set_defaults(handler=lambda args, domain=domain: solve(domain, args))


def solve(domain: Domain, args: argparse.Namespace) -> int:
    check_render_target(args)
    problem = domain.load(args.file, args)
    heuristics = getattr(problem, "heuristics", domain.heuristics)
    result = run_search(problem, args, heuristics)
    render_result(
        domain.name,
        problem,
        result,
        args,
        title=f"{domain.name}: {args.file}",
        heuristic=heuristics.resolve(args.heuristic) if args.render else None,
        optimal=args.algo == "ucs",
    )
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

