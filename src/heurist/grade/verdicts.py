"""The verdicts of ``heurist grade`` and the record of one graded test."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any


class Verdict(str, enum.Enum):
    """What one program did on one test; only ``pass`` earns the test's weight."""

    PASS = "pass"
    NOT_OPTIMAL = "not optimal"
    ILLEGAL = "illegal"
    WRONG_GOAL = "wrong goal"
    BAD_FORMAT = "bad format"
    NO_OUTPUT = "no output"
    CRASHED = "crashed"
    TIMED_OUT = "timed out"
    OUT_OF_MEMORY = "out of memory"
    CHANGED_INPUT = "changed input"
    UNVERIFIED = "unverified"

    @property
    def passed(self) -> bool:
        return self is Verdict.PASS

    @property
    def is_error(self) -> bool:
        """The program did not finish normally (JUnit ``error`` rather than ``failure``)."""
        return self in (Verdict.CRASHED, Verdict.TIMED_OUT, Verdict.OUT_OF_MEMORY, Verdict.NO_OUTPUT)


VERDICT_HELP = {
    Verdict.PASS: "a legal plan from the start to a goal (optimal, with --expect optimal), or 'No solution' "
                  "for an unsolvable test",
    Verdict.NOT_OPTIMAL: "a legal plan to a goal, costlier than the optimum (passes with --expect legal)",
    Verdict.ILLEGAL: "a step breaks the rules, or the plan does not start at the test's start: the first "
                     "illegal step is drawn",
    Verdict.WRONG_GOAL: "legal, but the last state is not a goal; or 'No solution' for a solvable test",
    Verdict.BAD_FORMAT: "the output cannot be read (the first bad line and why), contradicts itself, or was "
                        "cut off at --max-output",
    Verdict.NO_OUTPUT: "the program ended normally but wrote nothing",
    Verdict.CRASHED: "the program ended with an error and no usable output, or was killed by a signal: "
                     "exit status and the last lines of stderr",
    Verdict.TIMED_OUT: "wall time over --timeout or CPU time over --cpu-limit: the process group was killed",
    Verdict.OUT_OF_MEMORY: "an allocation failed at --memory-limit (MemoryError, bad_alloc), or the kernel "
                           "killed the program",
    Verdict.CHANGED_INPUT: "the output would pass, but the program changed its copy of the test file "
                           "(or the original, which is then restored)",
    Verdict.UNVERIFIED: "the optimum is unknown (the optimal search stopped at --optimum-time-limit)",
}


@dataclass
class TestResult:
    """One program on one test."""

    __test__ = False  # not a pytest class

    program: str
    test: str
    verdict: Verdict
    detail: str = ""
    report: str = ""  # the longer text: drawn illegal step, stderr tail, notes
    cost: float | None = None
    optimum: float | None = None
    exit_status: int | None = None
    wall_time: float | None = None
    cpu_time: float | None = None
    notes: list[str] = field(default_factory=list)
    isolation: str = ""  # the level the run had (heurist.grade.isolation.Isolation's value)

    @property
    def passed(self) -> bool:
        return self.verdict.passed

    def as_dict(self) -> dict[str, Any]:
        document = asdict(self)
        document["verdict"] = self.verdict.value
        document["passed"] = self.passed
        return document

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> TestResult:
        values = {key: value for key, value in document.items() if key in cls.__dataclass_fields__}
        values["verdict"] = Verdict(values["verdict"])
        return cls(**values)

    def output_text(self) -> str:
        """What a student sees for this test: the verdict, its reason and the report."""
        lines = [f"{self.verdict.value}: {self.detail}" if self.detail else self.verdict.value]
        if self.report:
            lines += ["", self.report.rstrip()]
        for note in self.notes:
            lines.append(f"note: {note}")
        return "\n".join(lines)


__all__ = ["VERDICT_HELP", "TestResult", "Verdict"]
