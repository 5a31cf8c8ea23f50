"""The Klotski search problem: a start board, a goal, and a move metric."""

from __future__ import annotations

from typing import Any

from heurist.domains import ShowsItself
from heurist.domains.klotski.board import BIG, Geometry
from heurist.errors import InputError

METRICS = {
    "step": "one piece moves one cell (the CSC384 metric)",
    "slide": "one piece slides any distance in a straight line",
    "path": "one piece moves to any cell it can reach, along any path",
}


class KlotskiProblem(ShowsItself):
    """Move pieces from ``start`` until the goal holds; every move costs 1.

    The goal is either the classic one (some 2x2 piece at the bottom-centre
    exit: bottom two rows, columns ``(width - 2) // 2`` onwards) or, when
    ``goal`` is given, that exact board (pieces of one shape interchangeable).

    With ``symmetry=True``, and when the goal is its own mirror image, the
    search runs over one representative of each pair of mirror-image states
    (the smaller integer): mirror images are equally far from such a goal, so
    plans stay optimal while about half the states are visited. The plan is
    turned back into real boards by :meth:`unfold_plan`.
    """

    domain_name = "klotski"

    def __init__(
        self,
        geometry: Geometry,
        start: int,
        goal: int | None = None,
        metric: str = "step",
        name: str = "klotski",
        symmetry: bool = False,
        variant: str = "v2",
    ):
        if metric not in METRICS:
            raise ValueError(f"unknown move metric {metric!r}; choose one of {', '.join(METRICS)}")
        self.geometry = geometry
        self.start = self.initial_state = start
        self.goal_state = goal
        self.metric = metric
        self.name = name
        self.variant = variant  # the CSC384 format it was read from: its outputs follow it
        self.moves = self.successors = geometry.successor_function(metric)
        self.tables: dict[str, Any] = {}  # per-problem heuristic tables, built on demand
        if goal is None:
            if geometry.width < 2 or geometry.height < 2:
                raise InputError("the board is too small for a 2x2 piece to reach the exit", name)
            if not geometry.shape_mask(start, BIG):
                raise InputError("the board has no 2x2 piece ('1'), so the exit goal cannot be reached", name)
            self.goal_anchor = geometry.index(geometry.height - 2, (geometry.width - 2) // 2)
            goal_bit = 1 << self.goal_anchor  # BIG is the lowest field of the packed state
            self.is_goal = lambda state: bool(state & goal_bit)
        else:
            big = geometry.shape_mask(goal, BIG)
            self.goal_anchor = big.bit_length() - 1 if big and big & (big - 1) == 0 else None
            self.is_goal = goal.__eq__
        self.symmetry = symmetry and self._goal_is_its_own_mirror_image()
        if self.symmetry:
            self.initial_state = self.canonical(start)
            if metric == "step":
                self.successors = geometry.canonical_step_successors
            elif metric == "path":
                self.successors = geometry.canonical_path_successors
            else:
                self.successors = self._canonical_successors

    def _goal_is_its_own_mirror_image(self) -> bool:
        if self.goal_state is None:
            return self.geometry.width % 2 == 0  # the exit is then centred
        return self.geometry.mirror(self.goal_state) == self.goal_state

    def canonical(self, state: int) -> int:
        """The representative of ``state`` and its mirror image: the smaller integer."""
        mirrored = self.geometry.mirror(state)
        return mirrored if mirrored < state else state

    def _canonical_successors(self, state: int) -> list:
        mirror = self.geometry.mirror
        moves = []
        for action, child, cost in self.moves(state):
            mirrored = mirror(child)
            moves.append((action, mirrored if mirrored < child else child, cost))
        return moves

    def unfold_plan(self, states: list[int]) -> tuple[list, list[int]]:
        """Turn a plan over representatives back into real boards from the real start.

        Returns (actions, states). Without symmetry the plan is returned as it is.
        """
        real = [self.start]
        actions = []
        for target in states[1:]:
            for action, child, _ in self.moves(real[-1]):
                if child == target or (self.symmetry and self.canonical(child) == target):
                    actions.append(action)
                    real.append(child)
                    break
            else:
                raise ValueError("the plan does not follow legal moves")
        return actions, real

    def describe(self) -> str:
        """The rule that changes the distances: the move metric."""
        return f"{self.metric} metric"

    def __repr__(self) -> str:
        symmetry = ", symmetry" if self.symmetry else ""
        return (f"KlotskiProblem({self.name!r}, {self.geometry.height}x{self.geometry.width}, "
                f"metric={self.metric!r}{symmetry})")

    def with_metric(self, metric: str) -> KlotskiProblem:
        return KlotskiProblem(
            self.geometry, self.start, self.goal_state, metric, self.name, self.symmetry, self.variant
        )

    def without_symmetry(self) -> KlotskiProblem:
        """The same instance searched over real boards (no mirror reduction)."""
        if not self.symmetry:
            return self
        return KlotskiProblem(self.geometry, self.start, self.goal_state, self.metric, self.name, False, self.variant)

    def first_illegal_step(self, states: list[int]) -> int | None:
        """Replay a sequence of states: the 1-based number of the first step that is not
        one legal move under this problem's metric, or None if every step is legal."""
        for number, (before, after) in enumerate(zip(states, states[1:]), start=1):
            if not any(child == after for _, child, _ in self.moves(before)):
                return number
        return None
