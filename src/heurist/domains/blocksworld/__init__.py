"""Blocks World with a fixed number of labelled stacks (the TAMU CSCE 420 ``.bwp`` problems).

Stacks of lettered blocks stand on a fixed number of stack positions; a move
takes the top block of one stack and puts it on any other stack, at cost 1.
The goal fixes every stack, empty ones included.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from heurist.domains import Domain
from heurist.domains.blocksworld.formats import (
    SOLUTION_FORMAT,
    load_bwp,
    parse_bwp,
    problem_to_bwp,
    read_solution,
)
from heurist.domains.blocksworld.generate import MIN_STACKS, random_instances
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.domains.blocksworld.model import BlocksWorld, Move, State, format_numbered_stacks
from heurist.errors import InputError

DEFAULT_HEURISTIC = "deadlock"


def _load(path: Path, options: argparse.Namespace) -> BlocksWorld:
    return load_bwp(path)


def _format_state(problem: BlocksWorld, state: State) -> str:
    return format_numbered_stacks(state)


def _format_action(problem: BlocksWorld, move: Move) -> str:
    return str(move)


def _add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stacks", type=int, default=5, help=f"number of stacks, at least {MIN_STACKS} (default: 5)")
    parser.add_argument("--blocks", type=int, default=10, help="number of blocks, 1 to 26 (default: 10)")


def _generate(options: argparse.Namespace) -> list[tuple[str, str]]:
    if options.stacks < MIN_STACKS:
        raise InputError(
            f"must be at least {MIN_STACKS}: with fewer stacks most random goals are unreachable",
            "--stacks",
        )
    if not 1 <= options.blocks <= 26:
        raise InputError("must be between 1 and 26 (blocks are the letters A-Z)", "--blocks")
    return random_instances(options.stacks, options.blocks, options.seed, options.count)


DOMAIN = Domain(
    name="blocksworld",
    summary="Blocks World on a fixed number of labelled stacks (.bwp files)",
    heuristics=HEURISTICS,
    default_heuristic=DEFAULT_HEURISTIC,
    load=_load,
    format_state=_format_state,
    format_action=_format_action,
    add_generate_arguments=_add_generate_arguments,
    generate=_generate,
    read_solution=read_solution,
    small_generate_options=("--stacks", "3", "--blocks", "5"),
    solution_format=SOLUTION_FORMAT,
    examples=[
        "heurist solve blocksworld data/blocksworld/probB20.bwp",
        "heurist solve blocksworld data/blocksworld/probA11.bwp --heuristic prefix --algo idastar",
        "heurist blocksworld data/blocksworld/probB16.bwp -H H6 -MAX_ITERS 100000",
        "heurist generate blocksworld --stacks 5 --blocks 10 --seed 1 --count 20 --out random/",
    ],
)

__all__ = ["DOMAIN", "BlocksWorld", "Move", "State", "load_bwp", "parse_bwp", "problem_to_bwp"]
