"""Benchmark suites: the suites the domains declare, and generated ones.

Each domain declares its course suites (``Domain.suites``, see
:mod:`heurist.domains.suites`); they are read from the course data that ships
with heurist, or from ``--data DIR``. ``--generated DOMAIN:N:SEED`` writes N
random instances with the domain's own generator.
"""

from __future__ import annotations

import functools
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heurist.domains import all_domains, get_domain, parse_words
from heurist.domains.suites import (
    Instance,
    Suite,
    course_data_directory,
    domain_suites,
    natural_key,
)
from heurist.errors import InputError


@functools.lru_cache(maxsize=1)
def all_suites() -> dict[str, Suite]:
    """Every registered domain's suites, by name."""
    return domain_suites(all_domains())


def default_data_directory() -> Path:
    """The course data shipped with heurist (the source checkout's ``data/`` links to the same files)."""
    return course_data_directory()


def suite_instances(name: str, data: Path | None = None) -> list[Instance]:
    """The instances of the suite ``name``, read from ``data`` (default: the course data shipped with heurist)."""
    suites = all_suites()
    if name not in suites:
        raise InputError(f"unknown suite {name!r}; choose from {', '.join(suites)}", "suite")
    data = Path(data) if data is not None else default_data_directory()
    if not data.is_dir():
        raise InputError("data directory not found (give it with --data DIR)", data)
    return suites[name].collect(data)


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


__all__ = ["GeneratedSpec", "Instance", "Suite", "all_suites", "default_data_directory", "natural_key",
           "suite_instances"]
