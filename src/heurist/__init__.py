"""heurist: heuristic state-space search on puzzles.

The package is layered:

* :mod:`heurist.search` -- domain-independent search algorithms and statistics;
* :mod:`heurist.domains` -- one package per puzzle (model, formats, heuristics);
* :mod:`heurist.analysis` -- exact distances and heuristic checks;
* :mod:`heurist.cli` -- the ``heurist`` command and the course front ends.

Domains depend on search, never the reverse.
"""

__version__ = "0.1.0"
