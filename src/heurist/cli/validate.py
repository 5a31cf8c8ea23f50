"""``heurist validate DOMAIN INSTANCE SOLUTION``: replay a solution file and judge it.

Reads a solution in the course's own output format, replays it move by move
and reports: whether every step is legal (else the first illegal step, its
line and the two states), whether it starts at the instance's start and ends
at a goal, its cost, the cost it states (if any), and whether the cost is
optimal, found by solving the instance with A* and an admissible heuristic.
Depth-first outputs are judged like any other: valid, but maybe not optimal.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from heurist.analysis.checks import finite_or_none
from heurist.analysis.domains import add_instance_arguments, load_problem
from heurist.cli.common import (
    EXIT_INPUT_ERROR,
    add_limit_arguments,
    domain_examples_epilog,
    limits_from,
)
from heurist.domains import Domain, all_domains
from heurist.errors import read_text
from heurist.search import Status, search
from heurist.search.solutions import Replay, Solution, replay

ORDER = 45
EXIT_VALID = 0
EXIT_INVALID = 1

EXIT_HELP = f"""exit status:
  0  the solution is legal, starts at the instance, ends at a goal and states its cost
     correctly (with --require-optimal: and its cost is optimal)
  1  it is not: the report says where
  {EXIT_INPUT_ERROR}  the instance or the solution cannot be read, is cut short, or is for another
     instance (one line on stderr gives the file and line)"""

def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="replay a solution file: legal, starts and ends right, its cost, and whether it is optimal",
        description="Replay a solution in the course's output format and judge it.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=domain_examples_epilog("validate", (_examples(domain.name) for domain in all_domains() if domain.read_solution is not None)),
    )
    domains = parser.add_subparsers(dest="domain", metavar="DOMAIN", required=True)
    for domain in all_domains():
        if domain.read_solution is None:
            continue
        sub = domains.add_parser(
            domain.name,
            help=domain.summary,
            description=f"Validate a {domain.name} solution. SOLUTION is {domain.solution_format}.",
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=_examples(domain.name) + EXIT_HELP,
        )
        sub.add_argument("instance", metavar="INSTANCE", help="instance file")
        sub.add_argument("solution", metavar="SOLUTION", help="solution file")
        add_instance_arguments(domain, sub)
        group = sub.add_argument_group("optimality (found by solving the instance with A*)")
        group.add_argument(
            "--heuristic", "-H", default=domain.default_heuristic, metavar="NAME",
            help="an admissible heuristic for A* (default: %(default)s)",
        )
        group.add_argument("--require-optimal", action="store_true", help="a valid but costlier solution fails too")
        group.add_argument("--no-optimality", action="store_true", help="do not solve the instance")
        add_limit_arguments(sub)
        for group in sub._action_groups:
            if group.title and group.title.startswith("limits"):
                group.title = "limits of that search (reaching one leaves the optimum unknown)"
        sub.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
        sub.set_defaults(handler=lambda args, domain=domain: validate(domain, args))


def _examples(name: str) -> str:
    examples = {
        "klotski": [
            "heurist validate klotski data/hrd/f24_w25_goal/hard1.txt data/hrd/f24_w25_goal/hard1.out",
            "heurist validate klotski puzzle.txt dfs_output.txt --format json",
        ],
        "blocksworld": ["heurist validate blocksworld data/blocksworld/probB11.bwp probB11.transcript.txt"],
        "blokus": ['heurist validate blokus small_set.txt moves.txt -s 6 6 -x 3 3 --targets "[(2,2), (5,5), (1,4)]"'],
    }.get(name, [])
    return "examples:\n" + "".join(f"  {line}\n" for line in examples) + "\n" if examples else ""


def validate(domain: Domain, args: argparse.Namespace) -> int:
    problem = load_problem(domain, args.instance, args)
    solution = domain.read_solution(read_text(args.solution), problem, args.solution)
    report: dict[str, Any] = {"domain": domain.name, "instance": args.instance, "solution": args.solution}
    optimum = None if args.no_optimality else _optimum(domain, problem, args)
    if optimum is not None:
        report["optimal_cost"] = finite_or_none(optimum["cost"]) if optimum["cost"] is not None else None
        report["optimum_status"] = optimum["status"]
    problems: list[str] = []
    if solution.unsolvable:
        report["claim"] = "no solution"
        if optimum is not None and optimum["status"] == "solved":
            problems.append(f"the file claims no solution, but one of cost {optimum['cost']:g} exists")
        report["valid"] = not problems
    else:
        report["claim"] = "solution"
        result = replay(problem, solution)
        _judge(domain, problem, solution, result, optimum, report, problems)
    report["problems"] = problems
    optimal = report.get("optimal")
    failed = bool(problems) or (args.require_optimal and optimal is False)
    if args.format == "json":
        print(json.dumps(report, indent=2))
    else:
        print(_as_text(report, problems, args.require_optimal))
    return EXIT_INVALID if failed else EXIT_VALID


def _optimum(domain: Domain, problem: Any, args: argparse.Namespace) -> dict[str, Any]:
    heuristic = domain.heuristics.resolve(args.heuristic)
    result = search(problem, "astar", heuristic, limits=limits_from(args))
    if result.status is Status.SOLVED:
        return {"status": "solved", "cost": result.cost}
    if result.status is Status.UNSOLVABLE:
        return {"status": "unsolvable", "cost": None}
    return {"status": f"unknown ({result.limit} limit reached)", "cost": None}


def _judge(
    domain: Domain, problem: Any, solution: Solution, result: Replay,
    optimum: dict[str, Any] | None, report: dict[str, Any], problems: list[str],
) -> None:
    def draw(state: Any) -> str:
        return domain.format_state(problem, state)

    report["moves"] = result.moves
    report["starts_at_instance"] = result.starts_at_instance
    if not result.starts_at_instance:
        where = solution.lines[0] if solution.lines else 1
        problems.append(f"line {where}: the first state is not the instance's start")
        report["first_state"] = draw(solution.states[0])
    report["legal"] = result.legal
    if not result.legal:
        report["illegal_step"] = {
            "step": result.illegal_step,
            "line": result.illegal_line,
            "reason": result.reason,
            "before": draw(result.before),
            "after": None if result.after is None else draw(result.after),
        }
        problems.append(f"step {result.illegal_step} (line {result.illegal_line}) is illegal: {result.reason}")
        report["valid"] = False
        return
    report["ends_at_goal"] = result.ends_at_goal
    if not result.ends_at_goal:
        problems.append("the last state is not a goal")
    report["cost"] = finite_or_none(result.cost)
    if solution.stated_cost is not None:
        report["stated_cost"] = finite_or_none(solution.stated_cost)
        if solution.stated_cost != result.cost:
            problems.append(
                f"line {solution.stated_cost_line}: the file states cost {solution.stated_cost:g}, "
                f"the moves cost {result.cost:g}"
            )
    if optimum is not None and optimum["cost"] is not None and result.ends_at_goal and result.starts_at_instance:
        report["optimal"] = result.cost == optimum["cost"]
    report["valid"] = not problems


def _as_text(report: dict[str, Any], problems: list[str], require_optimal: bool) -> str:
    lines = [f"{report['solution']} for {report['instance']}:"]
    if report["claim"] == "no solution":
        lines.append("  claims: no solution")
    else:
        lines.append(f"  moves: {report['moves']}")
        lines.append(f"  starts at the instance: {'yes' if report['starts_at_instance'] else 'NO'}")
        if "first_state" in report:
            lines += ["    first state:", _indent(report["first_state"])]
        lines.append(f"  legal: {'yes' if report['legal'] else 'NO'}")
        if "illegal_step" in report:
            step = report["illegal_step"]
            lines.append(f"    step {step['step']} (line {step['line']}): {step['reason']}")
            lines += ["    before:", _indent(step["before"])]
            if step["after"] is not None:
                lines += ["    after:", _indent(step["after"])]
        if "ends_at_goal" in report:
            lines.append(f"  ends at a goal: {'yes' if report['ends_at_goal'] else 'NO'}")
        if "cost" in report:
            stated = f" (stated: {report['stated_cost']})" if "stated_cost" in report else ""
            lines.append(f"  cost: {report['cost']}{stated}")
    if "optimum_status" in report:
        if report.get("optimal_cost") is not None:
            lines.append(f"  optimal cost: {report['optimal_cost']}")
        else:
            lines.append(f"  optimal cost: {report['optimum_status']}")
    if "optimal" in report:
        lines.append(f"  optimal: {'yes' if report['optimal'] else 'no'}")
    for problem in problems:
        lines.append(f"  problem: {problem}")
    valid = report.get("valid", False)
    verdict = "valid" if valid else "INVALID"
    if valid and report.get("optimal") is False:
        verdict = "valid but not optimal" + (" (--require-optimal: FAILED)" if require_optimal else "")
    elif valid and report.get("optimal"):
        verdict = "valid and optimal"
    lines.append(f"verdict: {verdict}")
    return "\n".join(lines)


def _indent(text: str, prefix: str = "      ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


__all__ = ["register", "validate"]
