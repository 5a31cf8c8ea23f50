"""Suites: named sets of instances that a domain declares (``Domain.suites``) for ``bench`` and ``grade``.

A suite is a list of :class:`Instance` records, each a file of one domain
plus the domain options it is solved with (what ``heurist solve DOMAIN FILE
OPTIONS`` would be given). Suites are collected from a data directory: by
default the course data that ships inside the package
(:func:`course_data_directory`, ``heurist/data/``; a source checkout links
``data/`` to it), or one given with ``--data DIR``. A domain of another
package declares suites the same way, collecting from its own files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from heurist.errors import InputError

if TYPE_CHECKING:
    from heurist.domains import Domain


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

    def options(self, domain: Domain) -> dict[str, Any]:
        """The domain options as keywords, read from ``arguments`` by ``domain``'s declarations."""
        from heurist.domains.options import parse_words

        return parse_words(domain.options, self.arguments, source=f"{self.suite}:{self.name}")


@dataclass(frozen=True)
class Suite:
    """A named set of instances of one domain; ``collect(data_directory)`` lists them."""

    name: str
    domain: str
    summary: str
    collect: Callable[[Path], list[Instance]] = field(repr=False)


def natural_key(text: str) -> list:
    """Sort key that puts ``hrd_2`` before ``hrd_10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def course_data_directory() -> Path:
    """The course data shipped with heurist (``heurist/data/``), wherever heurist is installed."""
    from importlib import resources  # here: only suites and ``heurist data`` need it

    return Path(str(resources.files("heurist") / "data"))


def file_suite(name: str, domain: str, summary: str, folder: str, pattern: str,
               exclude: Sequence[str] = ()) -> Suite:
    """A suite of every file matching ``pattern`` in ``DATA/folder``, in natural order; files whose
    name contains a word of ``exclude`` are left out."""

    def collect(data: Path) -> list[Instance]:
        directory = data / folder
        if not directory.is_dir():
            raise InputError(f"suite {name}: no folder {folder} in the data directory", data)
        paths = [
            path for path in directory.glob(pattern)
            if path.is_file() and not any(word in path.name for word in exclude)
        ]
        return [
            Instance(name, domain, path.name, str(path))
            for path in sorted(paths, key=lambda path: natural_key(path.name))
        ]

    return Suite(name, domain, summary, collect)


def command_suite(name: str, domain: str, summary: str, folder: str,
                  commands: Sequence[tuple[str, str, str]]) -> Suite:
    """A suite of labelled command lines over files of ``DATA/folder``: (label, file, options as words)."""
    import shlex

    def collect(data: Path) -> list[Instance]:
        directory = data / folder
        instances = []
        for label, file_name, arguments in commands:
            path = directory / file_name
            if not path.is_file():
                raise InputError(f"suite {name}: no file {file_name}", directory)
            instances.append(Instance(name, domain, label, str(path), tuple(shlex.split(arguments))))
        return instances

    return Suite(name, domain, summary, collect)


def domain_suites(domains: Sequence[Domain]) -> dict[str, Suite]:
    """Every suite the domains declare, by name; two suites of one name is an error of the domains."""
    found: dict[str, Suite] = {}
    for domain in domains:
        for suite in domain.suites:
            if suite.name in found:
                raise InputError(f"suite {suite.name!r} is declared by two domains")
            found[suite.name] = suite
    return found


__all__ = ["Instance", "Suite", "command_suite", "course_data_directory", "domain_suites", "file_suite",
           "natural_key"]
