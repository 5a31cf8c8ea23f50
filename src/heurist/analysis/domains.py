"""Instances for ``check``, ``validate`` and ``render --plan``, through the :class:`~heurist.domains.Domain` face.

* :func:`load_problem` loads an instance with the domain's search-only
  options (Klotski's mirror symmetry) off, so that states are the real ones;
* :func:`state_space` builds the start's component with exact distances, by
  the domain's own ``explore``;
* :func:`generated_instances` writes ``check --generated`` families, with the
  domain's ``small_instances`` options first so that spaces stay enumerable.
"""

from __future__ import annotations

import shlex
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from heurist.domains import Domain, parse_words
from heurist.errors import InputError
from heurist.files import write_atomically
from heurist.search.space import DEFAULT_MAX_STATES, StateSpace, build_state_space


def load_problem(domain: Domain, path: str | Path, **options: Any) -> Any:
    """Load an instance with every search-only option off, so that states are the real ones."""
    for option in domain.options:
        if option.search_only:
            options[option.name] = False
    return domain.plain(domain.load(path, **options))


def state_space(domain: Domain, problem: Any, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The start's component with exact distances, by the domain's own explorer."""
    return build_state_space(problem, max_states, domain.explore)


def generated_instances(domain: Domain, count: int, seed: int, options: str | None) -> Iterator[tuple[str, Path]]:
    """Write ``count`` generated instances to a temporary directory; yield (name, path) for each.

    ``options`` are generator options as words (``"--stacks 4 --blocks 5"``),
    given over the domain's ``small_instances``.
    """
    if not domain.can_generate:
        raise InputError(f"the {domain.name} domain has no instance generator", "--generated")
    try:
        words = shlex.split(options or "")
    except ValueError as error:
        raise InputError(str(error), "--generate-options") from None
    given = {**domain.small_instances, **parse_words(domain.generate_options, words, "--generate-options")}
    files = domain.generate(seed=seed, count=count, **given)
    with tempfile.TemporaryDirectory(prefix="heurist-check-") as directory:
        for name, text in files:
            path = Path(directory) / name
            write_atomically(path, text)
            yield name, path
