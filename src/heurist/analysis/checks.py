"""Settling claims about a heuristic against exact goal distances.

Given a :class:`~heurist.search.space.StateSpace` (every reachable state,
every edge, h*), :func:`evaluate` computes the heuristic once per state and
:func:`check_heuristic` checks, over every state and every edge:

* **admissible**: h(s) <= h*(s) (states from which no goal is reachable,
  h* = inf, cannot be overestimated);
* **goal-aware**: h(goal) = 0;
* **safe**: h(s) = inf only where h*(s) = inf;
* **consistent**: h(s) <= c(s, s') + h(s') on every edge;
* **informedness**: h(s0) against h*(s0), the mean of h/h* over the states
  with 0 < h* < inf, and the share of those with h = h*;

and :func:`check_dominance` whether h >= h2 on every state. Every violation
is reported with its count and a witness: the state (or edge) where it is
largest, the first in breadth-first order from the start among equals.

The reports print themselves as text or JSON, as
:class:`~heurist.analysis.validation.ValidationReport` does for ``heurist
validate``: a :class:`HeuristicReport` for one heuristic on one state space,
an :class:`InstanceCheck` for one instance of ``heurist check``, and a
:class:`CheckReport` for the whole run with its verdict on the claims. The
witnesses are drawn by a ``draw`` function, the domain's ``format_state`` on
the instance.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from heurist.errors import InputError
from heurist.search import Heuristic, prepare_heuristic
from heurist.search.space import StateSpace

PROPERTIES = ("admissible", "goal-aware", "safe", "consistent", "dominates")
"""Properties a user can claim (``heurist check --claim``)."""

Draw = Callable[[Any], str]
"""A state's picture: the domain's ``format_state`` on the instance the state belongs to."""


@dataclass
class Witness:
    """A state where a property fails, with the values that show it (edges: also the successor)."""

    state: Any
    h: float
    other: float  # h* (admissibility, safety), h2 (dominance), or c + h(s') (consistency)
    child: Any = None
    child_h: float | None = None
    cost: float | None = None


@dataclass
class HeuristicReport:
    """What :func:`check_heuristic` found for one heuristic on one state space."""

    name: str
    states: int
    edges: int
    initial_h: float
    initial_distance: float
    overestimates: int
    largest_excess: float
    admissibility_witness: Witness | None
    goals: int
    nonzero_goals: int
    goal_witness: Witness | None
    unsafe: int
    unsafe_witness: Witness | None
    inconsistent_edges: int
    consistency_witness: Witness | None
    mean_ratio: float | None
    exact_share: float | None
    seconds: float
    dominance: DominanceReport | None = None

    @property
    def admissible(self) -> bool:
        return self.overestimates == 0

    @property
    def goal_aware(self) -> bool:
        return self.nonzero_goals == 0

    @property
    def safe(self) -> bool:
        return self.unsafe == 0

    @property
    def consistent(self) -> bool:
        return self.inconsistent_edges == 0

    def holds(self, claim: str) -> bool:
        if claim == "dominates":
            return self.dominance is None or self.dominance.dominates
        return getattr(self, claim.replace("-", "_"))

    def as_dict(self, draw: Draw) -> dict[str, Any]:
        """The report as JSON values, the witnesses drawn by ``draw`` (infinities as ``"inf"``)."""
        admissibility = _witness_dict(self.admissibility_witness, draw)
        if admissibility is not None and self.admissibility_witness is not None:
            admissibility["h_star"] = finite_or_none(self.admissibility_witness.other)
        document = {
            "initial_h": finite_or_none(self.initial_h),
            "initial_h_star": finite_or_none(self.initial_distance),
            "admissible": self.admissible,
            "overestimates": self.overestimates,
            "largest_excess": finite_or_none(self.largest_excess),
            "admissibility_witness": admissibility,
            "goal_aware": self.goal_aware,
            "goals_with_nonzero_h": self.nonzero_goals,
            "goal_witness": _witness_dict(self.goal_witness, draw),
            "safe": self.safe,
            "unsafe_states": self.unsafe,
            "consistent": self.consistent,
            "inconsistent_edges": self.inconsistent_edges,
            "consistency_witness": _witness_dict(self.consistency_witness, draw),
            "mean_h_over_h_star": self.mean_ratio,
            "share_h_equals_h_star": self.exact_share,
            "seconds": self.seconds,
        }
        if self.dominance is not None:
            dominance = self.dominance
            witness = _witness_dict(dominance.witness, draw)
            if witness is not None and dominance.witness is not None:
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

    def to_text(self, draw: Draw) -> str:
        """The report as indented lines, a verdict per property with its witness drawn by ``draw``."""

        def picture(state: Any) -> str:
            return _indent(draw(state))

        lines = [f"  heuristic {self.name}:"]
        lines.append(f"    admissible: {_yes_no(self.admissible)}" + (
            "" if self.admissible else
            f", {self.overestimates:,} states with h > h*, largest excess {_number(self.largest_excess)}"
        ))
        if self.admissibility_witness is not None:
            witness = self.admissibility_witness
            lines += [f"      witness: h = {_number(witness.h)}, h* = {_number(witness.other)}", picture(witness.state)]
        goals_note = f" (h = 0 on all {self.goals:,} goal states)" if self.goals else " (no goal state is reachable)"
        lines.append(f"    goal-aware: {_yes_no(self.goal_aware)}" + (
            goals_note if self.goal_aware else
            f", h != 0 on {self.nonzero_goals:,} of {self.goals:,} goal states"
        ))
        if self.goal_witness is not None:
            lines += [f"      witness: a goal state with h = {_number(self.goal_witness.h)}",
                      picture(self.goal_witness.state)]
        lines.append(f"    safe: {_yes_no(self.safe)}" + (
            "" if self.safe else f", h = inf on {self.unsafe:,} states that can reach a goal"
        ))
        if self.unsafe_witness is not None:
            lines += [f"      witness: h = inf, h* = {_number(self.unsafe_witness.other)}",
                      picture(self.unsafe_witness.state)]
        lines.append(f"    consistent: {_yes_no(self.consistent)}" + (
            "" if self.consistent else f", {self.inconsistent_edges:,} edges with h(s) > c(s,s') + h(s')"
        ))
        if self.consistency_witness is not None:
            edge = self.consistency_witness
            lines += [
                f"      witness edge: h(s) = {_number(edge.h)} > c = {_number(edge.cost)} + h(s') = {_number(edge.child_h)}",
                "      s:", picture(edge.state), "      s':", picture(edge.child),
            ]
        share = "-" if self.exact_share is None else f"{self.exact_share:.1%}"
        ratio = "-" if self.mean_ratio is None else f"{self.mean_ratio:.3f}"
        lines.append(
            f"    informedness: h(start) = {_number(self.initial_h)} of h*(start) = {_number(self.initial_distance)}; "
            f"mean h/h* = {ratio}; h = h* on {share} of the non-goal states that can reach a goal"
        )
        if self.dominance is not None:
            dominance = self.dominance
            lines.append(f"    dominates {dominance.against}: {_yes_no(dominance.dominates)}" + (
                f" (h > h2 on {dominance.above:,} states)" if dominance.dominates else
                f", h < h2 on {dominance.below:,} states, largest shortfall {_number(dominance.largest_deficit)}"
            ))
            if dominance.witness is not None:
                lines += [
                    f"      witness: h = {_number(dominance.witness.h)} < h2 = {_number(dominance.witness.other)}",
                    picture(dominance.witness.state),
                ]
        lines.append(f"  checked in {self.seconds:.2f} s")
        return "\n".join(lines)


@dataclass
class DominanceReport:
    """Whether h >= h2 on every state, and where it fails by the most."""

    against: str
    below: int
    above: int
    largest_deficit: float
    witness: Witness | None

    @property
    def dominates(self) -> bool:
        return self.below == 0


def evaluate(heuristic: Heuristic, space: StateSpace) -> np.ndarray:
    """h of every state of the space, as floats (``inf`` kept); runs the heuristic's ``prepare`` first."""
    problem = space.problem
    name = getattr(heuristic, "heuristic_name", getattr(heuristic, "__name__", "the heuristic"))
    try:
        prepare_heuristic(heuristic, problem)
        values = np.fromiter(
            (heuristic(state, problem) for state in space.states), dtype=np.float64, count=space.size
        )
    except InputError:  # a user heuristic's failure, already reported with its file and line
        raise
    except Exception as error:  # a built-in heuristic failed, or returned something that is not a number
        raise InputError(f"{name} failed: {type(error).__name__}: {error}", "--heuristic") from None
    if np.isnan(values).any():
        bad = space.states[int(np.flatnonzero(np.isnan(values))[0])]
        raise InputError(f"{name} returned {heuristic(bad, problem)!r}, not a number", "--heuristic")
    return values


def _worst(excess: np.ndarray, mask: np.ndarray) -> int | None:
    """Index of the largest ``excess`` among ``mask`` (the lowest index among equals), or None."""
    candidates = np.flatnonzero(mask)
    if candidates.size == 0:
        return None
    return int(candidates[np.argmax(excess[candidates])])


def check_heuristic(name: str, values: np.ndarray, space: StateSpace, seconds: float = 0.0) -> HeuristicReport:
    """Check one heuristic's values (from :func:`evaluate`) against the space's exact distances."""
    distance = space.distance
    states = space.states
    finite = np.isfinite(distance)
    with np.errstate(invalid="ignore"):
        excess = np.where(finite, values - np.where(finite, distance, 0), -np.inf)
    over = excess > 0
    worst = _worst(excess, over)
    admissibility_witness = None
    if worst is not None:
        admissibility_witness = Witness(states[worst], float(values[worst]), float(distance[worst]))
    unsafe_mask = finite & np.isinf(values) & (values > 0)
    unsafe_index = _worst(np.zeros(space.size), unsafe_mask)
    unsafe_witness = None
    if unsafe_index is not None:
        unsafe_witness = Witness(states[unsafe_index], float(values[unsafe_index]), float(distance[unsafe_index]))
    goal_bad = space.goal & (values != 0)
    goal_index = _worst(np.abs(np.nan_to_num(values, posinf=1e300)), goal_bad)
    goal_witness = None if goal_index is None else Witness(states[goal_index], float(values[goal_index]), 0.0)
    consistency = _consistency(values, space)
    solvable = finite & (distance > 0)
    usable = solvable & np.isfinite(values)
    mean_ratio = float(np.mean(values[usable] / distance[usable])) if usable.any() else None
    exact_share = float(np.mean(values[solvable] == distance[solvable])) if solvable.any() else None
    return HeuristicReport(
        name=name,
        states=space.size,
        edges=space.edge_count,
        initial_h=float(values[0]),
        initial_distance=float(distance[0]),
        overestimates=int(over.sum()),
        largest_excess=float(excess[worst]) if worst is not None else 0.0,
        admissibility_witness=admissibility_witness,
        goals=int(space.goal.sum()),
        nonzero_goals=int(goal_bad.sum()),
        goal_witness=goal_witness,
        unsafe=int(unsafe_mask.sum()),
        unsafe_witness=unsafe_witness,
        inconsistent_edges=consistency[0],
        consistency_witness=consistency[1],
        mean_ratio=mean_ratio,
        exact_share=exact_share,
        seconds=seconds,
    )


def _consistency(values: np.ndarray, space: StateSpace) -> tuple[int, Witness | None]:
    source, target, cost = space.source, space.target, space.cost
    if source.size == 0:
        return 0, None
    bound = cost + values[target]
    with np.errstate(invalid="ignore"):
        gap = values[source] - bound
    broken = values[source] > bound
    if not broken.any():
        return 0, None
    gap = np.where(np.isnan(gap), np.inf, gap)
    edge = _worst(gap, broken)
    s, t = int(source[edge]), int(target[edge])
    witness = Witness(
        space.states[s], float(values[s]), float(bound[edge]),
        child=space.states[t], child_h=float(values[t]), cost=float(cost[edge]),
    )
    return int(broken.sum()), witness


def check_dominance(values: np.ndarray, name: str, other: np.ndarray, space: StateSpace) -> DominanceReport:
    """Whether ``values`` >= ``other`` on every state; the witness is where it falls short the most."""
    below = values < other
    with np.errstate(invalid="ignore"):
        deficit = np.where(below, other - values, 0.0)
    deficit = np.where(np.isnan(deficit), np.inf, deficit)
    worst = _worst(deficit, below)
    witness = None
    if worst is not None:
        witness = Witness(space.states[worst], float(values[worst]), float(other[worst]))
    return DominanceReport(
        against=name,
        below=int(below.sum()),
        above=int((values > other).sum()),
        largest_deficit=float(deficit[worst]) if worst is not None else 0.0,
        witness=witness,
    )


def run_checks(
    space: StateSpace, heuristic: Heuristic, name: str, against: Heuristic | None = None, against_name: str = ""
) -> HeuristicReport:
    """Evaluate ``heuristic`` (and ``against``) on the space and check everything."""
    started = time.perf_counter()
    values = evaluate(heuristic, space)
    report = check_heuristic(name, values, space)
    if against is not None:
        report.dominance = check_dominance(values, against_name, evaluate(against, space), space)
    report.seconds = time.perf_counter() - started
    return report


def finite_or_none(value: float | None) -> float | str | None:
    """JSON has no infinity: write it as the string ``"inf"``."""
    if value is None:
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


@dataclass
class InstanceCheck:
    """What ``heurist check`` found on one instance: its state space and the heuristic's report, or why it
    was skipped (``report`` None, ``skipped`` the reason)."""

    instance: str
    rules: str
    skipped: str = ""
    states: int = 0
    edges: int = 0
    goals: int = 0
    exact_seconds: float = 0.0
    method: str = ""
    holds: dict[str, bool] = field(default_factory=dict)
    report: HeuristicReport | None = None

    @classmethod
    def checked(
        cls, instance: str, rules: str, space: StateSpace, report: HeuristicReport, claims: Sequence[str]
    ) -> InstanceCheck:
        """The instance's state space and ``report``, with whether each of ``claims`` holds."""
        return cls(
            instance, rules, states=space.size, edges=space.edge_count, goals=int(space.goal.sum()),
            exact_seconds=space.seconds, method=space.method,
            holds={claim: report.holds(claim) for claim in claims}, report=report,
        )

    def as_dict(self, draw: Draw) -> dict[str, Any]:
        document: dict[str, Any] = {"instance": self.instance, "rules": self.rules}
        if self.report is None:
            document["skipped"] = self.skipped
            return document
        document.update(
            states=self.states, edges=self.edges, goals=self.goals, exact_seconds=self.exact_seconds,
            method=self.method, holds=self.holds, report=self.report.as_dict(draw),
        )
        return document

    def to_text(self, draw: Draw) -> str:
        """The state space in a line, then the whole report with its witnesses drawn by ``draw``."""
        if self.report is None:
            return self._skipped_text()
        report = self.report
        rules = f" ({self.rules})" if self.rules else ""
        header = (
            f"{self.instance}{rules}: {self.states:,} states, {self.edges:,} edges, "
            f"{self.goals:,} goal states; h*(start) = {_number(report.initial_distance)} "
            f"[exact distances in {self.exact_seconds:.2f} s, {self.method}]"
        )
        return header + "\n" + report.to_text(draw) + "\n"

    def to_line(self) -> str:
        """One line: the number of states and whether each claim holds (``heurist check --quiet``)."""
        if self.report is None:
            return self._skipped_text()
        verdicts = ", ".join(f"{claim} {_yes_no(holds)}" for claim, holds in self.holds.items())
        return f"{self.instance}: {self.states:,} states; {verdicts}"

    def _skipped_text(self) -> str:
        return f"{self.instance}: skipped: {self.skipped}\n"


@dataclass
class CheckReport:
    """Everything ``heurist check`` found: each instance, and the verdict on the claims over all of them."""

    domain: str
    heuristic: str
    against: str | None
    claims: list[str]
    instances: list[InstanceCheck] = field(default_factory=list)
    _documents: list[dict[str, Any]] = field(default_factory=list, init=False, repr=False)

    def add(self, found: InstanceCheck, draw: Draw) -> None:
        """Record one instance; its JSON form is drawn now, while its problem is at hand."""
        self.instances.append(found)
        self._documents.append(found.as_dict(draw))

    @property
    def checked(self) -> list[InstanceCheck]:
        return [found for found in self.instances if found.report is not None]

    @property
    def skipped(self) -> int:
        return len(self.instances) - len(self.checked)

    @property
    def violated(self) -> list[str]:
        """The claims that fail on some instance checked."""
        checked = self.checked
        return [claim for claim in self.claims if any(not found.holds[claim] for found in checked)]

    @property
    def holds(self) -> bool:
        """Every claim holds on every instance, none skipped."""
        return not self.violated and not self.skipped

    def as_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "heuristic": self.heuristic,
            "against": self.against,
            "claims": self.claims,
            "instances": self._documents,
            "violated": self.violated,
            "holds": self.holds,
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2)

    def to_text(self) -> str:
        """The summary after the instances' reports: counts per claim when there are several, and the verdict."""
        checked, skipped, violated = self.checked, self.skipped, self.violated
        lines = []
        if len(checked) > 1 or skipped:
            lines.append(f"{len(checked)} instance(s) checked" + (f", {skipped} skipped (too large)" if skipped else ""))
            for claim in self.claims:
                good = sum(found.holds[claim] for found in checked)
                lines.append(f"  {claim}: holds on {good} of {len(checked)}")
        verdict = "VIOLATED: " + ", ".join(violated) if violated else (
            "not settled: no violation found on the instances checked" if skipped else "holds"
        )
        lines.append(f"verdict for {self.heuristic} ({', '.join(self.claims)}): {verdict}")
        return "\n".join(lines)


def _witness_dict(witness: Witness | None, draw: Draw) -> dict[str, Any] | None:
    if witness is None:
        return None
    document = {"state": draw(witness.state), "h": finite_or_none(witness.h)}
    if witness.child is not None:
        document.update(
            successor=draw(witness.child),
            successor_h=finite_or_none(witness.child_h),
            cost=finite_or_none(witness.cost),
        )
    return document


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
