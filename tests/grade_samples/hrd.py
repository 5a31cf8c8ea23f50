"""A sample CSC384 hrd.py for the grading tests: MODE, then either course command line.

    python3 hrd.py MODE --algo astar|dfs --inputfile IN --outputfile OUT   (V2/V3)
    python3 hrd.py MODE IN DFS_OUT ASTAR_OUT                                (V1)
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the samples

import _modes  # noqa: E402

mode, words = sys.argv[1], sys.argv[2:]
if words and words[0].startswith("--"):
    options = dict(zip(words[0::2], words[1::2]))
    source, outputs = options["--inputfile"], [options["--outputfile"]]
else:
    source, outputs = words[0], [words[1], words[2]]
_modes.before(mode)
domain, problem, result = _modes.solve("klotski", source, "manhattan")
_modes.tamper(mode, source)
if mode == "nosolution":
    text = "No solution\n"
elif mode == "garbage":
    text = "the answer is 42\n"
else:
    text = domain.write_solution(problem, _modes.with_states(result, _modes.alter(mode, result.states)), "hrd")
for output in outputs:
    with open(output, "w") as stream:
        stream.write(text)
