"""The tests a program is graded on, and the placeholders of its command template.

A test is an instance file of one domain with its options: a file or every
file of a directory given on the command line (with the command line's domain
options), or the problems of a bench suite (``hrd-v2``, ``bw-tamu``,
``blokus-course``: each with its own options, which the command line's
override).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heurist.analysis.domains import load_problem
from heurist.bench.suites import all_suites, natural_key, suite_instances
from heurist.domains import get_domain
from heurist.errors import InputError

NOT_TESTS = ("solution", "output", ".out", "README")
"""Files in a test directory whose name holds one of these are outputs or notes, not tests."""

PLACEHOLDERS = {
    "input": "the test file, copied into the run's working directory (its file name)",
    "output": "the file the program writes its plan to; without it the plan is read from stdout",
    "dfs_output": "CSC384 V1 form: the DFS output file, which must hold a legal plan",
    "dir": "the program's own directory (--programs: the student's sub-directory; else the current one)",
}
"""The placeholders of every domain, and what each becomes; a domain adds its own
(:attr:`~heurist.domains.Domain.template_placeholders`)."""


def placeholders_of(domain_name: str | None) -> dict[str, str]:
    """The placeholders a template for ``domain_name`` may use (every domain's when None)."""
    from heurist.domains import all_domains

    found = dict(PLACEHOLDERS)
    domains = [get_domain(domain_name)] if domain_name else all_domains()
    for domain in domains:
        found.update({name: text for name, text in domain.template_placeholders.items() if name not in found})
    return found

OUTPUT_FILE = "output.txt"
DFS_OUTPUT_FILE = "dfs_output.txt"

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


MAX_TEST_BYTES = 64 * 1024 * 1024
"""A test file larger than this is refused when the tests are collected."""


@dataclass(frozen=True)
class Case:
    """One test: ``name`` (unique in the run), the domain, the file, the domain's options for it, and the
    file's bytes as they were when the tests were collected: every run gets a fresh copy of those bytes,
    the problem is loaded from them and the optimum is keyed by their hash, so a test changed on disk
    during grading changes nothing."""

    name: str
    domain: str
    path: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    data: bytes = field(default=b"", repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.data:
            object.__setattr__(self, "data", read_test(self.path))

    def key(self) -> str:
        return self.name

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def problem(self) -> Any:
        """The test's instance, loaded from the collected bytes (a new one each time: runs judge in parallel)."""
        return load_test(self.domain, self.data, Path(self.path).name, self.options)


def read_test(path: str | Path) -> bytes:
    """A test file's bytes: a regular file (a link to one is fine: the tests are the grader's), bounded."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise InputError("not a regular file", path)
    with os.fdopen(handle, "rb") as stream:
        data = stream.read(MAX_TEST_BYTES + 1)
    if len(data) > MAX_TEST_BYTES:
        raise InputError(f"larger than {MAX_TEST_BYTES // 2 ** 20} MiB: not a test", path)
    return data


def load_test(domain_name: str, data: bytes, name: str, options: dict[str, Any]) -> Any:
    """The instance of ``data`` (written to a private temporary file named ``name`` for the domain's loader)."""
    domain = get_domain(domain_name)
    with tempfile.TemporaryDirectory(prefix="heurist-test-") as directory:
        path = Path(directory) / name
        path.write_bytes(data)
        return load_problem(domain, path, **options)


def template_placeholders(template: str, domain_name: str | None = None) -> list[str]:
    """The placeholders ``template`` uses; one unknown to ``domain_name`` is an :class:`InputError`."""
    names = _PLACEHOLDER.findall(template)
    known = placeholders_of(domain_name)
    unknown = sorted({name for name in names if name not in known})
    if unknown:
        raise InputError(
            f"unknown placeholder {{{unknown[0]}}} in {template!r}; known: "
            + ", ".join(f"{{{name}}}" for name in known), "--program")
    if not template.strip():
        raise InputError("the command template is empty", "--program")
    return names


def fill_template(template: str, values: dict[str, str]) -> str:
    """``template`` with each known placeholder replaced by its (already shell-quoted) value."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def placeholder_values(case: Case, problem: Any, input_name: str, program_dir: str) -> dict[str, str]:
    """The shell words each placeholder becomes for ``case`` (``problem`` is its loaded instance)."""
    values = {
        "input": shlex.quote(input_name),
        "output": OUTPUT_FILE,
        "dfs_output": DFS_OUTPUT_FILE,
        "dir": shlex.quote(program_dir),
    }
    values.update(get_domain(case.domain).template_values(problem, values["input"]))
    return values


def collect_cases(domain: str, tests: list[str], options: dict[str, Any] | None = None,
                  data: Path | None = None) -> list[Case]:
    """The tests named by ``tests`` (files, directories, suite names), in order, with unique names."""
    options = dict(options or {})
    if not tests:
        raise InputError("name at least one test: a file, a directory or a suite", "TESTS")
    found: list[tuple[str, str, str, dict[str, Any]]] = []  # (group, name, path, options)
    for test in tests:
        path = Path(test)
        if test in all_suites() and not path.exists():
            suite = all_suites()[test]
            if suite.domain != domain:
                raise InputError(f"suite {test} is of the {suite.domain} domain, not {domain}", test)
            for instance in suite_instances(test, data):
                found.append((test, instance.name, str(Path(instance.path).resolve()),
                              {**instance.options(get_domain(instance.domain)), **options}))
        elif path.is_dir():
            files = sorted((p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")
                            and not any(word in p.name for word in NOT_TESTS)),
                           key=lambda p: natural_key(p.name))
            if not files:
                raise InputError("no test files in this directory", path)
            found += [(path.name, p.name, str(p.resolve()), options) for p in files]
        elif path.is_file():
            found.append(("", path.name, str(path.resolve()), options))
        else:
            suites = ", ".join(name for name, suite in all_suites().items() if suite.domain == domain)
            raise InputError(f"no such file, directory or suite (suites of {domain}: {suites})", test)
    names = [name for _, name, _, _ in found]
    cases = []
    seen: set[str] = set()
    for group, name, path, values in found:
        label = name if names.count(name) == 1 or not group else f"{group}/{name}"
        base, number = label, 2
        while label in seen:
            label, number = f"{base}#{number}", number + 1
        seen.add(label)
        cases.append(Case(label, domain, path, values))
    get_domain(domain)  # an unknown domain is reported before any run
    return cases


__all__ = ["DFS_OUTPUT_FILE", "OUTPUT_FILE", "PLACEHOLDERS", "Case", "collect_cases", "fill_template",
           "placeholder_values", "placeholders_of", "template_placeholders"]
