"""The 15x15 mini-contest of the Blokus exercise, phase by phase: expansions, states generated, CPU seconds.

Run by hand: ``.venv/bin/python benchmarks/blokus_mini_contest.py [--runs N] [--profile]``.

Each run builds the problem afresh (as ``heurist blokus`` does) and calls
:func:`heurist.domains.blokus.strategies.mini_contest_search` with a budget large
enough for every phase to finish, so the counts do not depend on the
machine. Times are CPU seconds of this process: "setup" builds the board,
"search" is the whole strategy, and each phase line gives the engine's own
search time. With several runs the median and the spread are printed (the
machine may be shared). ``--profile`` prints the 25 functions with the most
time of their own, from cProfile, for one more run.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
from pathlib import Path

from heurist.domains.blokus import load_pieces, make_problem
from heurist.domains.blokus.strategies import mini_contest_search
from heurist.search.limits import clock

DATA = Path(__file__).resolve().parents[1] / "data" / "blokus"
TARGETS = ((0, 1), (0, 9), (5, 5), (8, 8), (4, 9), (9, 2))


def run_once() -> tuple[float, float, object]:
    started = clock()
    problem = make_problem("mini-contest", load_pieces(DATA / "valid_pieces.txt"), (15, 15), (0, 0), TARGETS)
    setup = clock() - started
    outcome = mini_contest_search(problem, budget=600.0)
    return setup, clock() - started - setup, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs to time (default: 3)")
    parser.add_argument("--profile", action="store_true", help="profile one more run with cProfile")
    args = parser.parse_args()
    searches = []
    for number in range(args.runs):
        setup, search, outcome = run_once()
        searches.append(search)
        proven = "proven optimal" if outcome.proven_optimal else "not proven optimal"
        print(f"run {number + 1}: setup {setup:.2f}s, search {search:.2f}s: expanded {outcome.expanded}, "
              f"cost {outcome.result.cost}, {proven}", flush=True)
    for part in outcome.searches:
        stats = part.statistics
        print(f"  {part.algorithm:<7} expansions {stats.expansions:>6} generated {stats.generated:>7} "
              f"{stats.search_time:7.2f}s")
    if len(searches) > 1:
        print(f"search: median {statistics.median(searches):.2f}s, {min(searches):.2f}-{max(searches):.2f}s "
              f"over {len(searches)} runs")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run_once)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
