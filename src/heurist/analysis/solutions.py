"""Solution files against their instance (``heurist validate``, ``heurist render --plan``).

:func:`load_for_solution` loads the instance a solution file names, with the
options the file records (heurist's own files record them, see
:class:`~heurist.domains.formats.InstanceRecord`), and refuses another
instance's solution. Domains read their solution files into a
:class:`~heurist.search.solutions.Solution`; :func:`read_plan` accepts only
a legal plan from the instance's start and names the first line where that
fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from heurist.analysis.domains import load_problem
from heurist.domains import Domain, parse_words
from heurist.domains.formats import InstanceRecord, instance_hash, read_record
from heurist.errors import InputError, read_text
from heurist.search.solutions import Replay, replay


def recorded_options(domain: Domain, record: InstanceRecord | None, given: dict[str, Any],
                     source: str) -> dict[str, Any]:
    """The instance options to load a solution's instance with: those ``given``, and the ones the solution
    records where none is given. A given option that contradicts the record is an :class:`InputError`
    (the plan would be judged on another puzzle); search-only options are not instance options here."""
    if record is None:
        return dict(given)
    try:
        recorded = parse_words(domain.options, record.options, source)
    except InputError as error:
        raise InputError(f"the recorded options: {error.message}", source, record.line) from None
    options = dict(given)
    for option in domain.options:
        if option.search_only or option.name not in recorded:
            continue
        if option.name in given:
            mine = option.words(option.check(given[option.name], source))
            theirs = option.words(recorded[option.name])
            if mine != theirs:
                raise InputError(f"the solution was written for {' '.join(theirs)}, not {' '.join(mine)} "
                                 f"(leave the option out to use the recorded one)", source, record.line)
        else:
            options[option.name] = recorded[option.name]
    return options


def load_for_solution(domain: Domain, instance: str | Path, text: str, source: str,
                      given: dict[str, Any]) -> Any:
    """The instance that the solution ``text`` (read from ``source``) is judged on, with every search-only
    option off: loaded with the recorded options (:func:`recorded_options`); a solution that records
    another domain or another instance is an :class:`InputError` naming both."""
    record = read_record(text, source)
    if record is not None and record.domain != domain.name:
        raise InputError(f"a {record.domain} solution, not a {domain.name} one", source, record.line)
    problem = load_problem(domain, instance, **recorded_options(domain, record, given, source))
    if record is not None and record.instance_hash is not None:
        mine = instance_hash(domain, problem)
        if mine != record.instance_hash:
            named = f"{record.instance} " if record.instance else ""
            raise InputError(f"another instance's solution: it was written for {named}({record.instance_hash}), "
                             f"not {instance} ({mine})", source, record.line)
    return problem


def read_plan(domain: Domain, problem: Any, path: str, text: str | None = None) -> Replay:
    """The plan in a solution file, replayed from the instance's start; anything else is an input error.

    For drawing a plan (``heurist render --plan``): unlike ``validate``, which
    reports what is wrong with a solution, this accepts only a legal plan that
    starts at the instance, and names the first line where that fails.
    """
    solution = domain.read_solution(read_text(path) if text is None else text, problem, path)
    if solution.unsolvable:
        raise InputError("the solution claims there is none: there is no plan to draw", path, 1)
    result = replay(problem, solution)
    if not result.starts_at_instance:
        first_line = solution.lines[0] if solution.lines else 1
        raise InputError("the solution's first state is not the instance's start", path, first_line)
    if not result.legal:
        raise InputError(f"step {result.illegal_step} is not legal: {result.reason}", path, result.illegal_line)
    return result
