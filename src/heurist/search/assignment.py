"""The cheapest one-to-one assignment of n workers to n jobs, in plain Python.

Heuristics that match interchangeable pieces to their goal places (Klotski's
goal boards) need the minimum total cost of a perfect matching in a small
square cost matrix, thousands of times per search. scipy's
``linear_sum_assignment`` gives it, but importing scipy costs more than a
whole small search; for the few pieces of one shape on a board the
Hungarian algorithm below, in pure Python, is as fast per call and exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def minimum_assignment_cost(costs: Sequence[Sequence[float]]) -> float:
    """The least sum of ``costs[i][assigned[i]]`` over all permutations ``assigned``.

    ``costs`` is a square matrix (n rows of n finite numbers); an empty one
    costs 0. This is the Hungarian algorithm in its shortest-augmenting-path
    form (Kuhn-Munkres with potentials, O(n^3)): rows are added one at a
    time, and each is matched by a Dijkstra-like search over columns with
    reduced costs, which stay non-negative thanks to the potentials. The
    result is exact: with integer costs only integers are added and
    subtracted, so it equals what any other exact method
    (``scipy.optimize.linear_sum_assignment``) finds.
    """
    n = len(costs)
    if n == 0:
        return 0
    if any(len(row) != n for row in costs):
        raise ValueError("the cost matrix must be square")
    if n == 1:
        return costs[0][0]
    if n == 2:
        return min(costs[0][0] + costs[1][1], costs[0][1] + costs[1][0])
    # 1-based columns; column 0 is the virtual start of each augmenting path.
    row_potential = [0] * (n + 1)
    column_potential = [0] * (n + 1)
    row_of_column = [0] * (n + 1)  # the row matched to each column, 0 for none
    for row in range(1, n + 1):
        row_of_column[0] = row
        column = 0
        least = [math.inf] * (n + 1)
        previous = [0] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[column] = True
            current_row = row_of_column[column]
            current_costs = costs[current_row - 1]
            delta, next_column = math.inf, 0
            shift = row_potential[current_row]
            for j in range(1, n + 1):
                if used[j]:
                    continue
                reduced = current_costs[j - 1] - shift - column_potential[j]
                if reduced < least[j]:
                    least[j], previous[j] = reduced, column
                if least[j] < delta:
                    delta, next_column = least[j], j
            for j in range(n + 1):
                if used[j]:
                    row_potential[row_of_column[j]] += delta
                    column_potential[j] -= delta
                else:
                    least[j] -= delta
            column = next_column
            if row_of_column[column] == 0:
                break
        while column:  # flip the augmenting path
            before = previous[column]
            row_of_column[column] = row_of_column[before]
            column = before
    return sum(costs[row_of_column[j] - 1][j - 1] for j in range(1, n + 1))


__all__ = ["minimum_assignment_cost"]
