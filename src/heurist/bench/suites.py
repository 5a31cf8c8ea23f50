"""Benchmark suites: named sets of instances from the course data, and generated ones.

A suite is a list of :class:`Instance` objects, each a file of one domain plus
the domain options it is solved with (what ``heurist solve DOMAIN FILE
OPTIONS`` would be given). The course suites are read from the repository's
``data/`` directory; ``--generated DOMAIN:N:SEED`` writes N random instances
with the domain's own generator.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import heurist
from heurist.domains import get_domain, parse_words
from heurist.errors import InputError


@dataclass(frozen=True)
class Instance:
    """One problem of a suite.

    ``name`` identifies it within the suite (a path relative to the suite's
    folder, or a label when one file serves several problems, as Blokus piece
    files do); ``arguments`` are the domain's command-line options for it.
    """

    suite: str
    domain: str
    name: str
    path: str
    arguments: tuple[str, ...] = ()

    def options(self) -> dict[str, Any]:
        """The domain options as keywords, read from ``arguments`` by the domain's declarations."""
        domain = get_domain(self.domain)
        return parse_words(domain.options, self.arguments, source=f"{self.suite}:{self.name}")


def natural_key(text: str) -> list:
    """Sort key that puts ``hrd_2`` before ``hrd_10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


@dataclass(frozen=True)
class Suite:
    name: str
    domain: str
    summary: str
    collect: Callable[[Path], list[Instance]] = field(repr=False)


NOT_COURSE_MADE = ("med1T.txt",)
"""Files in the course folders that the course did not make (data/hrd/SOURCES.md): kept, but in no suite."""


def _files(suite: str, domain: str, folder: str, pattern: str, exclude: tuple[str, ...] = ()):
    """A suite of every file matching ``pattern`` in ``data/folder``, in natural order."""

    def collect(data: Path) -> list[Instance]:
        directory = data / folder
        if not directory.is_dir():
            raise InputError(f"suite {suite}: no folder {folder} in the data directory", data)
        paths = [
            path for path in directory.glob(pattern)
            if path.is_file() and not any(word in path.name for word in exclude)
        ]
        return [
            Instance(suite, domain, path.name, str(path))
            for path in sorted(paths, key=lambda path: natural_key(path.name))
        ]

    return collect


BLOKUS_COURSE = [
    # (label, piece file, options): the exercise's reference commands that the
    # generic engine solves (fill, corners, cover), as `heurist solve blokus` options.
    ("fill-4x7-tiny", "tiny_set.txt", "--puzzle fill --board-size 4 7"),
    ("corners-5x5-small", "small_set.txt", "--puzzle corners --board-size 5 5"),
    ("corners-6x6-tiny2", "tiny_set_2.txt", "--puzzle corners --board-size 6 6"),
    ("corners-8x8-tiny2", "tiny_set_2.txt", "--puzzle corners --board-size 8 8"),
    ("cover-6x6-small", "small_set.txt", '--board-size 6 6 --start 3 3 --targets "[(2,2), (5,5), (1,4)]"'),
    ("cover-8x8-small", "small_set.txt", '--board-size 8 8 --start 3 3 --targets "[(2,2), (5,5), (6,7)]"'),
    ("cover-10x10-small", "small_set.txt", '--board-size 10 10 --start 3 3 --targets "[(2,2), (5,5), (6,7)]"'),
    ("cover-10x10-valid-a", "valid_pieces.txt", '--board-size 10 10 --start 7 7 --targets "[(5,5), (8,8), (4,9)]"'),
    ("cover-10x10-valid-b", "valid_pieces.txt", '--board-size 10 10 --start 5 5 --targets "[(3,4), (6,6), (7,5)]"'),
    (
        "cover-15x15-contest", "valid_pieces.txt",
        '--board-size 15 15 --start 0 0 --targets "[(0,1), (0,9), (5,5), (8,8), (4,9), (9,2)]"',
    ),
]


def _blokus_course(data: Path) -> list[Instance]:
    directory = data / "blokus"
    instances = []
    for label, pieces, arguments in BLOKUS_COURSE:
        path = directory / pieces
        if not path.is_file():
            raise InputError(f"suite blokus-course: no piece file {pieces}", directory)
        instances.append(Instance("blokus-course", "blokus", label, str(path), tuple(shlex.split(arguments))))
    return instances


NOT_PUZZLES = ("solution", "output", ".out")

SUITES: dict[str, Suite] = {
    suite.name: suite
    for suite in [
        Suite("hrd-v1", "klotski", "CSC384 Fall 2022 numeric boards (course kit, classic, two peers' inputs)",
              _files("hrd-v1", "klotski", "hrd/f22_numeric", "*.txt", NOT_PUZZLES)),
        Suite("hrd-v2", "klotski", "CSC384 2023-2024 character boards",
              _files("hrd-v2", "klotski", "hrd/w23_s24_char", "*.txt", NOT_PUZZLES)),
        Suite("hrd-v3", "klotski", "CSC384 2024-2025 boards with goal grids (two are unsolvable)",
              _files("hrd-v3", "klotski", "hrd/f24_w25_goal", "*.txt", (*NOT_PUZZLES, *NOT_COURSE_MADE))),
        Suite("hrd-layouts32", "klotski", "the 32 classic Hua Rong Dao layouts (numeric format)",
              _files("hrd-layouts32", "klotski", "hrd/f22_numeric/layouts32_longles", "*.txt")),
        Suite("bw-tamu", "blocksworld", "Texas A&M CSCE 420 problems probA03-A11, probB03-B20",
              _files("bw-tamu", "blocksworld", "blocksworld", "prob*.bwp")),
        Suite("bw-testcases", "blocksworld", "Spring 2021 course test cases",
              _files("bw-testcases", "blocksworld", "blocksworld/spring21_testcases", "*.bwp")),
        Suite("bw-challenge", "blocksworld", "Spring 2021 challenge problems bwchp01-45",
              _files("bw-challenge", "blocksworld", "blocksworld/spring21_bwchp", "*.bwp")),
        Suite("blokus-course", "blokus", "the HUJI exercise's fill, corners and cover commands", _blokus_course),
    ]
}
"""The course suites, by name."""


def default_data_directory() -> Path:
    """``data/`` of the source checkout heurist runs from, else ``./data``."""
    checkout = Path(heurist.__file__).resolve().parents[2] / "data"
    return checkout if checkout.is_dir() else Path("data")


def suite_instances(name: str, data: Path | None = None) -> list[Instance]:
    """The instances of the course suite ``name``, read from ``data`` (default: the checkout's)."""
    if name not in SUITES:
        raise InputError(f"unknown suite {name!r}; choose from {', '.join(SUITES)}", "suite")
    data = Path(data) if data is not None else default_data_directory()
    if not data.is_dir():
        raise InputError("data directory not found (give it with --data DIR)", data)
    return SUITES[name].collect(data)


@dataclass(frozen=True)
class GeneratedSpec:
    """``DOMAIN:N:SEED[:OPTIONS]`` from ``--generated``: N instances of DOMAIN from SEED."""

    domain: str
    count: int
    seed: int
    arguments: tuple[str, ...] = ()

    @property
    def suite(self) -> str:
        return f"gen-{self.domain}-{self.count}-{self.seed}"

    @classmethod
    def parse(cls, text: str) -> GeneratedSpec:
        parts = text.split(":", 3)
        if len(parts) < 3:
            raise InputError(f"expected DOMAIN:N:SEED[:OPTIONS], got {text!r}", "--generated")
        domain, count, seed = parts[:3]
        domain_object = get_domain(domain)
        if not domain_object.can_generate:
            raise InputError(f"domain {domain} has no instance generator", "--generated")
        try:
            count_value, seed_value = int(count), int(seed)
        except ValueError:
            raise InputError(f"N and SEED must be whole numbers in {text!r}", "--generated") from None
        if count_value < 1:
            raise InputError("N must be at least 1", "--generated")
        arguments = tuple(shlex.split(parts[3])) if len(parts) == 4 else ()
        spec = cls(domain, count_value, seed_value, arguments)
        spec.generate_options()  # reject bad options now, not in the middle of the bench
        return spec

    def generate_options(self) -> dict[str, Any]:
        """The generator options as keywords, read from ``arguments`` by the domain's declarations."""
        return parse_words(get_domain(self.domain).generate_options, self.arguments, source="--generated")

    def write(self, directory: Path) -> list[Instance]:
        """Generate the instances into ``directory/SUITE/`` (same seed, same files) and list them."""
        from heurist.files import write_atomically

        folder = directory / self.suite
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot create: {error.strerror}", folder) from None
        instances = []
        for file_name, text in get_domain(self.domain).generate(seed=self.seed, count=self.count, **self.generate_options()):
            path = folder / file_name
            if not path.exists() or path.read_text() != text:
                write_atomically(path, text)
            instances.append(Instance(self.suite, self.domain, file_name, str(path)))
        return instances
