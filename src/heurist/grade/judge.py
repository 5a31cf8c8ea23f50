"""Judging what a program printed: read it in the course's format, replay it, compare with the optimum.

:func:`judge_text` turns one output (a file's or stdout's text) into a
:class:`Judgement`. The reading is the domain's own
(:meth:`~heurist.domains.Domain.read_solution`: every course format), the
replay and the optimality check are :func:`~heurist.analysis.validation.validate_solution`'s.
Everything domain-specific is the domain's: a Blokus ``game.py`` report
without moves is read by the domain, which rebuilds the plan from its final
board (a score line alone proves nothing).

Judging is bounded: a plan of more than ``max_steps`` steps is not replayed
(``bad format``: "too long to judge"), and no output read is longer than
``--max-output`` bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from heurist.analysis.validation import ValidationReport, Validity, validate_solution
from heurist.domains import Domain
from heurist.errors import InputError
from heurist.grade.optima import OptimumInfo
from heurist.grade.verdicts import Verdict
from heurist.search import Status
from heurist.search.solutions import Solution

EXPECT = ("optimal", "legal")

MAX_JUDGED_STEPS = 200_000
"""Plans longer than this are not replayed (``--max-plan-steps``): a verdict, not a stalled grader."""


@dataclass
class Judgement:
    verdict: Verdict
    detail: str
    report: str = ""
    cost: float | None = None


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def judge_text(domain: Domain, problem: Any, text: str, source: str, optimum: OptimumInfo,
               expect: str = "optimal", *, max_steps: int = MAX_JUDGED_STEPS) -> Judgement:
    """The verdict on one output ``text`` (``source`` names it in messages) for ``problem``."""
    if not text.strip():
        return Judgement(Verdict.NO_OUTPUT, f"{source} is empty")
    try:
        solution = domain.read_solution(text, problem, source)
    except InputError as error:
        return _bad_format(text, error)
    steps = len(solution.states) - 1 if solution.states is not None else len(solution.moves or ())
    if steps > max_steps:
        return Judgement(Verdict.BAD_FORMAT, f"a plan of {steps:,} steps is too long to judge "
                         f"(--max-plan-steps {max_steps:,})")
    return judge_solution(domain, problem, solution, optimum, expect)


def _bad_format(text: str, error: InputError) -> Judgement:
    where = f"line {error.line}: " if error.line else ""
    report = ""
    lines = text.splitlines()
    if error.line and 0 < error.line <= len(lines):
        report = f"line {error.line}: {lines[error.line - 1][:200]!r}"
    return Judgement(Verdict.BAD_FORMAT, f"{where}{error.message}", report)


def judge_solution(domain: Domain, problem: Any, solution: Solution, optimum: OptimumInfo,
                   expect: str = "optimal") -> Judgement:
    """Replay ``solution`` and judge it against ``optimum`` and the expectation."""
    report = validate_solution(domain, problem, solution, optimum.as_optimum(), instance=solution.source)
    judged = _from_report(report, optimum, expect)
    if solution.note:
        judged.detail += f" ({solution.note})"
    if judged.verdict is Verdict.ILLEGAL and _reversed(problem, solution):
        judged.detail += "; the plan seems written goal-first: it starts at a goal and ends at the test's start"
    return judged


def _reversed(problem: Any, solution: Solution) -> bool:
    """Whether a list of states runs backwards: from a goal to the instance's start."""
    states = solution.states
    if not states or len(states) < 2:
        return False
    try:
        return states[-1] == problem.initial_state and bool(problem.is_goal(states[0]))
    except Exception:  # a state the domain cannot test is simply not reversed
        return False


def _from_report(report: ValidationReport, optimum: OptimumInfo, expect: str) -> Judgement:
    if report.claim == "no solution":
        if optimum.status is Status.UNSOLVABLE:
            return Judgement(Verdict.PASS, "'No solution', and the test is unsolvable")
        if optimum.status is Status.SOLVED:
            return Judgement(Verdict.WRONG_GOAL, f"claims no solution, but a plan of cost {optimum.cost:g} exists")
        return Judgement(Verdict.UNVERIFIED, "claims no solution; whether one exists is unknown within the limits")
    if report.illegal_step is not None:
        step = report.illegal_step
        drawn = [f"step {step.step} (line {step.line}): {step.reason}", "  before:", _indent(step.before)]
        if step.after is not None:
            drawn += ["  after:", _indent(step.after)]
        return Judgement(Verdict.ILLEGAL, f"step {step.step} (line {step.line}): {step.reason}", "\n".join(drawn))
    if report.starts_at_instance is False:
        drawn = "the plan's first state:\n" + _indent(report.first_state or "")
        return Judgement(Verdict.ILLEGAL, report.problems[0] if report.problems else "wrong first state", drawn)
    if report.ends_at_goal is False:
        return Judgement(Verdict.WRONG_GOAL, f"the last state after {report.moves} moves is not a goal", cost=report.cost)
    if report.problems:  # a stated cost that the moves do not add up to
        return Judgement(Verdict.BAD_FORMAT, report.problems[0], cost=report.cost)
    cost = report.cost
    if report.verdict is Validity.OPTIMAL:
        return Judgement(Verdict.PASS, f"optimal, cost {cost:g}", cost=cost)
    if report.verdict is Validity.NOT_OPTIMAL:
        if expect == "legal":
            return Judgement(Verdict.PASS, f"legal, cost {cost:g} (optimum {optimum.cost:g})", cost=cost)
        return Judgement(Verdict.NOT_OPTIMAL, f"cost {cost:g}, optimum {optimum.cost:g}", cost=cost)
    if optimum.status is Status.UNSOLVABLE:
        return Judgement(Verdict.UNVERIFIED, "a plan to a goal, yet the optimal search found the test unsolvable",
                         cost=cost)
    if expect == "legal":
        return Judgement(Verdict.PASS, f"legal, cost {cost:g}", cost=cost)
    return Judgement(Verdict.UNVERIFIED, f"legal, cost {cost:g}, but the optimum is unknown ({optimum.describe()})",
                     cost=cost)


__all__ = ["EXPECT", "MAX_JUDGED_STEPS", "Judgement", "judge_solution", "judge_text"]
