"""``heurist check DOMAIN INSTANCE... --heuristic H [--against H2]``: settle claims about a heuristic.

Computes the exact goal distance h* of every state reachable from each
instance's start, then reports whether the heuristic is admissible,
goal-aware, safe and consistent (with the worst witness of each violation
drawn as a board), how informed it is, and, with ``--against``, whether it
dominates another heuristic.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from heurist.analysis.checks import PROPERTIES, HeuristicReport, Witness, finite_or_none, run_checks
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
    results: list[dict[str, Any]] = []
    text = args.format == "text"
    for name, path in _instances(domain, args):
        problem = load_problem(domain, path, **option_values(args, domain.options))
        entry: dict[str, Any] = {"instance": name, "rules": domain.describe(problem)}
        try:
            space = state_space(domain, problem, args.max_states)
        except StateSpaceTooLarge as error:
            entry["skipped"] = f"{error}; raise --max-states to check it"
            results.append(entry)
            if text:
                print(f"{name}: skipped: {entry['skipped']}\n", flush=True)
            continue
        report = run_checks(space, heuristic, args.heuristic, against, args.against or "")
        entry.update(
            states=space.size, edges=space.edge_count, goals=int(space.goal.sum()),
            exact_seconds=space.seconds, method=space.method,
            holds={claim: report.holds(claim) for claim in claims},
        )
        entry["report"] = report
        results.append(entry)
        if text and args.quiet:
            verdicts = ", ".join(f"{claim} {_yes_no(holds)}" for claim, holds in entry["holds"].items())
            print(f"{name}: {space.size:,} states; {verdicts}", flush=True)
        elif text:
            print(format_report(domain, problem, entry, report), flush=True)
        else:
            entry["report_json"] = _report_json(domain, problem, report)
    checked = [entry for entry in results if "report" in entry]
    violated = [claim for claim in claims if any(not entry["holds"][claim] for entry in checked)]
    skipped = len(results) - len(checked)
    if text:
        print(format_summary(args.heuristic, claims, checked, violated, skipped))
    else:
        print(json.dumps(_as_json(domain, args, claims, results, violated), indent=2))
    if violated:
        return EXIT_VIOLATED
    return EXIT_LIMIT if skipped else EXIT_HOLDS


def _instances(domain: Domain, args: argparse.Namespace) -> Iterable[tuple[str, Path]]:
    for instance in args.instances:
        yield instance, Path(instance)
    if args.generated:
        yield from generated_instances(domain, args.generated, args.seed, args.generate_options)


# ----- text output ----------------------------------------------------------------------------

def _number(value: float | None) -> str:
    if value is None:
        return "-"
    if value == float("inf"):
        return "inf"
    return f"{int(value)}" if float(value).is_integer() else f"{value:.3g}"


def _indent(text: str, prefix: str = "      ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _yes_no(ok: bool) -> str:
    return "yes" if ok else "NO"


def format_report(domain: Domain, problem: Any, entry: dict[str, Any], report: HeuristicReport) -> str:
    def draw(state: Any) -> str:
        return _indent(domain.format_state(problem, state))

    rules = f" ({entry['rules']})" if entry["rules"] else ""
    lines = [
        f"{entry['instance']}{rules}: {entry['states']:,} states, {entry['edges']:,} edges, "
        f"{entry['goals']:,} goal states; h*(start) = {_number(report.initial_distance)} "
        f"[exact distances in {entry['exact_seconds']:.2f} s, {entry['method']}]",
        f"  heuristic {report.name}:",
    ]
    lines.append(f"    admissible: {_yes_no(report.admissible)}" + (
        "" if report.admissible else
        f", {report.overestimates:,} states with h > h*, largest excess {_number(report.largest_excess)}"
    ))
    if report.admissibility_witness is not None:
        witness = report.admissibility_witness
        lines += [f"      witness: h = {_number(witness.h)}, h* = {_number(witness.other)}", draw(witness.state)]
    goals_note = f" (h = 0 on all {report.goals:,} goal states)" if report.goals else " (no goal state is reachable)"
    lines.append(f"    goal-aware: {_yes_no(report.goal_aware)}" + (
        goals_note if report.goal_aware else
        f", h != 0 on {report.nonzero_goals:,} of {report.goals:,} goal states"
    ))
    if report.goal_witness is not None:
        lines += [f"      witness: a goal state with h = {_number(report.goal_witness.h)}", draw(report.goal_witness.state)]
    lines.append(f"    safe: {_yes_no(report.safe)}" + (
        "" if report.safe else f", h = inf on {report.unsafe:,} states that can reach a goal"
    ))
    if report.unsafe_witness is not None:
        lines += [f"      witness: h = inf, h* = {_number(report.unsafe_witness.other)}", draw(report.unsafe_witness.state)]
    lines.append(f"    consistent: {_yes_no(report.consistent)}" + (
        "" if report.consistent else f", {report.inconsistent_edges:,} edges with h(s) > c(s,s') + h(s')"
    ))
    if report.consistency_witness is not None:
        edge = report.consistency_witness
        lines += [
            f"      witness edge: h(s) = {_number(edge.h)} > c = {_number(edge.cost)} + h(s') = {_number(edge.child_h)}",
            "      s:", draw(edge.state), "      s':", draw(edge.child),
        ]
    share = "-" if report.exact_share is None else f"{report.exact_share:.1%}"
    ratio = "-" if report.mean_ratio is None else f"{report.mean_ratio:.3f}"
    lines.append(
        f"    informedness: h(start) = {_number(report.initial_h)} of h*(start) = {_number(report.initial_distance)}; "
        f"mean h/h* = {ratio}; h = h* on {share} of the non-goal states that can reach a goal"
    )
    if report.dominance is not None:
        dominance = report.dominance
        lines.append(f"    dominates {dominance.against}: {_yes_no(dominance.dominates)}" + (
            f" (h > h2 on {dominance.above:,} states)" if dominance.dominates else
            f", h < h2 on {dominance.below:,} states, largest shortfall {_number(dominance.largest_deficit)}"
        ))
        if dominance.witness is not None:
            lines += [
                f"      witness: h = {_number(dominance.witness.h)} < h2 = {_number(dominance.witness.other)}",
                draw(dominance.witness.state),
            ]
    lines.append(f"  checked in {report.seconds:.2f} s")
    return "\n".join(lines) + "\n"


def format_summary(name: str, claims: list[str], checked: list[dict], violated: list[str], skipped: int) -> str:
    lines = []
    if len(checked) > 1 or skipped:
        lines.append(f"{len(checked)} instance(s) checked" + (f", {skipped} skipped (too large)" if skipped else ""))
        for claim in claims:
            good = sum(entry["holds"][claim] for entry in checked)
            lines.append(f"  {claim}: holds on {good} of {len(checked)}")
    verdict = "VIOLATED: " + ", ".join(violated) if violated else (
        "not settled: no violation found on the instances checked" if skipped else "holds"
    )
    lines.append(f"verdict for {name} ({', '.join(claims)}): {verdict}")
    return "\n".join(lines)


# ----- JSON output ----------------------------------------------------------------------------

def _witness_json(domain: Domain, problem: Any, witness: Witness | None) -> dict[str, Any] | None:
    if witness is None:
        return None
    document = {"state": domain.format_state(problem, witness.state), "h": finite_or_none(witness.h)}
    if witness.child is not None:
        document.update(
            successor=domain.format_state(problem, witness.child),
            successor_h=finite_or_none(witness.child_h),
            cost=finite_or_none(witness.cost),
        )
    return document


def _report_json(domain: Domain, problem: Any, report: HeuristicReport) -> dict[str, Any]:
    admissibility = _witness_json(domain, problem, report.admissibility_witness)
    if admissibility is not None:
        admissibility["h_star"] = finite_or_none(report.admissibility_witness.other)
    document = {
        "initial_h": finite_or_none(report.initial_h),
        "initial_h_star": finite_or_none(report.initial_distance),
        "admissible": report.admissible,
        "overestimates": report.overestimates,
        "largest_excess": finite_or_none(report.largest_excess),
        "admissibility_witness": admissibility,
        "goal_aware": report.goal_aware,
        "goals_with_nonzero_h": report.nonzero_goals,
        "goal_witness": _witness_json(domain, problem, report.goal_witness),
        "safe": report.safe,
        "unsafe_states": report.unsafe,
        "consistent": report.consistent,
        "inconsistent_edges": report.inconsistent_edges,
        "consistency_witness": _witness_json(domain, problem, report.consistency_witness),
        "mean_h_over_h_star": report.mean_ratio,
        "share_h_equals_h_star": report.exact_share,
        "seconds": report.seconds,
    }
    if report.dominance is not None:
        dominance = report.dominance
        witness = _witness_json(domain, problem, dominance.witness)
        if witness is not None:
            witness["h2"] = finite_or_none(dominance.witness.other)
        document["dominance"] = {
            "against": dominance.against,
            "dominates": dominance.dominates,
            "states_below": dominance.below,
            "states_above": dominance.above,
            "largest_shortfall": finite_or_none(dominance.largest_deficit),
            "witness": witness,
        }
    return document


def _as_json(domain: Domain, args: argparse.Namespace, claims: list[str], results: list[dict], violated: list[str]) -> dict:
    instances = []
    for entry in results:
        document = {key: value for key, value in entry.items() if key not in ("report", "report_json")}
        if "report_json" in entry:
            document["report"] = entry["report_json"]
        instances.append(document)
    return {
        "domain": domain.name,
        "heuristic": args.heuristic,
        "against": args.against,
        "claims": claims,
        "instances": instances,
        "violated": violated,
        "holds": not violated and all("report" in entry for entry in results),
    }


