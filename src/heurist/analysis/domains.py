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
import random
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
    if domain.name == "klotski":
        parser.add_argument("--pieces", type=_piece_counts)
        parser.add_argument("--rows", type=int, default=5)
        parser.add_argument("--cols", type=int, default=4)
    words = SMALL_GENERATOR_OPTIONS.get(domain.name, []) + shlex.split(options or "")
    try:
        generator_args, unknown = parser.parse_known_args(words)
    except argparse.ArgumentError as error:
        raise InputError(str(error), "--generate-options") from None
    if unknown:
        raise InputError(f"not a {domain.name} generator option: {' '.join(unknown)}", "--generate-options")
    generator_args.seed, generator_args.count = seed, count
    try:
        if domain.name == "klotski" and generator_args.pieces:
            files = random_klotski_layouts(seed, count, generator_args.pieces, generator_args.rows, generator_args.cols)
        else:
            files = list(domain.generate(generator_args))
    except ValueError as error:
        raise InputError(str(error), "--generate-options") from None
    with tempfile.TemporaryDirectory(prefix="heurist-check-") as directory:
        for name, text in files:
            path = Path(directory) / name
            path.write_text(text)
            yield name, path


# ----- random Klotski layouts of any piece set ----------------------------------------------------

def _piece_counts(text: str) -> tuple[int, int, int, int]:
    """``B,V,H,S``: how many 2x2, vertical 1x2, horizontal 1x2 and 1x1 pieces."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 4 or min(counts) < 0:
        raise argparse.ArgumentTypeError("expected four counts B,V,H,S (2x2, vertical, horizontal, 1x1), e.g. 1,1,0,2")
    return counts  # type: ignore[return-value]


def random_klotski_layouts(
    seed: int, count: int, counts: tuple[int, int, int, int], rows: int = 5, cols: int = 4
) -> list[tuple[str, str]]:
    """``count`` random layouts of a chosen piece set, each piece dropped on a random free place.

    The domain's own generator walks back from a goal of the classic piece set,
    whose two empty cells leave little room; sparser sets reach states the
    course layouts never do (a heuristic's claim has to hold there too). The
    2x2 pieces go first, then the others, each on a uniformly chosen free
    anchor; a layout that already meets the exit goal is drawn again.
    """
    from heurist.domains.klotski.board import SHAPES, Geometry
    from heurist.domains.klotski.formats import format_board

    if counts[0] < 1:
        raise InputError("the exit goal needs a 2x2 piece: the first count must be at least 1", "--pieces")
    if rows < 2 or cols < 2 or rows * cols > 64:
        raise InputError("the board must be at least 2x2 and at most 64 cells", "--rows/--cols")
    geometry = Geometry(cols, rows)
    exit_bit = 1 << geometry.index(rows - 2, (cols - 2) // 2)
    rng = random.Random(seed)
    layouts = []
    for number in range(1, count + 1):
        for _ in range(10_000):
            occupied, masks = 0, [0, 0, 0, 0]
            for shape in SHAPES:
                for _ in range(counts[shape]):
                    free = [a for a, cells in geometry.piece_cells[shape].items() if not cells & occupied]
                    if not free:
                        break
                    anchor = rng.choice(free)
                    occupied |= geometry.piece_cells[shape][anchor]
                    masks[shape] |= 1 << anchor
            placed = [mask.bit_count() for mask in masks]
            if placed == list(counts) and not masks[0] & exit_bit:
                break
        else:
            raise InputError("these pieces do not fit the board (or always meet the goal)", "--pieces")
        state = geometry.pack(*masks)
        layouts.append((f"klotski_{','.join(map(str, counts))}_s{seed}_{number:03d}.txt", format_board(geometry, state) + "\n"))
    return layouts
