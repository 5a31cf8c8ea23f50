"""A sample HUJI Blokus game.py for the grading tests: MODE, then the course's options.

    python3 game.py MODE -p PIECES -f astar -s ROWS COLS -z cover -x ROW COL "[(r,c), ...]"

Prints the moves, the final board and 'Expanded nodes: N, score: S' (mode 'board': no moves,
as the course's game.py; mode 'score': the score line alone).
"""

import argparse
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the samples

import _modes  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("mode")
parser.add_argument("-p", dest="pieces")
parser.add_argument("-f", dest="function", default="astar")
parser.add_argument("-s", dest="size", nargs=2, type=int)
parser.add_argument("-z", dest="puzzle")
parser.add_argument("-x", dest="start", nargs=2, type=int)
parser.add_argument("-H", dest="heuristic")
parser.add_argument("targets", nargs="?")
args = parser.parse_intermixed_args()
mode = args.mode
_modes.before(mode)
options = {"puzzle": args.puzzle, "board_size": tuple(args.size), "start": tuple(args.start)}
if args.targets:
    from heurist.domains.blokus.pieces import parse_targets

    options["targets"] = tuple(parse_targets(args.targets, "targets"))
domain, problem, result = _modes.solve("blokus", args.pieces, **options)
_modes.tamper(mode, args.pieces)
if mode == "nosolution":
    print("No solution")
    raise SystemExit(0)
if mode == "garbage":
    print("Expanded nodes: lots, score: high")
    raise SystemExit(0)
actions, states = list(result.actions), list(result.states)
if mode == "notoptimal":
    from heurist.search import search

    worse = search(problem, "dfs", domain.heuristics.resolve("zero"))
    actions, states = list(worse.actions), list(worse.states)
elif mode == "illegal":
    actions = [actions[0], *actions]  # the first piece placed twice
elif mode == "wronggoal":
    actions, states = actions[:-1], states[:-1]
report = domain.write_solution(problem, _modes.with_states(result, states, actions), "game",
                               moves=mode not in ("board", "score"))
if mode == "score":
    report = report.splitlines()[-1]
print(report)
