"""Puzzle domains, one package each, discovered by name.

Each package ``heurist.domains.<name>`` exposes ``DOMAIN``, a :class:`Domain`
describing how to load an instance, which heuristics exist and how to show a
state. The command line finds domains here; nothing else needs registering.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heurist.errors import InputError
from heurist.search import HeuristicRegistry, Problem


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    return None


@dataclass(frozen=True)
class Domain:
    """What the generic front ends (``solve``, ``generate``, ``check``...) need from a domain.

    * ``load(path, options)`` reads an instance file and returns a problem; it
      raises :class:`~heurist.errors.InputError` on malformed input.
    * ``format_state(problem, state)`` draws a state as text.
    * ``format_action(problem, action)`` describes an action in a few words.
    * ``add_arguments(parser)`` adds domain options to ``heurist solve DOMAIN``;
      their values reach ``load`` in ``options``.
    * ``add_generate_arguments`` and ``generate(options)`` back
      ``heurist generate DOMAIN``; ``generate`` returns (file name, text) pairs.
    * ``read_solution(text, problem, source)`` reads a solution file in the
      domain's output format into a :class:`~heurist.search.solutions.Solution`
      (for ``heurist validate`` and ``heurist render --plan``); ``solution_format``
      says in a few words what it reads.
    * ``explore(problem, max_states)``, when the domain has a faster way than
      the generic breadth-first :func:`~heurist.search.space.explore` to
      enumerate the start's component (Klotski: numpy layers; Blokus: goals
      are final, so none is expanded), returns it as a
      :class:`~heurist.search.space.StateSpace` for ``heurist check``.
    * ``small_generate_options``: generator options that keep state spaces
      small enough to enumerate, put first by ``heurist check --generated``.
    * ``search_only_options``: options (dest names) that change which states a
      search visits but not the puzzle, such as Klotski's mirror reduction;
      checks and replays switch them off to see every real state.
    """

    name: str
    summary: str
    heuristics: HeuristicRegistry
    default_heuristic: str
    load: Callable[[Path, argparse.Namespace], Problem]
    format_state: Callable[[Any, Any], str]
    format_action: Callable[[Any, Any], str] = lambda problem, action: str(action)
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    add_generate_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    generate: Callable[[argparse.Namespace], Iterable[tuple[str, str]]] | None = None
    read_solution: Callable[[str, Any, str], Any] | None = None
    solution_format: str = ""
    explore: Callable[[Any, int], Any] | None = None
    small_generate_options: tuple[str, ...] = ()
    search_only_options: tuple[str, ...] = ()
    examples: list[str] = field(default_factory=list)


def domain_names() -> list[str]:
    """Names of the installed domain packages, sorted."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def get_domain(name: str) -> Domain:
    if name not in domain_names():
        raise InputError(f"unknown domain {name!r}; choose one of {', '.join(domain_names())}")
    return importlib.import_module(f"{__name__}.{name}").DOMAIN


def all_domains() -> list[Domain]:
    return [get_domain(name) for name in domain_names()]
