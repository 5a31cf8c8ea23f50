"""A sample CSCE 420 Blocks World program for the grading tests: MODE FILE [-H H1] [-MAX_ITERS N].

Prints the course's trace (the success line, the states, the statistics line) to stdout.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the samples

import _modes  # noqa: E402

mode, source = sys.argv[1], sys.argv[2]
_modes.before(mode)
domain, problem, result = _modes.solve("blocksworld", source)
_modes.tamper(mode, source)
if mode == "nosolution":
    print(f"FAILED: the goal cannot be reached from the start, iter=1, max queue size=1\n"
          f"statistics: {source} method Astar planlen FAILED iter 1 maxq 1")
elif mode == "garbage":
    print("I moved the blocks, trust me")
else:
    altered = _modes.with_states(result, _modes.alter(mode, result.states))
    heuristic = domain.heuristics.resolve("zero")
    print(domain.write_solution(problem, altered, "trace", heuristic=heuristic, source=source))
