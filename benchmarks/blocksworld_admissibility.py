"""Blocks World: each heuristic against exact distances over complete small state spaces.

For every state of n blocks on k stacks (n! * C(n+k-1, k-1) states) and a
few random goals, the exact cost to the goal comes from one breadth-first
search back from the goal (moves are reversible). Prints, per heuristic,
the states where h overestimates, the edges where h drops by more than the
move's cost (inconsistency), the mean of h/h* and the share of states with
h = h*.

    .venv/bin/python benchmarks/blocksworld_admissibility.py
    .venv/bin/python benchmarks/blocksworld_admissibility.py --blocks 6 --stacks 3
"""

from __future__ import annotations

import argparse
import itertools
import random
import string
import sys

from heurist.domains.blocksworld import BlocksWorld
from heurist.domains.blocksworld.generate import random_state
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.domains.blocksworld.model import all_states
from heurist.search.space import exact_distances


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, nargs="+", default=[5])
    parser.add_argument("--stacks", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--goals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--heuristics", nargs="+", default=["h1", "prefix", "deadlock", "parking", "h6"])
    args = parser.parse_args()
    print("| blocks | stacks | states | goal | heuristic | overestimates | inconsistent edges | mean h/h* | h = h* | max h* |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for block_count, stack_count in itertools.product(args.blocks, args.stacks):
        blocks = string.ascii_uppercase[:block_count]
        states = list(all_states(blocks, stack_count))
        rng = random.Random(args.seed)
        for _ in range(args.goals):
            goal = random_state(blocks, stack_count, rng)
            problem = BlocksWorld(goal, goal)
            distance = exact_distances(problem)
            assert len(distance) == len(states)
            edges = [(s, child) for s in states for _, child, _ in problem.successors(s)]
            for name in args.heuristics:
                h = HEURISTICS[name]
                value = {s: h(s, problem) for s in states}
                over = sum(value[s] > distance[s] for s in states)
                inconsistent = sum(value[s] > 1 + value[c] for s, c in edges)
                nonzero = [s for s in states if distance[s]]
                ratio = sum(value[s] / distance[s] for s in nonzero) / len(nonzero)
                exact = sum(value[s] == distance[s] for s in nonzero) / len(nonzero)
                print(
                    f"| {block_count} | {stack_count} | {len(states)} | {'/'.join(goal)} | {name} | {over} "
                    f"| {inconsistent} | {ratio:.3f} | {exact:.1%} | {int(max(distance.values()))} |",
                    flush=True,
                )


if __name__ == "__main__":
    sys.exit(main())
