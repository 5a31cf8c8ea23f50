"""Exact goal distances: states per second of the numpy layers against plain Python.

For each puzzle, builds the start's whole component with its edges and the
exact goal distance of every state, with the numpy layer-at-a-time builder
(``heurist.analysis.klotski``) and with the plain-Python builder
(``heurist.search.space.explore``), and then runs the complete check of
Manhattan distance (evaluate h on every state, every test on every edge).
Each figure is the best of ``--repeat`` runs, wall-clock, so that other
work on a shared machine disturbs it less.

    .venv/bin/python benchmarks/exact_distances.py
    .venv/bin/python benchmarks/exact_distances.py --repeat 1 --no-python
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from heurist.analysis.checks import run_checks
from heurist.domains.klotski import HEURISTICS, load
from heurist.domains.klotski.space import NUMPY_METRICS, klotski_numpy_space
from heurist.search.space import build_state_space

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"
PUZZLES = [
    ("classic (V2 hard1)", "w23_s24_char/testhrd_hard1.txt", "step"),
    ("V3 hard1", "f24_w25_goal/hard1.txt", "step"),
    ("V3 hard2 (6 rows)", "f24_w25_goal/hard2.txt", "step"),
    ("V3 med1T (unsolvable)", "f24_w25_goal/med1T.txt", "step"),
    ("classic", "w23_s24_char/testhrd_hard1.txt", "slide"),
    ("V3 hard2 (6 rows)", "f24_w25_goal/hard2.txt", "slide"),
    ("classic", "w23_s24_char/testhrd_hard1.txt", "path"),
    ("V3 hard2 (6 rows)", "f24_w25_goal/hard2.txt", "path"),
]


def best_of(repeat: int, function, *arguments, **options):
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function(*arguments, **options)
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept (default: 3)")
    parser.add_argument("--no-python", action="store_true", help="skip the plain-Python builder")
    args = parser.parse_args()
    print("| puzzle | metric | states | edges | h*(start) | numpy: s | numpy: states/s "
          "| Python: s | Python: states/s | check of manhattan: s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, name, metric in PUZZLES:
        problem = load(DATA / name, symmetry=False).with_metric(metric)
        numpy_cell = numpy_rate = "-"
        space = None
        if metric in NUMPY_METRICS:
            seconds, space = best_of(args.repeat, build_state_space, problem, builder=klotski_numpy_space)
            numpy_cell, numpy_rate = f"{seconds:.2f}", f"{space.size / seconds:,.0f}"
        python_cell = python_rate = "-"
        if not args.no_python or space is None:
            seconds, python_space = best_of(args.repeat, build_state_space, problem)
            python_cell, python_rate = f"{seconds:.2f}", f"{python_space.size / seconds:,.0f}"
            if space is not None:
                assert dict(zip(space.states, space.distance.tolist())) == dict(
                    zip(python_space.states, python_space.distance.tolist())
                ), "the two builders disagree"
            space = space or python_space
        check_seconds, _ = best_of(args.repeat, run_checks, space, HEURISTICS["manhattan"], "manhattan")
        start = space.initial_distance
        print(
            f"| {label} | {metric} | {space.size:,} | {space.edge_count:,} | {start:g} | {numpy_cell} | {numpy_rate} "
            f"| {python_cell} | {python_rate} | {check_seconds:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
