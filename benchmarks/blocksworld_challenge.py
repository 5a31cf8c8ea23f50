"""Blocks World: the Spring 2021 challenge set (bwchp01-45), each under a time limit.

Each problem runs in a fresh worker process (so one problem's memory is
returned before the next starts) with A* and a limit of 60 CPU seconds by
default: the engine's time limits and times are CPU seconds, so waiting for a
busy processor does not count. A plan found by A* with an admissible
heuristic is optimal, so "solved" here means "solved optimally"; ``--algo
wastar`` or ``greedy`` trade that for speed. Prints one row per problem as
it finishes, then the count.

    .venv/bin/python benchmarks/blocksworld_challenge.py                   # all 45, 60 CPU s each
    .venv/bin/python benchmarks/blocksworld_challenge.py --only 11 26 42 --time-limit 10
    .venv/bin/python benchmarks/blocksworld_challenge.py --only 11 12 13 14 15 --algo wastar --weight 2.5 --time-limit 10   # not optimal
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld" / "spring21_bwchp"

KNOWN_OPTIMUM = {
    1: 9, 2: 7, 3: 8, 4: 8, 5: 8, 6: 19, 7: 22, 8: 15, 9: 22, 16: 4, 17: 5, 18: 4, 19: 7, 20: 6,
    21: 10, 22: 14, 23: 15, 24: 12, 25: 13, 31: 4, 32: 4, 33: 4, 34: 6, 35: 5, 36: 11, 37: 11,
    38: 12, 39: 13, 40: 11, 41: 23,
}
"""Optima found earlier by an independent A* (shared/spec/blocksworld.md §5); the rest were unknown."""


def solve_one(job: tuple[int, str, str, float, float, float]) -> dict:
    number, algorithm, heuristic_name, weight, time_limit, memory_limit = job
    from heurist.domains.blocksworld import load_bwp
    from heurist.domains.blocksworld.heuristics import HEURISTICS
    from heurist.search import Limits, search

    problem = load_bwp(DATA / f"bwchp{number:02d}.bwp")
    result = search(
        problem,
        algorithm,
        HEURISTICS[heuristic_name],
        weight=weight,
        limits=Limits(time_limit=time_limit, memory_limit=memory_limit),
    )
    if result.solved:
        assert problem.replay(result.actions) == problem.goal_state
    stats = result.statistics
    return {
        "number": number,
        "shape": f"{problem.stack_count}/{len(problem.blocks)}",
        "length": result.plan_length,
        "limit": result.limit,
        "h0": stats.initial_h_value,
        "iterations": stats.expansions,
        "max_queue": stats.max_frontier,
        "time": result.statistics.total_time,
        "memory_mib": stats.memory // 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heuristic", default="deadlock")
    parser.add_argument(
        "--algo", default="astar", choices=["astar", "wastar", "greedy"], help="default: astar (optimal)"
    )
    parser.add_argument("--weight", type=float, default=2.0, help="weight for wastar (default: 2)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="CPU seconds per problem (default: 60)")
    parser.add_argument("--memory-limit", type=float, default=3000.0, help="MiB per problem (default: 3000)")
    parser.add_argument("--only", type=int, nargs="+", metavar="N", help="problem numbers (default: 1-45)")
    args = parser.parse_args()
    numbers = args.only or list(range(1, 46))
    optimal = args.algo == "astar"
    algorithm = {"astar": "A*", "wastar": f"weighted A* (w={args.weight:g})", "greedy": "greedy"}[args.algo]
    print(
        f"python {platform.python_version()}, {algorithm} with {args.heuristic}, "
        f"{args.time_limit:g} CPU s and {args.memory_limit:g} MiB per problem"
    )
    print("\n| problem | stacks/blocks | known optimum | solution length | h(start) | iterations | max queue size | CPU time (s) | peak memory (MiB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    jobs = [(n, args.algo, args.heuristic, args.weight, args.time_limit, args.memory_limit) for n in numbers]
    solved = 0
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes=1, maxtasksperchild=1) as pool:
        for row in pool.imap(solve_one, jobs):
            known = KNOWN_OPTIMUM.get(row["number"], "?")
            if row["length"] is None:
                length = f"not solved ({row['limit']} limit)"
            else:
                solved += 1
                length = str(row["length"])
                if known != "?" and row["length"] != known:
                    length += f" (+{row['length'] - known})" if not optimal else f" (expected {known})"
            print(
                f"| bwchp{row['number']:02d} | {row['shape']} | {known} | {length} | {row['h0']} "
                f"| {row['iterations']} | {row['max_queue']} | {row['time']:.2f} | {row['memory_mib']} |",
                flush=True,
            )
    print(f"\nsolved{' optimally' if optimal else ''}: {solved} of {len(numbers)}")


if __name__ == "__main__":
    sys.exit(main())
