"""The compiled Klotski kernels against the interpreted engine and the numpy builder: the same results."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from heurist.domains.klotski import DOMAIN, compiled, load  # noqa: E402
from heurist.domains.klotski.space import klotski_numpy_space  # noqa: E402
from heurist.search import Limits, Status, search  # noqa: E402
from heurist.search.space import StateSpaceTooLarge  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"
CLASSIC = "w23_s24_char/testhrd_hard1.txt"


def outcome(result) -> tuple:
    """Everything of a result but its times and memory."""
    s = result.statistics
    return (result.status, result.algorithm, result.limit, result.cost, result.actions, result.states,
            s.expansions, s.generated, s.max_frontier, repr(result.problem))


@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("metric", ["path", "step"])
@pytest.mark.parametrize("name", [
    CLASSIC,  # exit goal, 81 path moves / 116 steps
    "f24_w25_goal/med1.txt",  # a goal board
    "f24_w25_goal/med1T.txt",  # unsolvable: the whole component
    "f24_w25_goal/hard2.txt",  # six rows
    "f22_numeric/hrd_input0.txt",  # one move
])
def test_breadth_first_search_is_the_engines(name, metric, symmetry):
    problem = load(DATA / name, metric=metric, symmetry=symmetry)
    limits = Limits(max_expansions=25_000)  # the classic needs 23,951 without the mirror reduction
    expected = search(problem, "bfs", limits=limits)
    got = compiled.breadth_first_search(load(DATA / name, metric=metric, symmetry=symmetry), limits=limits)
    assert outcome(got) == outcome(expected)


def test_a_solved_start_and_an_expansion_limit_end_as_in_the_engine():
    problem = load(DATA / CLASSIC, metric="path", symmetry=False)
    for limit in (1, 2, 777):
        limits = Limits(max_expansions=limit)
        got = compiled.breadth_first_search(problem, limits=limits)
        assert got.status is Status.LIMIT_REACHED and got.limit == "expansions"
        assert outcome(got) == outcome(search(problem, "bfs", limits=limits))
    goal = load(DATA / CLASSIC, metric="path", symmetry=False)
    goal = type(goal)(goal.geometry, goal.start, goal.start, "path")
    assert outcome(compiled.breadth_first_search(goal)) == outcome(search(goal, "bfs"))


def test_slide_metric_runs_in_the_engine():
    problem = load(DATA / "f24_w25_goal/easy3.txt", metric="slide")
    assert not compiled.supports_search(problem)
    assert outcome(compiled.breadth_first_search(problem)) == outcome(search(problem, "bfs"))


def same_space(a, b) -> None:
    assert a.states == b.states
    assert np.array_equal(a.goal, b.goal)
    assert np.array_equal(a.source, b.source) and np.array_equal(a.target, b.target)
    assert np.array_equal(a.cost, b.cost)


@pytest.mark.parametrize("metric", ["step", "slide", "path"])
@pytest.mark.parametrize("name", [CLASSIC, "f24_w25_goal/med1.txt", "f24_w25_goal/hard1.txt"])
def test_whole_spaces_are_the_numpy_builders(name, metric):
    problem = load(DATA / name, metric=metric, symmetry=False)
    same_space(compiled.klotski_compiled_space(problem), klotski_numpy_space(problem))


@pytest.mark.parametrize("pieces, rows, cols", [("1,0,1,2", 3, 3), ("1,1,1,2", 4, 4), ("1,4,3,4", 4, 6)])
@pytest.mark.parametrize("metric", ["step", "slide", "path"])
def test_whole_spaces_on_other_boards(pieces, rows, cols, metric):
    """Boards of up to 16 cells use the states themselves as keys, larger ones a hash."""
    for _, text in DOMAIN.generate(seed=3, count=1, pieces=pieces, rows=rows, cols=cols):
        problem = DOMAIN.parse(text, metric=metric, symmetry=False)
        same_space(compiled.klotski_compiled_space(problem), klotski_numpy_space(problem))
        limits = Limits(max_expansions=20_000)
        assert outcome(compiled.breadth_first_search(problem, limits=limits)) == outcome(
            search(problem, "bfs", limits=limits))


def test_a_whole_space_of_six_rows():
    problem = load(DATA / "f24_w25_goal/hard2.txt", metric="step", symmetry=False)
    same_space(compiled.klotski_compiled_space(problem), klotski_numpy_space(problem))


def test_the_state_limit_is_the_numpy_builders():
    problem = load(DATA / CLASSIC, metric="step", symmetry=False)
    for builder in (compiled.klotski_compiled_space, klotski_numpy_space):
        with pytest.raises(StateSpaceTooLarge):
            builder(problem, 25_954)
    assert compiled.klotski_compiled_space(problem, 25_955).size == 25_955
