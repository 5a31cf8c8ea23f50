"""Judging a solution file: replay it, compare its cost with the optimum, and give a verdict.

:func:`validate_solution` is what ``heurist validate`` decides; the
:class:`ValidationReport` it returns prints itself as text or JSON, as
:class:`~heurist.analysis.checks.HeuristicReport` does for ``heurist check``.

A claim that could not be settled is never called valid: a "no solution"
claim, or ``require_optimal``, needs the optimum, and when the search for it
stops at a limit (or is switched off) the verdict is
:attr:`Validity.UNVERIFIED`.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any

from heurist.analysis.checks import finite_or_none
from heurist.domains import Domain
from heurist.search import OPTIMAL_ALGORITHMS, Heuristic, Limits, Status, search
from heurist.search.solutions import Replay, Solution, replay


class Validity(str, enum.Enum):
    """What replaying a solution file found (``heurist validate``); ``heurist grade``'s verdicts are
    :class:`heurist.grade.Verdict`."""

    VALID = "valid"
    OPTIMAL = "valid and optimal"
    NOT_OPTIMAL = "valid but not optimal"
    INVALID = "INVALID"
    UNVERIFIED = "unverified"


@dataclass
class Optimum:
    """What heurist's own optimal search found: ``status`` solved (with ``cost``), unsolvable, or a limit."""

    status: Status | None
    cost: float | None = None
    limit: str | None = None

    @property
    def known(self) -> bool:
        return self.status in (Status.SOLVED, Status.UNSOLVABLE)

    def describe(self) -> str:
        if self.status is None:
            return "not computed (--no-optimality)"
        if self.status is Status.SOLVED:
            return f"{self.cost:g}"
        if self.status is Status.UNSOLVABLE:
            return "none: the instance is unsolvable"
        if self.status is Status.INTERRUPTED:
            return "unknown (interrupted)"
        return f"unknown ({self.limit} limit reached)"


def optimal_search(domain: Domain, problem: Any, heuristic: str | None = None) -> tuple[str, str]:
    """(algorithm, heuristic name) that finds ``problem``'s optimal cost: A* with ``heuristic`` when one is
    named; else the domain's own search for the instance (``Domain.default_search``: IDA* with pattern
    databases on the 15-puzzle) when its algorithm is optimal in cost, else A* with its heuristic."""
    if heuristic is not None:
        return "astar", heuristic
    algorithm, name = domain.default_search(problem)
    return (algorithm if algorithm in OPTIMAL_ALGORITHMS - {"bfs"} else "astar"), name


def find_optimum(problem: Any, heuristic: Heuristic, limits: Limits | None = None,
                 algorithm: str = "astar") -> Optimum:
    """The optimal cost by ``algorithm`` (A*, IDA* or UCS) with ``heuristic`` (which must be admissible)."""
    result = search(problem, algorithm, heuristic, limits=limits)
    return Optimum(result.status, result.cost if result.solved else None, result.limit)


@dataclass
class IllegalStep:
    step: int
    line: int | None
    reason: str
    before: str
    after: str | None


@dataclass
class ValidationReport:
    """Everything ``heurist validate`` found about one solution file."""

    domain: str
    instance: str
    solution: str
    format: str
    claim: str  # "solution" or "no solution"
    optimum: Optimum
    require_optimal: bool = False
    moves: int | None = None
    starts_at_instance: bool | None = None
    first_state: str | None = None
    legal: bool | None = None
    illegal_step: IllegalStep | None = None
    ends_at_goal: bool | None = None
    cost: float | None = None
    stated_cost: float | None = None
    optimal: bool | None = None
    problems: list[str] = field(default_factory=list)
    verdict: Validity = Validity.INVALID
    reason: str = ""

    @property
    def passed(self) -> bool:
        return self.verdict in (Validity.VALID, Validity.OPTIMAL) or (
            self.verdict is Validity.NOT_OPTIMAL and not self.require_optimal
        )

    def as_dict(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "domain": self.domain, "instance": self.instance, "solution": self.solution,
            "format": self.format, "claim": self.claim,
        }
        if self.optimum.status is not None:
            document["optimal_cost"] = finite_or_none(self.optimum.cost) if self.optimum.cost is not None else None
            document["optimum_status"] = self.optimum.describe() if not self.optimum.known else (
                "solved" if self.optimum.status is Status.SOLVED else "unsolvable")
        for name in ("moves", "starts_at_instance", "first_state", "legal", "ends_at_goal", "optimal"):
            value = getattr(self, name)
            if value is not None:
                document[name] = value
        if self.illegal_step is not None:
            document["illegal_step"] = vars(self.illegal_step)
        if self.cost is not None:
            document["cost"] = finite_or_none(self.cost)
        if self.stated_cost is not None:
            document["stated_cost"] = finite_or_none(self.stated_cost)
        document["problems"] = self.problems
        document["valid"] = self.verdict in (Validity.VALID, Validity.OPTIMAL, Validity.NOT_OPTIMAL)
        document["verdict"] = self.verdict.value
        if self.reason:
            document["reason"] = self.reason
        return document

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2)

    def to_text(self) -> str:
        lines = [f"{self.solution} for {self.instance}:"]
        if self.claim == "no solution":
            lines.append("  claims: no solution")
        else:
            lines.append(f"  moves: {self.moves}")
            lines.append(f"  starts at the instance: {'yes' if self.starts_at_instance else 'NO'}")
            if self.first_state is not None:
                lines += ["    first state:", _indent(self.first_state)]
            lines.append(f"  legal: {'yes' if self.legal else 'NO'}")
            if self.illegal_step is not None:
                step = self.illegal_step
                lines.append(f"    step {step.step} (line {step.line}): {step.reason}")
                lines += ["    before:", _indent(step.before)]
                if step.after is not None:
                    lines += ["    after:", _indent(step.after)]
            if self.ends_at_goal is not None:
                lines.append(f"  ends at a goal: {'yes' if self.ends_at_goal else 'NO'}")
            if self.cost is not None:
                stated = f" (stated: {finite_or_none(self.stated_cost)})" if self.stated_cost is not None else ""
                lines.append(f"  cost: {finite_or_none(self.cost)}{stated}")
        if self.optimum.status is not None:
            lines.append(f"  optimal cost: {self.optimum.describe()}")
        if self.optimal is not None:
            lines.append(f"  optimal: {'yes' if self.optimal else 'no'}")
        for problem in self.problems:
            lines.append(f"  problem: {problem}")
        verdict = self.verdict.value
        if self.verdict is Validity.NOT_OPTIMAL and self.require_optimal:
            verdict += " (--require-optimal: FAILED)"
        if self.reason:
            verdict += f": {self.reason}"
        lines.append(f"verdict: {verdict}")
        return "\n".join(lines)


def validate_solution(
    domain: Domain, problem: Any, solution: Solution, optimum: Optimum, *,
    instance: str, require_optimal: bool = False, replayed: Replay | None = None,
) -> ValidationReport:
    """Replay ``solution`` on ``problem`` (real states, no search-only reductions) and judge it
    (``replayed``: a replay of ``solution`` already made, under the caller's limits)."""
    report = ValidationReport(domain.name, instance, solution.source, solution.format,
                              "no solution" if solution.unsolvable else "solution", optimum,
                              require_optimal=require_optimal)
    if solution.unsolvable:
        if optimum.status is Status.SOLVED:
            report.problems.append(f"the file claims no solution, but one of cost {optimum.cost:g} exists")
            report.verdict = Validity.INVALID
        elif optimum.status is Status.UNSOLVABLE:
            report.verdict = Validity.VALID
        else:
            report.verdict = Validity.UNVERIFIED
            report.reason = "whether a solution exists is unknown within the limits"
        return report

    def draw(state: Any) -> str:
        return domain.format_state(problem, state)

    result = replayed if replayed is not None else replay(problem, solution)
    report.moves = result.moves
    report.starts_at_instance = result.starts_at_instance
    if not result.starts_at_instance:
        where = solution.lines[0] if solution.lines else 1
        report.problems.append(f"line {where}: the first state is not the instance's start")
        report.first_state = draw(solution.states[0])
    report.legal = result.legal
    if not result.legal:
        report.illegal_step = IllegalStep(
            result.illegal_step, result.illegal_line, result.reason, draw(result.before),
            None if result.after is None else draw(result.after),
        )
        report.problems.append(f"step {result.illegal_step} (line {result.illegal_line}) is illegal: {result.reason}")
        report.verdict = Validity.INVALID
        return report
    report.ends_at_goal = result.ends_at_goal
    if not result.ends_at_goal:
        report.problems.append("the last state is not a goal")
    report.cost = result.cost
    if solution.stated_cost is not None:
        report.stated_cost = solution.stated_cost
        if solution.stated_cost != result.cost:
            report.problems.append(
                f"line {solution.stated_cost_line}: the file states cost {solution.stated_cost:g}, "
                f"the moves cost {result.cost:g}"
            )
    if report.problems:
        report.verdict = Validity.INVALID
        return report
    if optimum.status is Status.SOLVED:
        report.optimal = result.cost == optimum.cost
        report.verdict = Validity.OPTIMAL if report.optimal else Validity.NOT_OPTIMAL
    elif require_optimal:
        report.verdict = Validity.UNVERIFIED
        report.reason = "legal and reaches a goal, but the optimum is unknown within the limits"
    else:
        report.verdict = Validity.VALID
    return report


def _indent(text: str, prefix: str = "      ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


__all__ = ["IllegalStep", "Optimum", "ValidationReport", "Validity", "find_optimum", "optimal_search", "validate_solution"]
