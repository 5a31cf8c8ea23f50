"""Finding domains: the ``heurist.domains`` entry points, and the built-in packages directly."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from heurist.domains.base import Domain
from heurist.domains.pictures import Picture
from heurist.errors import InputError
from heurist.search import HeuristicRegistry

ENTRY_POINT_GROUP = "heurist.domains"
PACKAGE = "heurist.domains"


class ShowsItself:
    """Mixin of problem classes: a problem knows its domain, so it draws itself (in a notebook too) and
    names its heuristics, which :func:`heurist.search.search` then takes by name.

    ``domain_name`` names the registered domain.
    """

    domain_name: ClassVar[str] = ""

    @property
    def domain(self) -> Domain:
        return get_domain(self.domain_name)

    @property
    def heuristics(self) -> HeuristicRegistry:
        """The domain's heuristics by name."""
        return self.domain.heuristics

    @property
    def default_heuristic(self) -> str:
        return self.domain.default_heuristic

    def default_search(self) -> tuple[str, str]:
        """(algorithm, heuristic) the domain chooses for this instance (``Domain.default_search``)."""
        return self.domain.default_search(self)

    def picture(self, state: Any = None) -> Picture:
        """``state`` (default: the start) drawn as the domain draws it; a real state, not a representative."""
        plain = self.domain.plain(self)
        return Picture(self.domain, plain, [plain.initial_state if state is None else state])

    def plan_picture(self, states: Sequence[Any], index: int = -1) -> Picture:
        """State ``index`` of a plan's ``states``, the move into it marked."""
        return self.domain.picture(self, states, index)

    def _repr_svg_(self) -> str:
        return self.picture().svg()


# ----- discovery -----------------------------------------------------------------------------

BUILT_IN = ("blocksworld", "blokus", "klotski", "tiles")


@functools.lru_cache(maxsize=1)
def _entry_points() -> dict[str, Any]:
    """Entry points by domain name; the built-in packages also when run from a bare source tree.

    An entry point into ``heurist.domains`` whose package this heurist does not
    have (metadata installed from another checkout) is left out, rather than
    breaking every command when it is imported. Reading the installed
    packages' metadata takes longer than a small search, so only the commands
    that list domains, or name one that is not built in, come here.
    """
    import importlib.metadata  # here, not at the top: slow to import, and most commands never need it

    found: dict[str, Any] = {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        module = entry.value.partition(":")[0].strip()
        if module.startswith(f"{PACKAGE}.") and importlib.util.find_spec(module) is None:
            continue
        found[entry.name] = entry
    for name in BUILT_IN:
        if name not in found and importlib.util.find_spec(f"{PACKAGE}.{name}") is not None:
            found[name] = f"{PACKAGE}.{name}"
    return found


def domain_names() -> list[str]:
    """Names of the registered domains, sorted."""
    return sorted(_entry_points())


def get_domain(name: str) -> Domain:
    """The registered domain ``name``; an unknown name is an InputError listing the choices.

    A built-in domain is imported directly, without the entry-point scan
    (heurist's own entry points name the same packages); any other name is
    looked up among the installed packages' entry points.
    """
    if name in BUILT_IN and importlib.util.find_spec(f"{PACKAGE}.{name}") is not None:
        entry: Any = f"{PACKAGE}.{name}"
    else:
        entries = _entry_points()
        if name not in entries:
            raise InputError(f"unknown domain {name!r}; choose one of {', '.join(sorted(entries))}")
        entry = entries[name]
    domain = importlib.import_module(entry).DOMAIN if isinstance(entry, str) else entry.load()
    if not isinstance(domain, Domain):
        raise InputError(f"the entry point of domain {name!r} is not a heurist Domain")
    return domain


def all_domains() -> list[Domain]:
    return [get_domain(name) for name in domain_names()]


def named_domains(words: Sequence[str], keep: Callable[[Domain], bool] = lambda domain: True) -> list[Domain]:
    """The domain a command line names, alone, or else every domain that ``keep`` accepts.

    ``words`` are the command line after the subcommand (``heurist solve
    klotski FILE`` gives ``["klotski", "FILE"]``). Commands whose first
    argument is a domain register just that domain's parser when the name is
    a domain's: only its package is imported, and the others' packages and
    the entry-point scan are left out. Anything else (``--help``, a
    misspelt name) gets every domain, so that the help and the error list
    them all.
    """
    if words and not words[0].startswith("-"):
        try:
            domain = get_domain(words[0])
        except InputError:
            domain = None
        if domain is not None and keep(domain):
            return [domain]
    return [domain for domain in all_domains() if keep(domain)]


__all__ = ["ENTRY_POINT_GROUP", "ShowsItself", "all_domains", "domain_names", "get_domain", "named_domains"]
