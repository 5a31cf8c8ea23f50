"""Blocks World: the 27 course problems (probA03-A11, probB03-B20) under each heuristic.

Prints, per heuristic, the table layout of the course write-ups (problem,
solution length, iterations, max queue size, time) with the optimal length
beside it, and totals. Iterations and max queue size are counted as the
course counts them (``heurist blocksworld`` prints the same numbers): nodes
popped and goal-tested, and the largest frontier. Every run is capped at
MAX_ITERS iterations, 100,000 by default as in the assignment. Times are the
engine's CPU seconds.

    .venv/bin/python benchmarks/blocksworld_course.py
    .venv/bin/python benchmarks/blocksworld_course.py --heuristics deadlock prefix --max-iters 1000000
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

from heurist.domains.blocksworld import load_bwp
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.search import Limits, search

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld"
PROBLEMS = [f"probA{n:02d}" for n in range(3, 12)] + [f"probB{n:02d}" for n in range(3, 21)]
OPTIMAL = dict(
    zip(PROBLEMS, [*range(3, 12), 3, 4, 5, 6, 7, 8, 8, 9, 9, 9, 13, 13, 14, 15, 16, 12, 14, 15])
)
HARD = [f"probB{n}" for n in range(13, 21)]


def run_heuristic(name: str, max_iters: int) -> None:
    heuristic = HEURISTICS[name]
    print(f"\n### {name}\n")
    print("| set | problem | optimal | solution length | iterations | max queue size | CPU time (s) |")
    print("|---|---|---|---|---|---|---|")
    totals = {"iterations": 0, "hard": 0, "optimal": 0, "solved": 0, "excess": 0, "time": 0.0, "worst_b": 0.0}
    for problem_name in PROBLEMS:
        problem = load_bwp(DATA / f"{problem_name}.bwp")
        result = search(problem, "astar", heuristic, limits=Limits(max_expansions=max_iters))
        elapsed = result.statistics.total_time
        stats = result.statistics
        optimal = OPTIMAL[problem_name]
        if result.solved:
            length = str(result.plan_length)
            totals["solved"] += 1
            totals["optimal"] += result.plan_length == optimal
            totals["excess"] += result.plan_length - optimal
            if result.plan_length != optimal:
                length += f" (+{result.plan_length - optimal})"
        else:
            length = "FAILED"
        totals["iterations"] += stats.expansions
        totals["time"] += elapsed
        if problem_name in HARD:
            totals["hard"] += stats.expansions
        if problem_name.startswith("probB"):
            totals["worst_b"] = max(totals["worst_b"], elapsed)
        print(
            f"| {problem_name[4]} | {problem_name[5:]} | {optimal} | {length} | {stats.expansions} "
            f"| {stats.max_frontier} | {elapsed:.3f} |",
            flush=True,
        )
    print(
        f"\n{name}: solved {totals['solved']}/27, optimal {totals['optimal']}/27, "
        f"excess moves {totals['excess']}, iterations {totals['iterations']} "
        f"(probB13-B20: {totals['hard']}), slowest probB {totals['worst_b']:.3f} s, "
        f"total time {totals['time']:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--heuristics", nargs="+", default=["deadlock", "prefix", "h1", "h6", "h0"], choices=HEURISTICS.names()
    )
    parser.add_argument("--max-iters", type=int, default=100_000)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, A*, MAX_ITERS {args.max_iters}")
    for name in args.heuristics:
        run_heuristic(name, args.max_iters)


if __name__ == "__main__":
    sys.exit(main())
