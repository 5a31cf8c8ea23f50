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
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from heurist.errors import InputError
from heurist.search import Heuristic, prepare_heuristic
from heurist.search.space import StateSpace

PROPERTIES = ("admissible", "goal-aware", "safe", "consistent", "dominates")
"""Properties a user can claim (``heurist check --claim``)."""


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


def finite_or_none(value: float) -> float | str | None:
    """JSON has no infinity: write it as the string ``"inf"``."""
    if value is None:
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value
