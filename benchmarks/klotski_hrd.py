"""Solve the whole Hua Rong Dao data set with A* and each heuristic; print a Markdown table.

Run by hand (it is a benchmark, not a test):

    .venv/bin/python benchmarks/klotski_hrd.py               # every puzzle, every heuristic
    .venv/bin/python benchmarks/klotski_hrd.py --heuristics pdb manhattan --metric step

Columns: puzzle, heuristic, cost, expansions, search time (the A* loop) and
total time (adds heuristic preparation, e.g. building pattern databases).
Times are CPU seconds, the median of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from heurist.domains.klotski import HEURISTICS, load
from heurist.search import search

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"


def puzzles() -> list[Path]:
    files = [
        p for p in DATA.rglob("*.txt") if "output" not in p.name and "solution" not in p.name
    ]

    def order(path: Path):  # group by variant, layouts in numeric order
        stem = path.stem
        number = int(stem.split("_")[-1]) if stem.split("_")[-1].isdigit() else -1
        return (str(path.parent), number, stem)

    return sorted(files, key=order)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heuristics", nargs="+", default=HEURISTICS.names())
    parser.add_argument("--metric", default="step", choices=["step", "slide", "path"])
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell; the median time is shown")
    parser.add_argument(
        "--symmetry",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="mirror-symmetry reduction, as on the command line (default: on)",
    )
    args = parser.parse_args()

    print("| puzzle | heuristic | cost | expansions | search time (s) | total time (s) |")
    print("|---|---|---:|---:|---:|---:|")
    totals: dict[str, list[float]] = {h: [0, 0.0, 0.0] for h in args.heuristics}
    for path in puzzles():
        name = str(path.relative_to(DATA))
        for heuristic_name in args.heuristics:
            runs = []
            for _ in range(args.repeat):
                problem = load(path, metric=args.metric, symmetry=args.symmetry)
                runs.append(search(problem, "astar", HEURISTICS[heuristic_name]))
            result = runs[0]
            search_time = statistics.median(r.statistics.search_time for r in runs)
            total_time = statistics.median(r.statistics.total_time for r in runs)
            cost = result.cost if result.solved else result.status.value
            print(
                f"| {name} | {heuristic_name} | {cost} | {result.statistics.expansions} "
                f"| {search_time:.3f} | {total_time:.3f} |",
                flush=True,
            )
            totals[heuristic_name][0] += result.statistics.expansions
            totals[heuristic_name][1] += search_time
            totals[heuristic_name][2] += total_time
    print()
    print("| heuristic | total expansions | total search time (s) | total time (s) |")
    print("|---|---:|---:|---:|")
    for heuristic_name, (expansions, search_time, total_time) in totals.items():
        print(f"| {heuristic_name} | {expansions} | {search_time:.2f} | {total_time:.2f} |")


if __name__ == "__main__":
    main()
