"""Klotski's pattern database tables against the plain definition, table by table.

:func:`reference_table` is the plain builder the tables were first made
with (a component search from the abstract start, then a 0-1 breadth-first
search from the goals in it, both through the problem's move function).
The faster builder of :mod:`heurist.domains.klotski.pdb` must return the
same table: the same distance for every abstract state, the same states,
the same component size, and an overflow exactly when this one overflows.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from heurist.domains.klotski import heuristics, load
from heurist.domains.klotski.board import BIG, HORIZONTAL, SINGLE, VERTICAL, Geometry
from heurist.domains.klotski.model import KlotskiProblem
from heurist.domains.klotski.pdb import build_table

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"
PDB_A = ((BIG, VERTICAL, HORIZONTAL), (BIG, VERTICAL, HORIZONTAL))
PDB_B = ((BIG, SINGLE), (SINGLE,))
OTHER = ((BIG, SINGLE), (BIG, SINGLE))  # every move counted: the generic builder on the 1x1 pattern


def reference_table(problem: KlotskiProblem, kept, counted, limit: int) -> tuple[dict[int, int], int]:
    geometry = problem.geometry
    mask = sum(geometry.full << (shape * geometry.cells) for shape in kept)
    goal = None if problem.goal_state is None else problem.goal_state & mask
    start = problem.initial_state & mask
    is_goal = problem.is_goal if goal is None else goal.__eq__
    successors = problem.moves
    component = {start}
    queue = [start]
    goals = []
    for state in queue:
        if is_goal(state):
            goals.append(state)
        for _, child, _ in successors(state):
            if child not in component:
                component.add(child)
                queue.append(child)
        if len(component) > limit:
            raise OverflowError("abstract space too large")
    distance: dict[int, int] = dict.fromkeys(goals, 0)
    frontier = deque(goals)
    while frontier:
        state = frontier.popleft()
        d = distance[state]
        for (shape, _, _), child, _ in successors(state):
            step = 1 if shape in counted else 0
            known = distance.get(child)
            if known is None or d + step < known:
                distance[child] = d + step
                if step:
                    frontier.append(child)
                else:
                    frontier.appendleft(child)
    return distance, len(component)


def new_table(problem: KlotskiProblem, kept, counted, limit: int) -> tuple[dict[int, int], int]:
    geometry = problem.geometry
    mask = sum(geometry.full << (shape * geometry.cells) for shape in kept)
    goal = None if problem.goal_state is None else problem.goal_state & mask
    return build_table(problem, kept, frozenset(counted), problem.initial_state & mask, goal, limit)


def outcome(builder, problem, kept, counted, limit=heuristics.PDB_MAX_STATES):
    try:
        return builder(problem, kept, counted, limit)
    except OverflowError:
        return "overflow"


BOARDS = [
    ("w23_s24_char/testhrd_hard1.txt", "step"),  # the classic layout, exit goal
    ("w23_s24_char/testhrd_med4.txt", "step"),
    ("f24_w25_goal/easy1.txt", "step"),  # goal boards
    ("f24_w25_goal/hard2.txt", "step"),
    ("f22_numeric/layouts32_longles/hrd_10.txt", "step"),  # 8x4
    ("f24_w25_goal/easy2.txt", "slide"),
    ("w23_s24_char/testhrd_easy1.txt", "path"),
]


CASES = [(name, metric, abstraction) for name, metric in BOARDS
         for abstraction in ((PDB_A, PDB_B, OTHER) if metric == "step" else (PDB_A, PDB_B))]


@pytest.mark.parametrize("name, metric, abstraction", CASES)
def test_the_tables_are_those_of_the_plain_definition(name, metric, abstraction):
    problem = load(DATA / name, metric=metric)
    kept, counted = abstraction
    expected = outcome(reference_table, problem, kept, counted)
    assert outcome(new_table, problem, kept, counted) == expected
    if expected != "overflow":
        assert expected[0]  # the goal is in the component: a real table was compared


@pytest.mark.parametrize("limit", [100, 4391, 4392, 21839, 21840])
@pytest.mark.parametrize("name", ["w23_s24_char/testhrd_hard1.txt", "f24_w25_goal/easy1.txt"])
def test_a_component_over_the_limit_overflows_exactly_when_it_did(name, limit):
    problem = load(DATA / name)
    for kept, counted in (PDB_A, PDB_B):
        assert outcome(new_table, problem, kept, counted, limit) == outcome(
            reference_table, problem, kept, counted, limit)


def test_a_goal_board_outside_the_starts_component():
    """3x2 board: the 2x2 piece is walled in by a 1x1 piece, which can only go up and down, so the
    goal with the 1x1 piece on the left is not in the start's component: an empty table, the
    component's size."""
    geometry = Geometry(3, 2)
    start = geometry.pack(1 << geometry.index(0, 0), 0, 0, 1 << geometry.index(0, 2))
    goal = geometry.pack(1 << geometry.index(0, 1), 0, 0, 1 << geometry.index(0, 0))
    problem = KlotskiProblem(geometry, start, goal)
    for kept, counted in (PDB_B, OTHER):
        expected = reference_table(problem, kept, counted, 1000)
        assert expected == ({}, 2)
        assert new_table(problem, kept, counted, 1000) == expected
        assert outcome(new_table, problem, kept, counted, 1) == "overflow"


def test_the_pattern_database_heuristic_uses_these_tables(monkeypatch):
    monkeypatch.setenv("HEURIST_CACHE", "off")
    problem = load(DATA / "w23_s24_char" / "testhrd_hard1.txt")
    for kept, counted in (PDB_A, PDB_B):
        database = heuristics.PatternDatabase(problem, kept, counted)
        assert (database.distance, database.size) == reference_table(
            problem, kept, frozenset(counted), heuristics.PDB_MAX_STATES)
