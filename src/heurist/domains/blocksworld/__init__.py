"""Blocks World with a fixed number of labelled stacks (the TAMU CSCE 420 ``.bwp`` problems).

Stacks of lettered blocks stand on a fixed number of stack positions; a move
takes the top block of one stack and puts it on any other stack, at cost 1.
The goal fixes every stack, empty ones included.

* :mod:`.model` -- :class:`BlocksWorldProblem`, moves and states;
* :mod:`.formats` -- ``.bwp`` files and the course program's trace, each reader beside its writer;
* :mod:`.heuristics` -- the registered heuristics (the course's H0-H6 among them);
* :mod:`.bounds` -- the ``parking`` lower bound for few stacks;
* :mod:`.fvs` -- exact minimum feedback vertex sets, shared by ``deadlock`` and ``parking``;
* :mod:`.generate` -- random instances;
* :mod:`.drawing` -- stacks as scenes and terminal colours;
* :mod:`.pddl` -- the labelled-stacks PDDL export for planners.

From Python::

    >>> import heurist
    >>> from heurist.search import search
    >>> problem = heurist.load("blocksworld", "data/blocksworld/probB11.bwp")
    >>> problem
    BlocksWorldProblem('probB11.bwp', stacks=5, blocks='ABCDEFGHIJ')
    >>> result = search(problem)  # A* with the default heuristic
    >>> result
    <SearchResult astar: solved, cost 9, 9 moves, 10 expansions>
    >>> problem.domain.format_action(problem, result.actions[0])
    'I from stack 3 to stack 0'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from heurist.domains import Domain, Option, SolutionFormat
from heurist.domains.blocksworld import bounds as _bounds  # noqa: F401  (registers "parking")
from heurist.domains.blocksworld import drawing
from heurist.domains.blocksworld.formats import (
    SOLUTION_FORMAT,
    load_bwp,
    parse_bwp,
    parse_numbered_stacks,
    problem_to_bwp,
    read_solution,
    write_course_solution,
)
from heurist.domains.blocksworld.generate import MAX_BLOCKS, MIN_STACKS, random_instances
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.domains.blocksworld.model import (
    BlocksWorld,
    BlocksWorldProblem,
    Move,
    State,
    format_numbered_stacks,
)
from heurist.domains.suites import file_suite
from heurist.errors import InputError
from heurist.scene import Scene

DEFAULT_HEURISTIC = "deadlock"


class BlocksWorldDomain(Domain[BlocksWorldProblem, State, Move]):
    name = "blocksworld"
    summary = "Blocks World on a fixed number of labelled stacks (.bwp files)"
    heuristics = HEURISTICS
    default_heuristic = DEFAULT_HEURISTIC
    suites = (
        file_suite("bw-tamu", "blocksworld", "Texas A&M CSCE 420 problems probA03-A11, probB03-B20",
                   "blocksworld", "prob*.bwp"),
        file_suite("bw-testcases", "blocksworld", "Spring 2021 course test cases",
                   "blocksworld/spring21_testcases", "*.bwp"),
        file_suite("bw-challenge", "blocksworld", "Spring 2021 challenge problems bwchp01-45",
                   "blocksworld/spring21_bwchp", "*.bwp"),
    )
    generate_options = (
        Option("stacks", f"number of stacks, at least {MIN_STACKS} (default: 5)", type=int, default=5,
               minimum=MIN_STACKS, maximum=100),
        Option("blocks", f"number of blocks, 1 to {MAX_BLOCKS} (default: 10)", type=int, default=10,
               minimum=1, maximum=MAX_BLOCKS),
    )
    small_instances = {"stacks": 3, "blocks": 5}
    course_formats = (
        SolutionFormat("trace", SOLUTION_FORMAT, write=write_course_solution, read=read_solution),
    )
    legend = tuple(drawing.LEGEND)
    examples = {
        "solve": [
            "heurist solve blocksworld data/blocksworld/probB20.bwp",
            "heurist solve blocksworld data/blocksworld/probA11.bwp --heuristic prefix --algo idastar",
            "heurist blocksworld data/blocksworld/probB16.bwp -H H6 -MAX_ITERS 100000",
        ],
        "validate": [
            "heurist blocksworld data/blocksworld/probB11.bwp > trace.txt && "
            "heurist validate blocksworld data/blocksworld/probB11.bwp trace.txt",
            "heurist solve blocksworld data/blocksworld/probB11.bwp > plan.txt && "
            "heurist validate blocksworld data/blocksworld/probB11.bwp plan.txt",
        ],
        "render": [
            "heurist render blocksworld data/blocksworld/probA06.bwp --out problem.svg",
            "heurist render blocksworld data/blocksworld/probB10.bwp --solve --out replay.html",
            "heurist blocksworld data/blocksworld/probA06.bwp > trace.txt && "
            "heurist render blocksworld data/blocksworld/probA06.bwp --plan trace.txt --out trace.gif",
        ],
        "check": [
            "heurist check blocksworld data/blocksworld/probA*.bwp -H h6",
            'heurist check blocksworld --generated 10 --generate-options "--stacks 4 --blocks 5" -H deadlock',
        ],
        "generate": ["heurist generate blocksworld --stacks 5 --blocks 10 --seed 1 --count 20 --out random/"],
    }

    def load(self, path: str | Path, **options: Any) -> BlocksWorldProblem:
        """A ``.bwp`` file (no options)."""
        self.check_options(options, str(path))
        return load_bwp(path)

    def parse(self, text: str, source: str = "<bwp>", **options: Any) -> BlocksWorldProblem:
        self.check_options(options, source)
        return parse_bwp(text, source)

    pddl_file_suffixes = (".bwp",)

    def export_pddl(self, path: str | Path) -> dict[str, str]:
        """The ``.bwp`` file as the labelled-stacks PDDL domain and its problem (:mod:`.pddl`)."""
        from heurist.domains.blocksworld.pddl import (
            export_pddl,  # here: only export and bench need it
        )

        return export_pddl(path)

    def write_instance(self, problem: BlocksWorldProblem) -> str:
        return problem_to_bwp(problem)

    def generate(self, *, seed: int = 0, count: int = 1, **options: Any) -> list[tuple[str, str]]:
        values = self.check_generate_options(options)
        if values["stacks"] < MIN_STACKS:
            raise InputError(
                f"must be at least {MIN_STACKS}: with fewer stacks most random goals are unreachable", "--stacks"
            )
        if not 1 <= values["blocks"] <= MAX_BLOCKS:
            raise InputError(f"must be between 1 and {MAX_BLOCKS} (blocks are the letters A-Z)", "--blocks")
        return random_instances(values["stacks"], values["blocks"], seed, count)

    def format_state(self, problem: BlocksWorldProblem, state: State) -> str:
        return format_numbered_stacks(state)

    def parse_state(self, problem: BlocksWorldProblem, lines: Sequence[str], source: str, line: int) -> State:
        return parse_numbered_stacks(lines, problem, source, line)

    def format_action(self, problem: BlocksWorldProblem, action: Move) -> str:
        return str(action)

    def draw(self, problem: BlocksWorldProblem, states: Sequence[State], index: int = -1, *,
             flip: bool = False) -> Scene:
        return drawing.draw(problem, states, index % len(states), flip)

    def terminal_style(self, problem: BlocksWorldProblem, state: State) -> Callable[[int, int, str], str | None]:
        return drawing.terminal_style(problem, state)


DOMAIN = BlocksWorldDomain()

load = DOMAIN.load
"""Read a ``.bwp`` file as a problem."""

__all__ = [
    "DEFAULT_HEURISTIC",
    "DOMAIN",
    "HEURISTICS",
    "BlocksWorld",
    "BlocksWorldDomain",
    "BlocksWorldProblem",
    "Move",
    "State",
    "load",
    "load_bwp",
    "parse_bwp",
    "problem_to_bwp",
]
