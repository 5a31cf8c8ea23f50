"""Blocks World: how far apart the bounds are on the hard challenge problems (bwchp10-15, 26, 30).

For each problem, in this order:

* h(start) under ``deadlock`` and ``parking``;
* an upper bound: beam search (``--width`` states per depth, ordered by
  deadlock) finds a plan, then windows of the plan are replaced by optimal
  detours (A* between two of its states, at most ``--detour-expansions``);
* a lower bound: A* with ``--heuristic`` under a CPU budget; when it stops,
  the optimum is at least the least f still waiting (with an admissible
  heuristic some state of an optimal plan waits with its optimal g). If A*
  finishes, the optimum is proven.

    .venv/bin/python benchmarks/blocksworld_bounds.py --only 11 --budget 120
    .venv/bin/python benchmarks/blocksworld_bounds.py --only 10 11 12 13 14 15 --no-lower
"""

from __future__ import annotations

import argparse
import heapq
import time
from pathlib import Path

from heurist.domains.blocksworld import BlocksWorld, load_bwp
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.search import Limits, search

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld" / "spring21_bwchp"
GUIDE = HEURISTICS["deadlock"]


def beam_plan(problem: BlocksWorld, width: int) -> list[tuple[str, ...]]:
    """States of a plan found by beam search (each state is kept at its first depth only)."""
    parent = {problem.initial_state: None}
    layer = [problem.initial_state]
    goal = problem.goal_state
    while goal not in parent:
        candidates = []
        for state in layer:
            for _, child, _ in problem.successors(state):
                if child not in parent:
                    parent[child] = state
                    candidates.append((GUIDE(child, problem), len(candidates), child))
        if not candidates:
            raise RuntimeError("beam search ran out of states")
        candidates.sort()
        layer = [child for _, _, child in candidates[:width]]
    states = [goal]
    while parent[states[-1]] is not None:
        states.append(parent[states[-1]])
    return states[::-1]


def shorten(states: list, windows: tuple[int, ...], expansions: int) -> list:
    """Replace stretches of the plan by optimal detours until no window gives a shorter one."""
    for window in windows:
        improved = True
        while improved:
            improved = False
            index = 0
            while index + 2 < len(states):
                end = min(index + window, len(states) - 1)
                detour = search(
                    BlocksWorld(states[index], states[end]),
                    "astar",
                    GUIDE,
                    limits=Limits(max_expansions=expansions),
                )
                if detour.solved and detour.plan_length < end - index:
                    states = states[:index] + list(detour.states) + states[end + 1 :]
                    improved = True
                index += max(1, window // 3)
    return states


def layer_bound(problem: BlocksWorld, heuristic, budget: float) -> tuple[int, bool, int, float]:
    """A* until solved or out of CPU budget: (bound, proven optimal, expansions, CPU s)."""
    started = time.process_time()
    start = problem.initial_state
    h = heuristic(start, problem)
    best = {start: 0}
    frontier = [(h, h, 0, 0, start)]
    counter = expansions = 0
    while frontier:
        f, _, _, g, state = heapq.heappop(frontier)
        if g > best[state]:
            continue
        if state == problem.goal_state:
            return g, True, expansions, time.process_time() - started
        expansions += 1
        if expansions % 2000 == 0 and time.process_time() - started > budget:
            return f, False, expansions, time.process_time() - started  # f: the least f waiting
        for _, child, _ in problem.successors(state):
            if best.get(child, g + 2) > g + 1:
                best[child] = g + 1
                child_h = heuristic(child, problem)
                counter += 1
                heapq.heappush(frontier, (g + 1 + child_h, child_h, counter, g + 1, child))
    raise RuntimeError("goal unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", type=int, nargs="+", default=[10, 11, 12, 13, 14, 15, 26, 30])
    parser.add_argument("--width", type=int, default=3000, help="beam width (default: 3000)")
    parser.add_argument("--detour-expansions", type=int, default=20000)
    parser.add_argument(
        "--heuristic", default="parking", help="for the lower bound (default: parking)"
    )
    parser.add_argument(
        "--budget", type=float, default=120.0, help="CPU s of A* per problem (default: 120)"
    )
    parser.add_argument("--no-lower", action="store_true", help="skip the A* lower bound")
    parser.add_argument("--no-upper", action="store_true", help="skip the beam-search upper bound")
    args = parser.parse_args()
    print(
        "| problem | deadlock h(start) | parking h(start) | upper bound (beam / shortened, CPU s) "
        "| lower bound (A*, expansions, CPU s) |"
    )
    print("|---|---|---|---|---|")
    for number in args.only:
        problem = load_bwp(DATA / f"bwchp{number:02d}.bwp")
        start = problem.initial_state
        upper = lower = "-"
        if not args.no_upper:
            started = time.process_time()
            states = beam_plan(problem, args.width)
            beam_length = len(states) - 1
            states = shorten(states, (8, 12, 16, 20), args.detour_expansions)
            assert states[0] == start and states[-1] == problem.goal_state
            upper = f"{beam_length} / {len(states) - 1} ({time.process_time() - started:.0f})"
        if not args.no_lower:
            bound, proven, expansions, cpu = layer_bound(
                problem, HEURISTICS[args.heuristic], args.budget
            )
            lower = f"{'= ' if proven else '>= '}{bound} ({expansions}, {cpu:.0f})"
        print(
            f"| bwchp{number:02d} | {GUIDE(start, problem)} | {HEURISTICS['parking'](start, problem)} "
            f"| {upper} | {lower} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
