"""PDDL export: Blocks World with labelled stacks, solvable by Fast Downward and pyperplan.

The domain is STRIPS with typing only (no equality, no negative
preconditions, unit costs), so pyperplan accepts it too. Each stack position
is a ``slot`` object; ``on`` relates a block to the block or slot it rests
on; ``clear`` holds for the top block of each stack and for every empty
slot. One action is one block move, so plan lengths equal the moves counted
by ``heurist solve blocksworld``. A static ``diff`` fact per pair of distinct
blocks keeps a block from being stacked on itself (``?to = ?b`` would
otherwise satisfy ``clear``). Moving a block to the stack it is on is
impossible: its support is not clear while it sits there.

Blocks are named by their lowercase letter and slots ``s0``, ``s1``, ...
(stack numbers as in the ``.bwp`` file). The goal lists every ``on`` fact of
the goal state, which fixes each stack, empty ones included.
"""

from __future__ import annotations

from pathlib import Path

from heurist.domains.blocksworld.formats import load_bwp
from heurist.domains.blocksworld.model import BlocksWorld, State

DOMAIN_NAME = "bw-fixed-stacks"

DOMAIN_PDDL = f"""\
;; Blocks World on a fixed number of labelled stacks: one action moves one block, cost 1.
(define (domain {DOMAIN_NAME})
  (:requirements :strips :typing)
  (:types loc - object
          block slot - loc)
  (:predicates (on ?b - block ?x - loc)
               (clear ?x - loc)
               (diff ?x - block ?y - block))
  (:action move-to-slot
    :parameters (?b - block ?from - loc ?to - slot)
    :precondition (and (on ?b ?from) (clear ?b) (clear ?to))
    :effect (and (on ?b ?to) (clear ?from) (not (on ?b ?from)) (not (clear ?to))))
  (:action move-to-block
    :parameters (?b - block ?from - loc ?to - block)
    :precondition (and (on ?b ?from) (clear ?b) (clear ?to) (diff ?b ?to))
    :effect (and (on ?b ?to) (clear ?from) (not (on ?b ?from)) (not (clear ?to)))))
"""


def block_object(block: str) -> str:
    return block.lower()


def slot_object(stack: int) -> str:
    return f"s{stack}"


def _on_facts(state: State) -> list[str]:
    facts = []
    for stack, tower in enumerate(state):
        support = slot_object(stack)
        for block in tower:
            facts.append(f"(on {block_object(block)} {support})")
            support = block_object(block)
    return facts


def _clear_facts(state: State) -> list[str]:
    return [
        f"(clear {block_object(tower[-1]) if tower else slot_object(stack)})"
        for stack, tower in enumerate(state)
    ]


def problem_pddl(problem: BlocksWorld, name: str | None = None) -> str:
    """The PDDL problem for ``problem`` (to be used with :data:`DOMAIN_PDDL`)."""
    name = name or Path(problem.name).stem or "blocksworld"
    task_name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)
    if not task_name[0].isalpha():
        task_name = f"bw-{task_name}"
    blocks = [block_object(block) for block in problem.blocks]
    slots = [slot_object(stack) for stack in range(problem.stack_count)]
    diff = [f"(diff {a} {b})" for a in blocks for b in blocks if a != b]
    init = _on_facts(problem.initial_state) + _clear_facts(problem.initial_state) + diff
    goal = _on_facts(problem.goal_state)
    indent = "\n    "
    return (
        f"(define (problem {task_name})\n"
        f"  (:domain {DOMAIN_NAME})\n"
        f"  (:objects {' '.join(blocks)} - block\n"
        f"            {' '.join(slots)} - slot)\n"
        f"  (:init{indent}{indent.join(init)})\n"
        f"  (:goal (and{indent}{indent.join(goal)})))\n"
    )


def export_pddl(path: str | Path) -> dict[str, str]:
    """Read a ``.bwp`` file; return ``{file name: text}`` for the domain and the problem."""
    problem = load_bwp(path)
    stem = Path(path).stem
    return {"domain.pddl": DOMAIN_PDDL, f"{stem}.pddl": problem_pddl(problem, stem)}
