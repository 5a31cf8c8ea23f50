"""What ``check`` and ``validate`` need from each domain, beyond :class:`~heurist.domains.Domain`.

* the fastest way to build a domain's state space (numpy for Klotski);
* small generated instances for ``check --generated`` (generator options
  that keep the state space enumerable);
* a reader for the domain's solution files (see :mod:`heurist.analysis.solutions`).

These belong in the domains eventually (a ``state_space`` builder and a
``read_solution`` hook on :class:`~heurist.domains.Domain`); until then they
live here, keyed by domain name.
"""

from __future__ import annotations

import argparse
import shlex
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from heurist.analysis.space import DEFAULT_MAX_STATES, StateSpace, build_state_space, explore
from heurist.domains import Domain
from heurist.errors import InputError

SMALL_GENERATOR_OPTIONS = {
    "blocksworld": ["--stacks", "3", "--blocks", "5"],
    "blokus": ["--pieces", "tiny_set_2.txt", "--board-size", "5", "5"],
    "klotski": ["--steps", "200"],
}
"""Generator options used by ``check --generated`` before the user's own: spaces small enough to enumerate."""


SEARCH_ONLY_OPTIONS = ("symmetry",)
"""Domain options that change which states a search visits (Klotski's mirror reduction). Checks
and replays need every real state, so these are hidden and switched off."""


def add_instance_arguments(domain: Domain, parser: argparse.ArgumentParser) -> None:
    """The domain's instance options (``domain.add_arguments``) without the search-only ones."""
    domain.add_arguments(parser)
    for action in parser._actions:
        if action.dest in SEARCH_ONLY_OPTIONS:
            action.help = argparse.SUPPRESS
            parser.set_defaults(**{action.dest: False})


def load_problem(domain: Domain, path: str | Path, options: argparse.Namespace) -> Any:
    """Load an instance with every search-only reduction off, so that states are the real ones."""
    plain = argparse.Namespace(**vars(options))
    for name in SEARCH_ONLY_OPTIONS:
        if hasattr(plain, name):
            setattr(plain, name, False)
    return domain.load(path, plain)


def state_space(domain: Domain, problem: Any, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The start's component with exact distances, by the fastest builder for the domain."""
    if domain.name == "klotski":
        from heurist.analysis.klotski import klotski_state_space

        return build_state_space(problem, max_states, klotski_state_space)
    if domain.name == "blokus":
        # Placements only add tiles, so every state below a goal is a goal: no need to go on.
        return build_state_space(problem, max_states, partial(explore, expand_goals=False))
    return build_state_space(problem, max_states)


def describe_problem(domain: Domain, problem: Any) -> str:
    """A few words on the instance's rules that change the distances (Klotski's metric, Blokus's puzzle)."""
    if domain.name == "klotski":
        return f"{problem.metric} metric"
    describe = getattr(problem, "describe", None)
    return describe() if callable(describe) else ""


def generated_instances(domain: Domain, count: int, seed: int, options: str | None) -> Iterator[tuple[str, Path]]:
    """Write ``count`` generated instances to a temporary directory; yield (name, path) for each."""
    if domain.generate is None or domain.add_generate_arguments is None:
        raise InputError(f"the {domain.name} domain has no instance generator", "--generated")
    parser = argparse.ArgumentParser(prog=f"--generate-options for {domain.name}", add_help=False, exit_on_error=False)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--count", type=int, default=count)
    domain.add_generate_arguments(parser)
    words = SMALL_GENERATOR_OPTIONS.get(domain.name, []) + shlex.split(options or "")
    try:
        generator_args, unknown = parser.parse_known_args(words)
    except argparse.ArgumentError as error:
        raise InputError(str(error), "--generate-options") from None
    if unknown:
        raise InputError(f"not a {domain.name} generator option: {' '.join(unknown)}", "--generate-options")
    generator_args.seed, generator_args.count = seed, count
    try:
        files = list(domain.generate(generator_args))
    except ValueError as error:
        raise InputError(str(error), "--generate-options") from None
    with tempfile.TemporaryDirectory(prefix="heurist-check-") as directory:
        for name, text in files:
            path = Path(directory) / name
            path.write_text(text)
            yield name, path
