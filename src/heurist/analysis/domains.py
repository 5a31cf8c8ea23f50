"""Instances for ``check``, ``validate`` and ``render --plan``, through the :class:`~heurist.domains.Domain` hooks.

* :func:`load_problem` loads an instance with the domain's search-only
  reductions (``search_only_options``, Klotski's mirror symmetry) off, so
  that states are the real ones;
* :func:`state_space` builds the start's component with exact distances, by
  the domain's own ``explore`` when it has a faster one;
* :func:`generated_instances` writes ``check --generated`` families, with the
  domain's ``small_generate_options`` first so that spaces stay enumerable.
"""

from __future__ import annotations

import argparse
import shlex
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from heurist.domains import Domain
from heurist.errors import InputError
from heurist.search.space import DEFAULT_MAX_STATES, StateSpace, build_state_space


def add_instance_arguments(domain: Domain, parser: argparse.ArgumentParser) -> None:
    """The domain's instance options (``domain.add_arguments``) without the search-only ones."""
    domain.add_arguments(parser)
    for action in parser._actions:
        if action.dest in domain.search_only_options:
            action.help = argparse.SUPPRESS
            parser.set_defaults(**{action.dest: False})


def load_problem(domain: Domain, path: str | Path, options: argparse.Namespace) -> Any:
    """Load an instance with every search-only reduction off, so that states are the real ones."""
    plain = argparse.Namespace(**vars(options))
    for name in domain.search_only_options:
        if hasattr(plain, name):
            setattr(plain, name, False)
    return domain.load(path, plain)


def state_space(domain: Domain, problem: Any, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The start's component with exact distances, by the domain's own explorer when it has one."""
    return build_state_space(problem, max_states, domain.explore)


def describe_problem(problem: Any) -> str:
    """A few words on the instance's rules that change the distances (Klotski's metric, Blokus's puzzle)."""
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
    words = list(domain.small_generate_options) + shlex.split(options or "")
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
