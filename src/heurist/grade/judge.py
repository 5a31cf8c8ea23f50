"""Judging what a program printed: read it in the course's format, replay it, compare with the optimum.

:func:`judge_text` turns one output (a file's or stdout's text) into a
:class:`Judgement`. The reading is the domain's own
(:meth:`~heurist.domains.Domain.read_solution`: every course format), the
replay and the optimality check are :func:`~heurist.analysis.validation.validate_solution`'s.
A Blokus ``game.py`` report without a move list is judged by its final board
(the plan is rebuilt from it, piece by piece, and replayed) or, with no board,
by its ``Expanded nodes: N, score: S`` line against the optimal score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from heurist.analysis.validation import ValidationReport, validate_solution
from heurist.analysis.validation import Verdict as Validity
from heurist.domains import Domain
from heurist.errors import InputError
from heurist.grade.optima import OptimumInfo
from heurist.grade.verdicts import Verdict
from heurist.search import Status
from heurist.search.solutions import Solution

EXPECT = ("optimal", "legal")

_SCORE_LINE = re.compile(r"Expanded nodes: (\d+), score: (\d+)")
_BOARD_TOKEN = re.compile(r"^[.#xXsS]$")
MAX_JUDGED_STEPS = 200_000
"""Plans longer than this are not replayed (``--max-plan-steps``): a verdict, not a stalled grader."""
REBUILD_BUDGET = 200_000
"""States the rebuilding of a Blokus plan from its final board may visit."""


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
        if domain.name == "blokus" and _SCORE_LINE.search(text):
            return judge_blokus_report(domain, problem, text, source, optimum, expect)
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


def final_board(problem: Any, text: str) -> int | None:
    """The occupied squares of the last board drawn in ``text`` (a Blokus report), as a bitmask."""
    board = problem.board
    runs: list[list[list[str]]] = [[]]
    for line in text.splitlines():
        tokens = line.split()
        if tokens and len(tokens) == board.cols and all(_BOARD_TOKEN.match(token) for token in tokens):
            runs[-1].append(tokens)
        elif runs[-1]:
            runs.append([])
    boards = [run for run in runs if len(run) == board.rows]
    if not boards:
        return None
    found = boards[-1]
    mask = 0
    for row, tokens in enumerate(found):
        for col, token in enumerate(tokens):
            if token in ("#", "X", "S"):
                mask |= board.bit(row, col)
    return mask


def rebuild_plan(problem: Any, final: int, budget: int = REBUILD_BUDGET) -> list[Any] | None:
    """Legal placements from the start that cover exactly the squares ``final``; None if there are none."""
    start = problem.initial_state
    stack = [(start, [])]
    seen = {start}
    while stack and len(seen) <= budget:
        state, moves = stack.pop()
        if state[0] == final:
            return moves
        for action, after, _ in problem.successors(state):
            if after[0] & ~final or after in seen:
                continue
            seen.add(after)
            stack.append((after, [*moves, action]))
    return None


def judge_blokus_report(domain: Domain, problem: Any, text: str, source: str, optimum: OptimumInfo,
                        expect: str = "optimal") -> Judgement:
    """A ``game.py`` report without moves: its final board rebuilt and replayed; a score line alone is refused."""
    matches = list(_SCORE_LINE.finditer(text))
    score = int(matches[-1].group(2))
    line = text[: matches[-1].start()].count("\n") + 1
    board = final_board(problem, text)
    if board is not None:
        tiles = board.bit_count()
        if tiles != score:
            return Judgement(Verdict.BAD_FORMAT, f"line {line}: score {score}, but the final board has {tiles} tiles")
        moves = rebuild_plan(problem, board)
        if moves is None:
            drawn = problem.board.draw(board)
            return Judgement(Verdict.ILLEGAL, "no sequence of legal placements builds the final board",
                             "the final board:\n" + _indent(drawn))
        solution = Solution(source, "blokus", moves=moves, lines=[line] * len(moves))
        judged = judge_solution(domain, problem, solution, optimum, expect)
        judged.detail += " (plan rebuilt from the final board)"
        return judged
    return Judgement(Verdict.BAD_FORMAT, f"line {line}: a score line alone (score {score}) proves nothing: "
                     "print the final board or the moves")


__all__ = ["EXPECT", "MAX_JUDGED_STEPS", "Judgement", "final_board", "judge_blokus_report", "judge_solution", "judge_text",
           "rebuild_plan"]
