"""Blocks World: the compiled ``deadlock`` kernel gives the values of the Python computation, exactly."""

from __future__ import annotations

import string
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.domains.blocksworld import heuristics, load_bwp
from heurist.domains.blocksworld.heuristics import HEURISTICS, _deadlock_from_scratch
from heurist.domains.blocksworld.model import BlocksWorld
from heurist.search import search

pytest.importorskip("numba")
kernel = pytest.importorskip("heurist.domains.blocksworld.kernel")

from test_blocksworld_deadlock_incremental import placements, problems, reference_deadlock  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld"


@settings(max_examples=150, deadline=None)
@given(problems())
def test_kernel_values_match_the_reference(problem):
    compiled = kernel.CompiledDeadlock(problem)
    state = problem.initial_state
    assert compiled.value(state) == reference_deadlock(state, problem.goal_state)
    values = compiled.children(state)
    for move, child, _ in problem.successors(state):
        expected = reference_deadlock(child, problem.goal_state)
        assert values[move.source * problem.stack_count + move.target] == expected, child


@st.composite
def large_problems(draw: st.DrawFn) -> BlocksWorld:
    stack_count = draw(st.integers(3, 10))
    blocks = string.ascii_uppercase[: draw(st.integers(13, 26))]
    return BlocksWorld(draw(placements(blocks, stack_count)), draw(placements(blocks, stack_count)))


@settings(max_examples=30, deadline=None)
@given(large_problems(), st.lists(st.integers(0, 10**6), min_size=1, max_size=20))
def test_kernel_matches_python_on_walks_with_many_blocks(problem, choices):
    """13 to 26 blocks (up to every letter): masks of 26 bits, graphs too large for the reference."""
    compiled = kernel.CompiledDeadlock(problem)
    state = problem.initial_state
    for choice in choices:
        values = compiled.children(state)
        children = []
        for move, child, _ in problem.successors(state):
            assert values[move.source * problem.stack_count + move.target] == _deadlock_from_scratch(child, problem)
            children.append(child)
        state = children[choice % len(children)]


def test_letters_beyond_the_first_blocks():
    problem = BlocksWorld(("ZX", "", "Q"), ("", "QXZ", ""))
    compiled = kernel.CompiledDeadlock(problem)
    assert compiled.value(problem.initial_state) == _deadlock_from_scratch(problem.initial_state, problem)
    assert compiled.value(problem.goal_state) == 0


def test_a_search_with_the_kernel_has_the_same_statistics(monkeypatch):
    """Switching to the kernel from the first expansion changes neither the plan nor the counts."""
    problem = load_bwp(DATA / "spring21_bwchp" / "bwchp07.bwp")
    python = search(problem, "astar", HEURISTICS["deadlock"])
    assert "deadlock-kernel" not in problem.heuristic_memo  # 1134 expansions: below the switch
    monkeypatch.setattr(heuristics, "KERNEL_AFTER", 0)
    problem = load_bwp(DATA / "spring21_bwchp" / "bwchp07.bwp")
    compiled = search(problem, "astar", HEURISTICS["deadlock"])
    assert problem.heuristic_memo["deadlock-kernel"]
    assert compiled.actions == python.actions
    assert compiled.plan_length == 22
    for field in ("expansions", "generated", "max_frontier", "reopened"):
        assert getattr(compiled.statistics, field) == getattr(python.statistics, field), field


def test_without_numba_the_search_stays_in_python(monkeypatch):
    monkeypatch.setattr(heuristics, "KERNEL_AFTER", 0)
    monkeypatch.setitem(sys.modules, "heurist.domains.blocksworld.kernel", None)  # import fails
    problem = load_bwp(DATA / "spring21_bwchp" / "bwchp06.bwp")
    result = search(problem, "astar", HEURISTICS["deadlock"])
    assert problem.heuristic_memo["deadlock-kernel"] is False
    assert result.plan_length == 19
    assert result.statistics.expansions == 269
