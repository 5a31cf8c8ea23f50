"""Puzzle domains: one package each, one face, found through entry points.

A domain is an instance of a :class:`Domain` subclass, published by its
package as ``DOMAIN`` and registered in the ``heurist.domains`` entry-point
group (``pyproject.toml``)::

    [project.entry-points."heurist.domains"]
    tiles = "heurist.domains.tiles:DOMAIN"

so that a package of its own can add a domain without touching heurist.
Every command (``solve``, ``generate``, ``check``, ``validate``, ``render``,
``bench``) works through this face alone:

* typed **options**, declared once as :class:`Option` records; Python callers
  pass them as keywords (``domain.load(path, metric="slide")``,
  ``domain.generate(seed=1, count=10, blocks=8)``), and the command line
  builds its arguments from the same declarations;
* **formats in pairs**: ``load``/``write_instance`` for instances,
  ``format_state``/``parse_state`` and ``format_action``/``parse_action`` for
  states and moves, and :class:`SolutionFormat` records (a writer beside its
  reader) for every solution file heurist writes or a course program prints;
* **drawing**: ``draw(problem, states, index)`` returns the
  :class:`~heurist.scene.Scene` that SVG, PNG, GIF, HTML and the terminal show;
* **hooks** that only some domains need, with defaults here: ``plain`` (the
  instance without search-only reductions such as Klotski's mirror
  symmetry), ``explore`` (a faster enumeration of the state space),
  ``describe`` (the rules that change distances), ``terminal_style``.

See ``docs/domains.md`` for a walk through adding one.
"""

from __future__ import annotations

from heurist.domains.base import Domain
from heurist.domains.formats import SolutionFormat
from heurist.domains.options import Option, check_options, parse_words
from heurist.domains.pictures import Picture
from heurist.domains.registry import (
    ENTRY_POINT_GROUP,
    ShowsItself,
    all_domains,
    domain_names,
    get_domain,
    named_domains,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Domain",
    "Option",
    "Picture",
    "ShowsItself",
    "SolutionFormat",
    "all_domains",
    "check_options",
    "domain_names",
    "get_domain",
    "named_domains",
    "parse_words",
]
