"""Every reference command of the Blokus exercise, with each heuristic: expanded nodes, cost, time.

Run by hand: ``.venv/bin/python benchmarks/blokus_reference.py [--time-limit S] [--only TEXT]``.

"expanded" is the course's count (calls to the successor function, summed over
the sub-searches for sub-optimal), from the course's own search as ``heurist
blokus`` runs it (:mod:`heurist.domains.blokus.course_search`); "score" is the number of tiles placed, as
game.py prints it; "setup" is building the board (all placements), "search"
the search itself, both in CPU seconds like heurist's own time limits. The last
table runs the course's own command lines through ``heurist blokus`` in a fresh
process: CPU seconds of that process (start-up included) and wall-clock seconds.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

from heurist.domains.blokus import load_pieces, make_problem
from heurist.domains.blokus.course_search import course_pieces, course_search
from heurist.domains.blokus.heuristics import HEURISTICS
from heurist.domains.blokus.strategies import closest_location_search, mini_contest_search
from heurist.search import Limits
from heurist.search.limits import clock

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "blokus"
HEURISTIC_NAMES = ["null", "cover", "reach"]  # "corners" is another name of "cover"

# (label, pieces, puzzle, size, start, targets, algorithm, legacy, heuristics)
COMMANDS = [
    ("1 fill 4x7 dfs", "tiny_set.txt", "fill", (4, 7), (0, 0), (), "dfs", False, ["null"]),
    ("2 fill 4x7 bfs", "tiny_set.txt", "fill", (4, 7), (0, 0), (), "bfs", False, ["null"]),
    ("3 corners 6x6 bfs", "tiny_set_2.txt", "corners", (6, 6), (0, 0), (), "bfs", False, ["null"]),
    ("4 corners 6x6 ucs", "tiny_set_2.txt", "corners", (6, 6), (0, 0), (), "ucs", False, ["null"]),
    ("5 corners 5x5 small ucs", "small_set.txt", "corners", (5, 5), (0, 0), (), "ucs", False, ["null"]),
    ("5 corners 5x5 small astar", "small_set.txt", "corners", (5, 5), (0, 0), (), "astar", False, HEURISTIC_NAMES),
    ("6/7b corners 6x6 astar", "tiny_set_2.txt", "corners", (6, 6), (0, 0), (), "astar", False, HEURISTIC_NAMES),
    ("7 corners 8x8 astar", "tiny_set_2.txt", "corners", (8, 8), (0, 0), (), "astar", False, HEURISTIC_NAMES),
    (
        "8 cover 6x6 astar", "small_set.txt", "cover", (6, 6), (3, 3), ((2, 2), (5, 5), (1, 4)),
        "astar", False, HEURISTIC_NAMES,
    ),
    (
        "8 cover 6x6 astar legacy", "small_set.txt", "cover", (6, 6), (3, 3), ((2, 2), (5, 5), (1, 4)),
        "astar", True, HEURISTIC_NAMES,
    ),
    (
        "9 cover 10x10 astar", "small_set.txt", "cover", (10, 10), (3, 3), ((2, 2), (5, 5), (6, 7)),
        "astar", False, HEURISTIC_NAMES,
    ),
    (
        "S1 cover 8x8 astar", "small_set.txt", "cover", (8, 8), (3, 3), ((2, 2), (5, 5), (6, 7)),
        "astar", False, HEURISTIC_NAMES,
    ),
    (
        "10 optimal cover", "valid_pieces.txt", "cover", (10, 10), (7, 7), ((5, 5), (8, 8), (4, 9)),
        "astar", False, HEURISTIC_NAMES,
    ),
    (
        "11 optimal cover", "valid_pieces.txt", "cover", (10, 10), (5, 5), ((3, 4), (6, 6), (7, 5)),
        "astar", False, HEURISTIC_NAMES,
    ),
    ("10 sub-optimal", "valid_pieces.txt", "sub-optimal", (10, 10), (7, 7), ((5, 5), (8, 8), (4, 9)), "", False, ["-"]),
    ("11 sub-optimal", "valid_pieces.txt", "sub-optimal", (10, 10), (5, 5), ((3, 4), (6, 6), (7, 5)), "", False, ["-"]),
    (
        "12 mini-contest", "valid_pieces.txt", "mini-contest", (15, 15), (0, 0),
        ((0, 1), (0, 9), (5, 5), (8, 8), (4, 9), (9, 2)), "", False, ["-"],
    ),
]

COURSE_LINES = [
    '-p small_set.txt -f astar -s 10 10 -H blokus_cover_heuristic -z cover -x 3 3 "[(2,2), (5, 5), (6, 7)]"',
    '-p small_set.txt -f astar -s 10 10 -H reach -z cover -x 3 3 "[(2,2), (5, 5), (6, 7)]"',
    "-p tiny_set_2.txt -f astar -s 8 8 -z corners -H reach",
    '-p valid_pieces.txt -s 10 10 -z sub-optimal -x 7 7 "[(5,5), (8,8), (4,9)]"',
    '-p valid_pieces.txt -s 10 10 -z sub-optimal -x 5 5 "[(3,4), (6,6), (7,5)]"',
    '-p valid_pieces.txt -s 15 15 -z mini-contest "[(0,1),(0,9),(5,5), (8,8), (4,9),(9,2)]"',
]


def run_one(command, heuristic: str, time_limit: float) -> dict:
    label, pieces, puzzle, size, start, targets, algorithm, legacy, _ = command
    started = clock()
    piece_set = load_pieces(DATA / pieces)
    if puzzle in ("fill", "corners", "cover"):
        piece_set = course_pieces(piece_set)
    problem = make_problem(puzzle, piece_set, size, start, targets, legacy=legacy)
    setup = clock() - started
    limits = Limits(time_limit=time_limit)
    note = ""
    if puzzle == "sub-optimal":
        outcome = closest_location_search(problem, limits)
        result, expanded = outcome.result, outcome.expanded
    elif puzzle == "mini-contest":
        outcome = mini_contest_search(problem, budget=30.0)
        result, expanded = outcome.result, outcome.expanded
        note = "proven optimal" if outcome.proven_optimal else outcome.note
    else:
        result = course_search(problem, algorithm, HEURISTICS[heuristic], limits=limits)
        expanded = problem.expanded
    elapsed = clock() - started - setup
    return {
        "command": label,
        "h": heuristic,
        "status": result.status.value,
        "score": problem.score(result.states[-1]) if result.solved else "-",
        "expanded": expanded,
        "generated": result.statistics.generated,
        "setup": setup,
        "search": elapsed,
        "note": note,
    }


def course_line_timing(line: str) -> tuple[str, float, float]:
    """The command's output, its CPU seconds (user + system) and its wall-clock seconds."""
    heurist = Path(sys.executable).with_name("heurist")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    output = subprocess.run(
        [str(heurist), "blokus", "-q", *shlex.split(line)], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return output.stdout.strip() or output.stderr.strip(), cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="CPU seconds per search (default: 60)")
    parser.add_argument("--only", help="run only commands whose label contains this text")
    args = parser.parse_args()
    print(f"{'command':<27} {'h':<6} {'status':<14} {'score':>5} {'expanded':>9} {'generated':>10} "
          f"{'setup':>7} {'search':>8}")
    for command in COMMANDS:
        if args.only and args.only not in command[0]:
            continue
        for heuristic in command[-1]:
            row = run_one(command, heuristic, args.time_limit)
            print(
                f"{row['command']:<27} {row['h']:<6} {row['status']:<14} {row['score']!s:>5} "
                f"{row['expanded']:>9} {row['generated']:>10} {row['setup']:>6.2f}s {row['search']:>7.2f}s"
                + (f"  {row['note']}" if row["note"] else ""),
                flush=True,
            )
    if args.only:
        return
    print("\ncourse command lines through 'heurist blokus' (a fresh process, start-up included):")
    for line in COURSE_LINES:
        output, cpu, wall = course_line_timing(line)
        print(f"{cpu:6.2f}s CPU {wall:6.2f}s wall  {output.splitlines()[-1]}  <- {line}", flush=True)


if __name__ == "__main__":
    main()
