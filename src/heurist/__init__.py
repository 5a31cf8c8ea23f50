"""heurist: heuristic state-space search on puzzles.

Load an instance of any domain by name, search it, and look at the plan::

    >>> import heurist
    >>> from heurist.search import search
    >>> problem = heurist.load("klotski", "data/hrd/w23_s24_char/testhrd_med1.txt")
    >>> problem
    KlotskiProblem('data/hrd/w23_s24_char/testhrd_med1.txt', 5x4, metric='step', symmetry)
    >>> result = search(problem, "astar", "manhattan")  # a heuristic by name, or a function h(state, problem)
    >>> result
    <SearchResult astar: solved, cost 53, 53 moves, 7,553 expansions>
    >>> search(problem)  # the domain's default heuristic (Klotski's: pattern databases)
    <SearchResult astar: solved, cost 53, 53 moves, 3,869 expansions>
    >>> len(result.states) == len(result.actions) + 1    # the plan's states, the start first
    True
    >>> picture = result.picture()   # the last state drawn; notebooks show it, .svg() gives the text

Without a heuristic, :func:`heurist.search.search` uses the domain's default.
``heurist.domains.get_domain(name)`` gives a domain's whole face (its
formats, heuristics, options and generator).

The package is layered:

* :mod:`heurist.search` -- domain-independent search algorithms and statistics;
* :mod:`heurist.domains` -- one package per puzzle (model, formats, heuristics);
* :mod:`heurist.analysis` -- exact distances and heuristic checks;
* :mod:`heurist.render`, :mod:`heurist.bench`, :mod:`heurist.grade` -- pictures, benchmarks, grading;
* :mod:`heurist.cli` -- the ``heurist`` command and the course front ends.

Domains depend on search, never the reverse.
"""

from __future__ import annotations

TYPE_CHECKING = False  # type checkers read it as True; not importing typing keeps start-up short
if TYPE_CHECKING:  # nothing else is imported here: the command's signal handlers come first (cli/entry.py)
    from pathlib import Path
    from typing import Any

__version__ = "0.1.0"


def load(domain: str, path: str | Path, **options: Any) -> Any:
    """An instance of the domain named ``domain`` (``"klotski"``, ``"blocksworld"``, ``"blokus"``,
    ``"tiles"``, or a plug-in's), read from ``path``; ``options`` are the domain's instance options as
    keywords (``metric="slide"``, ``board_size=(6, 6)``), as ``heurist solve DOMAIN --help`` lists them.

    The same as ``get_domain(domain).load(path, **options)``. Bad input raises
    :class:`heurist.errors.InputError` naming the file and line.
    """
    from heurist.domains import get_domain  # here: importing a domain is the caller's choice

    return get_domain(domain).load(path, **options)


__all__ = ["__version__", "load"]
