"""Random Blocks World instances: start and goal drawn uniformly from all states.

A state of n labelled blocks on k labelled stacks is an order of the blocks
(read stack by stack, bottom to top) plus the heights of the k stacks, a weak
composition of n into k parts. There are n! * C(n+k-1, k-1) states, and every
(order, composition) pair gives a different one, so drawing a uniform
permutation and an independent uniform composition (stars and bars) gives a
uniform state. Dropping each block on a random stack would not.

With k >= 3 stacks every state can reach every other (blocks can always be
sorted through a third stack); with k = 2 only n + 1 states are reachable
from any start, so random goals are almost never reachable and k < 3 is refused.
"""

from __future__ import annotations

import random
import string

from heurist.domains.blocksworld.formats import format_bwp
from heurist.domains.blocksworld.model import State, split_into_stacks

MIN_STACKS = 3
MAX_BLOCKS = len(string.ascii_uppercase)


def random_state(blocks: str, stack_count: int, rng: random.Random) -> State:
    """A state drawn uniformly from all placements of ``blocks`` on ``stack_count`` stacks."""
    order = list(blocks)
    rng.shuffle(order)
    places = len(blocks) + stack_count - 1
    bars = sorted(rng.sample(range(places), stack_count - 1))
    return split_into_stacks(order, bars, places)


def random_instances(
    stack_count: int, block_count: int, seed: int, count: int
) -> list[tuple[str, str]]:
    """``count`` instances as (file name, ``.bwp`` text); the same arguments give the same files."""
    if stack_count < MIN_STACKS:
        raise ValueError(
            f"at least {MIN_STACKS} stacks are needed: with {stack_count}, most random goals are unreachable"
        )
    if not 1 <= block_count <= MAX_BLOCKS:
        raise ValueError(f"the number of blocks must be between 1 and {MAX_BLOCKS} (letters A-Z)")
    rng = random.Random(seed)
    blocks = string.ascii_uppercase[:block_count]
    instances = []
    for index in range(count):
        start = random_state(blocks, stack_count, rng)
        goal = random_state(blocks, stack_count, rng)
        name = f"bw-s{stack_count}-b{block_count}-seed{seed}-{index + 1:03d}.bwp"
        instances.append((name, format_bwp(start, goal)))
    return instances
