"""The pure-Python minimum-cost assignment against scipy's, on random matrices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from heurist.search.assignment import minimum_assignment_cost


@st.composite
def square_matrices(draw, max_size: int = 8, max_cost: int = 40):
    n = draw(st.integers(min_value=0, max_value=max_size))
    cost = st.integers(min_value=0, max_value=max_cost)
    return [[draw(cost) for _ in range(n)] for _ in range(n)]


def scipy_cost(costs: list[list[int]]) -> int:
    if not costs:
        return 0
    matrix = np.array(costs)
    rows, columns = linear_sum_assignment(matrix)
    return int(matrix[rows, columns].sum())


@settings(max_examples=400, deadline=None)
@given(square_matrices())
def test_minimum_assignment_cost_equals_scipy(costs):
    assert minimum_assignment_cost(costs) == scipy_cost(costs)


@settings(max_examples=100, deadline=None)
@given(square_matrices(max_size=12, max_cost=3))
def test_ties_and_larger_matrices_equal_scipy(costs):
    assert minimum_assignment_cost(costs) == scipy_cost(costs)


def test_a_rectangular_matrix_is_refused():
    with pytest.raises(ValueError):
        minimum_assignment_cost([[1, 2], [3]])
