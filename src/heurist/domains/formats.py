"""heurist's own solution formats, for every domain: ``heurist solve``'s text and JSON output.

Each writer sits beside its reader, so that whatever ``heurist solve``
prints, ``heurist validate`` and ``heurist render --plan`` read back:

* **text**: ``start:`` and the start drawn by ``Domain.format_state``, then
  per move ``move N: ACTION`` and the state after it, each followed by a
  blank line; then the statistics (``status: ...``, ``cost: ...``...). With
  ``--quiet`` only the statistics are printed, which say whether a plan
  exists but not which.
* **json**: one document with the outcome, ``start`` (the start state as
  text), ``plan`` (per move its ``step`` number, ``action`` and the ``state``
  after it, as text) and ``statistics``.

Both name the instance they solve (:class:`InstanceRecord`): the domain,
the instance file, a hash of the instance as heurist writes it, the
instance options given and the heuristic. The text format carries it as
its first line, ``# heurist: {...}`` (one JSON object), the JSON format as
top-level keys. ``validate`` and ``render --plan`` load the instance with
the recorded options when none are given, refuse conflicting ones, and
refuse another instance's solution.

A plan is read back by its states where the domain can parse them
(``Domain.parse_state``), else by its actions (``Domain.parse_action``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from heurist.errors import InputError
from heurist.search import SearchResult
from heurist.search.solutions import Solution
from heurist.search.statistics import format_statistics, result_as_json

if TYPE_CHECKING:
    from heurist.domains import Domain

_MOVE_HEADER = re.compile(r"^move (\d+): (.*)$")
_STATUS = re.compile(r"^status: (solved|unsolvable|limit reached|interrupted)\b")
_COST = re.compile(r"^cost: (\S+)$")


@dataclass(frozen=True)
class SolutionFormat:
    """A solution file format: its writer beside its reader, as python-chess pairs ``fen()`` with ``set_fen()``.

    ``write(problem, result, **context)`` turns a
    :class:`~heurist.search.SearchResult` into the file's text (``context``
    carries what a course program prints besides the plan: the file name,
    the heuristic, the expansion count); ``read(text, problem, source)``
    turns that text back into a :class:`~heurist.search.solutions.Solution`
    (raising :class:`InputError` with a line number on bad input);
    ``detect(text)`` says whether a text looks like this format.
    """

    name: str
    description: str
    write: Callable[..., str]
    read: Callable[[str, Any, str], Solution]
    detect: Callable[[str], bool] = lambda text: True


# ----- what a solution file says about its instance ----------------------------------------------

RECORD_PREFIX = "# heurist: "
"""The first line of a text solution: this, then the :class:`InstanceRecord` as one JSON object."""
MAX_RECORD_LINE = 65_536


@dataclass(frozen=True)
class InstanceRecord:
    """The instance a solution file belongs to, as the file records it.

    ``instance_hash`` is ``sha256:`` and the first 16 hex digits of the
    SHA-256 of the instance as heurist writes it (``Domain.write_instance``
    of the plain instance), so that a reformatted copy of the same puzzle
    matches and another puzzle does not; ``options`` are the instance
    options that were given, as command-line words (``["--metric",
    "slide"]``). ``line`` is where the record was read (1 for JSON).
    """

    domain: str
    instance: str | None = None
    instance_hash: str | None = None
    options: tuple[str, ...] = ()
    heuristic: str | None = None
    line: int = field(default=1, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The record's keys (those that are set), as both formats write them."""
        document: dict[str, Any] = {"domain": self.domain}
        if self.instance is not None:
            document["instance"] = self.instance
        if self.instance_hash is not None:
            document["instance_hash"] = self.instance_hash
        document["options"] = list(self.options)
        if self.heuristic is not None:
            document["heuristic"] = self.heuristic
        return document

    def header(self) -> str:
        """The text format's first line."""
        return RECORD_PREFIX + json.dumps(self.as_dict(), ensure_ascii=True)

    @classmethod
    def from_dict(cls, document: dict, source: str, line: int = 1) -> InstanceRecord | None:
        """The record in a solution's JSON keys; None when the document names no domain (older files)."""
        domain = _typed(document, "domain", (str,), source, required=False)
        if domain is None:
            return None
        options = _typed(document, "options", (list,), source, required=False) or []
        if not all(isinstance(word, str) for word in options):
            raise InputError("the document: 'options' must be a list of strings", source, line)
        return cls(
            domain,
            _typed(document, "instance", (str,), source, required=False),
            _typed(document, "instance_hash", (str,), source, required=False),
            tuple(options),
            _typed(document, "heuristic", (str,), source, required=False),
            line,
        )


def instance_hash(domain: Domain, problem: Any) -> str:
    """``sha256:`` and 16 hex digits naming the instance, as heurist writes it (see :class:`InstanceRecord`)."""
    import hashlib  # here: only writing and checking records needs it

    text = domain.write_instance(domain.plain(problem))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:16]


def instance_record(domain: Domain, problem: Any, *, instance: str | None = None,
                    options: dict[str, Any] | None = None, heuristic: Any = None) -> InstanceRecord:
    """The record a solution of ``problem`` carries; ``options`` are the instance options given (keywords)."""
    by_name = {option.name: option for option in domain.options}
    words: list[str] = []
    for name, value in (options or {}).items():
        if name in by_name and value is not None:
            words += by_name[name].words(value)
    return InstanceRecord(domain.name, instance, instance_hash(domain, problem), tuple(words),
                          heuristic if isinstance(heuristic, str) else None)


def read_record(text: str, source: str) -> InstanceRecord | None:
    """The :class:`InstanceRecord` of a heurist solution file, None for a file without one (a course
    program's output, or an older heurist file)."""
    text = text.removeprefix("\ufeff")
    if looks_like_json(text):
        return InstanceRecord.from_dict(_json_document(text, source), source)
    if not text.startswith(RECORD_PREFIX):
        return None
    line = text[:MAX_RECORD_LINE].partition("\n")[0].rstrip("\r")
    try:
        document = json.loads(line[len(RECORD_PREFIX):], parse_int=_bounded_int, parse_float=_bounded_float,
                              parse_constant=_no_constant)
    except ValueError:
        document = None
    if not isinstance(document, dict):
        raise InputError(f"expected a JSON object after '{RECORD_PREFIX.strip()}'", source, 1)
    return InstanceRecord.from_dict(document, source)


# ----- text --------------------------------------------------------------------------------------

def plan_steps(domain: Domain, problem: Any, result: SearchResult) -> Iterator[tuple[str, Any]]:
    """(header, state) of each step of a solved result: ``start:``, then ``move N: ACTION``."""
    for step, state in enumerate(result.states):
        if step == 0:
            yield "start:", state
        else:
            yield f"move {step}: {domain.format_action(problem, result.actions[step - 1])}", state


def write_text(domain: Domain, problem: Any, result: SearchResult, *, quiet: bool = False,
               record: InstanceRecord | None = None, **context: Any) -> str:
    """``heurist solve``'s text output: the instance record, the plan's states (unless ``quiet``), then the
    statistics. Without ``record``, one is made from ``context`` (``instance``, ``options``, ``heuristic``)."""
    record = record or instance_record(domain, problem, **_record_context(context))
    blocks = [record.header()]
    if result.solved and not quiet:
        for header, state in plan_steps(domain, problem, result):
            blocks.append(f"{header}\n{domain.format_state(problem, state)}\n")
    blocks.append(format_statistics(result))
    return "\n".join(blocks) + "\n"


def _record_context(context: dict[str, Any]) -> dict[str, Any]:
    return {name: context[name] for name in ("instance", "options", "heuristic") if name in context}


def looks_like_text(text: str) -> bool:
    return (text.startswith(RECORD_PREFIX) or any(_STATUS.match(line) for line in text.splitlines())
            or text.lstrip().startswith("start:"))


def read_text(domain: Domain, text: str, problem: Any, source: str) -> Solution:
    """``heurist solve``'s text output read back (see :func:`write_text`)."""
    lines = text.splitlines()
    stated_cost = stated_line = None
    status = None
    headers: list[tuple[int, str]] = []  # (line number, action text or "" for the start)
    for number, line in enumerate(lines, start=1):
        if line == "start:":
            headers.append((number, ""))
        elif match := _MOVE_HEADER.match(line):
            if int(match.group(1)) != len(headers):
                raise InputError(f"expected move {len(headers)}, got move {match.group(1)}", source, number)
            headers.append((number, match.group(2)))
        elif match := _STATUS.match(line):
            status = match.group(1)
        elif (match := _COST.match(line)) and status == "solved":
            try:
                stated_cost, stated_line = float(match.group(1)), number
            except ValueError:
                raise InputError("expected 'cost: N' with a number N", source, number) from None
    if status == "unsolvable" and not headers:
        return Solution(source, "text", unsolvable=True)
    if not headers:
        why = f"status: {status}" if status else "no 'start:' line"
        raise InputError(f"the file holds no plan ({why})", source, max(1, len(lines)))
    if headers[0][1] != "" or any(action == "" for _, action in headers[1:]):
        raise InputError("expected 'start:' first, then 'move N: ...' lines", source, headers[0][0])
    if domain.reads_states:
        states, starts = [], []
        for index, (number, _) in enumerate(headers):
            end = headers[index + 1][0] - 1 if index + 1 < len(headers) else len(lines)
            body = lines[number:end]
            while body and not body[-1].strip():
                body.pop()
            if index + 1 == len(headers):  # the statistics follow the last state after a blank line
                blank = next((i for i, row in enumerate(body) if not row.strip()), len(body))
                body = body[:blank]
            if not body:
                raise InputError("expected the state after this line", source, number)
            states.append(domain.parse_state(problem, body, source, number + 1))
            starts.append(number)
        return Solution(source, "text", states=states, lines=starts,
                        stated_cost=stated_cost, stated_cost_line=stated_line)
    moves = [domain.parse_action(problem, action, source, number) for number, action in headers[1:]]
    return Solution(source, "text", moves=moves, lines=[number for number, _ in headers[1:]],
                    stated_cost=stated_cost, stated_cost_line=stated_line)


# ----- JSON --------------------------------------------------------------------------------------

def write_json(domain: Domain, problem: Any, result: SearchResult, *, record: InstanceRecord | None = None,
               **context: Any) -> str:
    """``heurist solve --format json``: the instance record's keys, the outcome, the plan, the statistics.

    Without ``record``, one is made from ``context`` (``instance``, ``options``, ``heuristic``).
    """
    record = record or instance_record(domain, problem, **_record_context(context))
    extra: dict[str, Any] = record.as_dict()
    plan = []
    if result.solved:
        extra["start"] = domain.format_state(problem, result.states[0])
        plan = [
            {"step": step, "action": domain.format_action(problem, action),
             "state": domain.format_state(problem, state)}
            for step, (action, state) in enumerate(zip(result.actions, result.states[1:]), start=1)
        ]
    return result_as_json(result, plan, **extra)


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


MAX_JSON_DIGITS = 18
"""Integers in a solution's JSON have at most this many digits (costs and step numbers are far smaller)."""
MAX_COST = 1e15


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise ValueError(f"the number {text[:12]}... has {len(text)} digits: too large to be a cost or a step")
    return int(text)


def _bounded_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:12]}... is too large to be a cost")
    return value


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number a solution can hold")


_KIND_NAMES = {str: "a string", list: "a list", dict: "an object", int: "an integer", float: "a number",
               bool: "a boolean", type(None): "null"}


def _typed(document: dict, name: str, kinds: tuple[type, ...], source: str, where: str = "the document",
           required: bool = True) -> Any:
    """``document[name]`` if it is of one of ``kinds`` (a boolean is never a number); absent or null is
    None unless ``required``; any other type is an :class:`InputError`."""
    value = document.get(name)
    if value is None and not required:
        return None
    if isinstance(value, kinds) and not isinstance(value, bool):
        return value
    wanted = "a number" if float in kinds else " or ".join(_KIND_NAMES[kind] for kind in kinds)
    raise InputError(f"{where}: '{name}' must be {wanted}, not {_KIND_NAMES.get(type(value), 'that')}", source, 1)


def _json_document(text: str, source: str) -> dict:
    """A solution's JSON object, every number bounded; anything else is an :class:`InputError`."""
    try:
        document = json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", source, error.lineno) from None
    except ValueError as error:
        raise InputError(str(error), source, 1) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to be a solution", source, 1) from None
    if not isinstance(document, dict):
        raise InputError("expected a JSON object", source, 1)
    return document


def read_json(domain: Domain, text: str, problem: Any, source: str) -> Solution:
    """``heurist solve --format json`` read back (see :func:`write_json`), every field checked for its type.

    Unknown keys are allowed; a known key of the wrong type (``"cost": "60"``,
    ``"step": true``), a number too large to be a cost or a step, NaN or
    Infinity is bad input, never ignored.
    """
    document = _json_document(text, source)
    other = _typed(document, "domain", (str,), source, required=False)
    if other not in (None, domain.name):
        raise InputError(f"a {other} solution, not a {domain.name} one", source, 1)
    status = _typed(document, "status", (str,), source)
    if status == "unsolvable":
        return Solution(source, "json", unsolvable=True)
    plan = _typed(document, "plan", (list,), source, required=False)
    if status != "solved" or plan is None:
        raise InputError(f"the file holds no plan (status: {status})", source, 1)
    cost = _typed(document, "cost", (int, float), source, required=False)
    if cost is not None and not 0 <= cost <= MAX_COST:
        raise InputError(f"the document: 'cost' {cost:g} is not a cost (0 to {MAX_COST:g})", source, 1)
    stated = float(cost) if cost is not None else None
    for index, step in enumerate(plan, start=1):
        where = f"plan entry {index}"
        if not isinstance(step, dict):
            raise InputError(f"{where} must be an object with a step, an action and a state", source, 1)
        number = _typed(step, "step", (int,), source, where)
        if number != index:
            raise InputError(f"{where} is step {number}, not step {index}", source, 1)
        _typed(step, "action", (str,), source, where, required=not domain.reads_states)
        _typed(step, "state", (str,), source, where, required=domain.reads_states)
    if domain.reads_states:
        start = _typed(document, "start", (str,), source)
        states = [domain.parse_state(problem, start.split("\n"), f"{source} start", 1)]
        for step in plan:
            states.append(domain.parse_state(problem, step["state"].split("\n"), f"{source} step {step['step']}", 1))
        return Solution(source, "json", states=states, lines=[1] * len(states), stated_cost=stated,
                        stated_cost_line=1 if stated is not None else None)
    moves = [domain.parse_action(problem, step["action"], f"{source} step {step['step']}", 1) for step in plan]
    return Solution(source, "json", moves=moves, lines=[1] * len(moves), stated_cost=stated,
                    stated_cost_line=1 if stated is not None else None)


def text_format(domain: Domain) -> SolutionFormat:
    return SolutionFormat(
        "text", "'heurist solve' output ('start:', 'move N: ...' with the states, the statistics)",
        write=lambda problem, result, **context: write_text(domain, problem, result, **context),
        read=lambda text, problem, source: read_text(domain, text, problem, source),
        detect=looks_like_text,
    )


def json_format(domain: Domain) -> SolutionFormat:
    return SolutionFormat(
        "json", "'heurist solve --format json' output",
        write=lambda problem, result, **context: write_json(domain, problem, result, **context),
        read=lambda text, problem, source: read_json(domain, text, problem, source),
        detect=looks_like_json,
    )
