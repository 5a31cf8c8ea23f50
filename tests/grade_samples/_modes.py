"""What the sample solvers do besides solving: each MODE is one kind of student program.

Every sample takes MODE first, then its course's own arguments:

  optimal      an optimal plan (heurist's A*)
  notoptimal   an optimal plan with a detour: legal, costlier
  illegal      an optimal plan with one state left out (two moves in one step)
  wronggoal    an optimal plan without its last move: legal, stops short
  nosolution   says there is no solution
  garbage      text that is no plan
  nooutput     writes nothing, exits 0
  crash        raises an exception before writing anything
  sleep        sleeps far past any timeout
  memory       allocates 8 GiB
  flood        writes to stdout forever
  tamper       rewrites its puzzle file, then prints an optimal plan
  board        (Blokus) game.py's own report: the final board and the score line, no moves
  score        (Blokus) only the score line
"""

from __future__ import annotations

import sys
import time

MODES = ("optimal", "notoptimal", "illegal", "wronggoal", "nosolution", "garbage", "nooutput", "crash",
         "sleep", "memory", "flood", "tamper", "board", "score")


def before(mode: str) -> None:
    """The modes that never get to a plan."""
    if mode not in MODES:
        raise SystemExit(f"unknown mode {mode}")
    if mode == "crash":
        raise RuntimeError("a sample crash before any output")
    if mode == "sleep":
        time.sleep(600)
    if mode == "memory":
        hog = bytearray(8 * 1024 ** 3)
        hog[-1] = 1
    if mode == "flood":
        chunk = "y" * 65536 + "\n"
        while True:
            sys.stdout.write(chunk)
    if mode == "nooutput":
        raise SystemExit(0)


def tamper(mode: str, path: str) -> None:
    if mode == "tamper":
        with open(path, "w") as stream:
            stream.write("changed by the program\n")


def alter(mode: str, states: list) -> list:
    """The plan's states as the mode wants them (unit-cost domains)."""
    if mode == "notoptimal":
        return [states[0], states[1], states[0], *states[1:]]
    if mode == "illegal":
        return [states[0], *states[2:]]
    if mode == "wronggoal":
        return states[:-1]
    return states


def solve(domain_name: str, path: str, heuristic: str | None = None, **options):
    """The real problem and an optimal SearchResult for it."""
    from heurist.analysis.domains import load_problem
    from heurist.domains import get_domain
    from heurist.search import search

    domain = get_domain(domain_name)
    problem = load_problem(domain, path, **options)
    result = search(problem, "astar", domain.heuristics.resolve(heuristic or domain.default_heuristic))
    return domain, problem, result


def with_states(result, states: list, actions: list | None = None):
    from heurist.search import SearchResult

    actions = actions if actions is not None else [None] * (len(states) - 1)
    return SearchResult(result.status, result.algorithm, actions, states, float(len(actions)),
                        result.statistics)
