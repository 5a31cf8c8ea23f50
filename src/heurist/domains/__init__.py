"""Puzzle domains: one package each, one face, found through entry points.

A domain is an instance of a :class:`Domain` subclass, published by its
package as ``DOMAIN`` and registered in the ``heurist.domains`` entry-point
group (``pyproject.toml``)::

    [project.entry-points."heurist.domains"]
    tiles = "heurist.domains.tiles:DOMAIN"

so that a package of its own can add a domain without touching heurist.
Every command (``solve``, ``generate``, ``check``, ``validate``, ``render``,
``bench``) works through this face alone:

* typed **options**, declared once as :class:`Option` records; Python callers
  pass them as keywords (``domain.load(path, metric="slide")``,
  ``domain.generate(seed=1, count=10, blocks=8)``), and the command line
  builds its arguments from the same declarations;
* **formats in pairs**: ``load``/``write_instance`` for instances,
  ``format_state``/``parse_state`` and ``format_action``/``parse_action`` for
  states and moves, and :class:`SolutionFormat` records (a writer beside its
  reader) for every solution file heurist writes or a course program prints;
* **drawing**: ``draw(problem, states, index)`` returns the
  :class:`~heurist.scene.Scene` that SVG, PNG, GIF, HTML and the terminal show;
* **hooks** that only some domains need, with defaults here: ``plain`` (the
  instance without search-only reductions such as Klotski's mirror
  symmetry), ``explore`` (a faster enumeration of the state space),
  ``describe`` (the rules that change distances), ``terminal_style``.

See ``docs/domains.md`` for a walk through adding one.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from heurist.domains.formats import SolutionFormat, json_format, text_format
from heurist.errors import InputError
from heurist.search import HeuristicRegistry, SearchResult
from heurist.search.solutions import Solution

ENTRY_POINT_GROUP = "heurist.domains"


@dataclass(frozen=True)
class Option:
    """One domain option, declared once for keywords and the command line.

    ``name`` is the keyword (``board_size``) and, with dashes, the long flag
    (``--board-size``); ``flags`` adds short spellings (``-s``). ``type``
    converts one command-line word; ``nargs`` is how many words the option
    takes (0 for an on/off switch, whose ``--no-`` form turns it off).
    ``search_only`` options change which states a search visits but not the
    puzzle (Klotski's mirror reduction): checks, replays and pictures switch
    them off to see every real state. ``minimum`` and ``maximum`` bound a
    number (each number, for an option of several): a generator asked for a
    board of 10^20 rows gets one line, not a MemoryError.
    """

    name: str
    help: str
    type: Callable[[str], Any] = str
    default: Any = None
    choices: tuple[str, ...] | None = None
    flags: tuple[str, ...] = ()
    nargs: int = 1
    metavar: str | tuple[str, ...] | None = None
    search_only: bool = False
    minimum: float | None = None
    maximum: float | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.flag, *self.flags)

    def convert_word(self, word: str, source: str | None = None) -> Any:
        """One command-line word converted by ``type``; a bad word is an :class:`InputError`."""
        try:
            value = self.type(word)
        except (TypeError, ValueError) as error:
            detail = f": {error}" if isinstance(error, InputError) else ""
            raise InputError(f"{word!r} is not a valid value for {self.flag}{detail}", source) from None
        return value

    def check(self, value: Any, source: str | None = None) -> Any:
        """A keyword value checked and converted; ``None`` gives the default."""
        if value is None:
            return self.default
        if self.nargs == 0:
            if not isinstance(value, bool):
                raise InputError(f"{self.flag} is a switch: give True or False, not {value!r}", source)
            return value
        if self.nargs > 1:
            if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != self.nargs:
                raise InputError(f"{self.flag} takes {self.nargs} values, not {value!r}", source)
            values = tuple(self.convert_word(v, source) if isinstance(v, str) else v for v in value)
            for number in values:
                self._check_bounds(number, source)
            return values
        if isinstance(value, str) and self.type is not str:
            value = self.convert_word(value, source)
        if self.choices is not None and value not in self.choices:
            raise InputError(f"{self.flag}: {value!r} is not one of {', '.join(self.choices)}", source)
        self._check_bounds(value, source)
        return value

    def _check_bounds(self, value: Any, source: str | None) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return
        def shown(number: float) -> str:
            text = f"{number:,}" if float(number).is_integer() and abs(number) < 1e15 else f"{number:g}"
            return text if len(text) <= 20 else f"{number:.3g}"

        if self.minimum is not None and not value >= self.minimum:
            raise InputError(f"{self.flag} must be at least {shown(self.minimum)}, not {shown(value)}", source)
        if self.maximum is not None and not value <= self.maximum:
            raise InputError(f"{self.flag} must be at most {shown(self.maximum)}, not {shown(value)}", source)


def check_options(declared: Iterable[Option], given: dict[str, Any], source: str | None = None,
                  what: str = "option") -> dict[str, Any]:
    """Every declared option's value (defaults filled in); an undeclared keyword is an InputError."""
    by_name = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        choices = ", ".join(by_name) or "none"
        raise InputError(f"unknown {what} {unknown[0]!r}; the options are: {choices}", source)
    return {name: option.check(given.get(name), source) for name, option in by_name.items()}


def parse_words(declared: Iterable[Option], words: Sequence[str], source: str | None = None) -> dict[str, Any]:
    """Options given as command-line words (``["--metric", "slide"]``) as keywords.

    For options written inside other files or options (bench suites,
    ``check --generate-options``), where the command line's parser is not
    at hand. Only the words that are given appear in the result.
    """
    by_spelling: dict[str, tuple[Option, bool]] = {}
    for option in declared:
        for spelling in option.spellings:
            by_spelling[spelling] = (option, True)
        if option.nargs == 0:
            by_spelling["--no-" + option.flag[2:]] = (option, False)
    values: dict[str, Any] = {}
    index = 0
    while index < len(words):
        word = words[index]
        if word not in by_spelling:
            known = ", ".join(sorted(spelling for spelling in by_spelling if spelling.startswith("--")))
            raise InputError(f"unknown option {word!r}; the options are: {known or 'none'}", source)
        option, on = by_spelling[word]
        if option.nargs == 0:
            values[option.name] = on
            index += 1
            continue
        given = words[index + 1:index + 1 + option.nargs]
        if len(given) < option.nargs or any(w.startswith("--") for w in given):
            raise InputError(f"{word} takes {option.nargs} value{'s' if option.nargs > 1 else ''}", source)
        converted = [option.convert_word(w, source) for w in given]
        values[option.name] = option.check(converted if option.nargs > 1 else converted[0], source)
        index += 1 + option.nargs
    return values


class Domain:
    """A puzzle domain's face: what every command needs from it.

    Subclasses set the class attributes and implement :meth:`load`,
    :meth:`write_instance`, :meth:`format_state`, :meth:`format_action`
    and :meth:`draw`; the remaining methods are hooks with defaults.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    heuristics: ClassVar[HeuristicRegistry]
    default_heuristic: ClassVar[str] = "zero"
    options: ClassVar[tuple[Option, ...]] = ()
    """Instance options of ``load`` (and of ``heurist solve DOMAIN``)."""
    generate_options: ClassVar[tuple[Option, ...]] = ()
    """Options of ``generate`` besides ``seed`` and ``count``; none means the domain has no generator."""
    small_instances: ClassVar[dict[str, Any]] = {}
    """Generator keywords that keep state spaces small enough to enumerate (``check --generated``)."""
    examples: ClassVar[dict[str, list[str]]] = {}
    """Example command lines by command (``solve``, ``check``, ``validate``, ``render``, ``generate``)."""
    course_formats: ClassVar[tuple[SolutionFormat, ...]] = ()
    """The course programs' solution formats, besides heurist's own ``text`` and ``json``."""
    flips: ClassVar[bool] = False
    """Pictures put row 0 at the bottom, as the course's do, unless asked to flip."""
    legend: ClassVar[tuple[tuple[str, str], ...]] = ()
    """(label, colour) pairs the HTML viewer shows under the board."""
    template_placeholders: ClassVar[dict[str, str]] = {}
    """Placeholders of ``heurist grade``'s command templates that this domain fills, and what each becomes
    (the course's command line asks for them: Blokus's ``-s {size} -x {start}``); see :meth:`template_values`."""

    # ----- instances ---------------------------------------------------------------------

    def load(self, path: str | Path, **options: Any) -> Any:
        """Read an instance file as a problem; bad input raises :class:`InputError` naming file and line."""
        raise NotImplementedError

    def write_instance(self, problem: Any) -> str:
        """The instance as the text of a file that :meth:`load` reads back."""
        raise NotImplementedError

    def check_options(self, options: dict[str, Any], source: str | None = None) -> dict[str, Any]:
        """The instance options checked against the declarations, defaults filled in."""
        return check_options(self.options, options, source)

    def check_generate_options(self, options: dict[str, Any], source: str | None = "generate") -> dict[str, Any]:
        """The generator options checked against the declarations, defaults filled in."""
        return check_options(self.generate_options, options, source, "generator option")

    @property
    def can_generate(self) -> bool:
        return bool(self.generate_options) or type(self).generate is not Domain.generate

    def generate(self, *, seed: int = 0, count: int = 1, **options: Any) -> list[tuple[str, str]]:
        """``count`` random instances from ``seed`` as (file name, text) pairs."""
        raise InputError(f"the {self.name} domain has no instance generator")

    def default_search(self, problem: Any) -> tuple[str, str]:
        """(algorithm, heuristic) for ``heurist solve`` and ``render`` when the command line names neither.

        A* and :attr:`default_heuristic`, unless the domain knows a better pair for this instance.
        """
        return "astar", self.default_heuristic

    def plain(self, problem: Any) -> Any:
        """The same instance with every search-only reduction off, so that states are the real ones."""
        return problem

    # ----- states and actions ------------------------------------------------------------

    def format_state(self, problem: Any, state: Any) -> str:
        """A state drawn as text (the boards ``heurist solve`` prints)."""
        raise NotImplementedError

    def parse_state(self, problem: Any, lines: Sequence[str], source: str, line: int) -> Any:
        """The inverse of :meth:`format_state`; ``line`` is the 1-based line of ``lines[0]``.

        Domains whose text drawing does not determine the state (Blokus boards
        do not say which piece covers which square) leave this unimplemented
        and read plans by their actions instead.
        """
        raise NotImplementedError

    @property
    def reads_states(self) -> bool:
        return type(self).parse_state is not Domain.parse_state

    def format_action(self, problem: Any, action: Any) -> str:
        """An action in a few words."""
        return str(action)

    def parse_action(self, problem: Any, text: str, source: str, line: int) -> Any:
        """The inverse of :meth:`format_action`, for domains that read plans by their actions."""
        raise NotImplementedError

    def describe(self, problem: Any) -> str:
        """A few words on the instance's rules that change the distances (a metric, a puzzle kind)."""
        return ""

    def step(self, problem: Any, state: Any, after: Any) -> tuple[Any, float] | None:
        """(action, cost) of the cheapest move from ``state`` to ``after`` among the real moves, or None."""
        steps = [(cost, index, action) for index, (action, child, cost)
                 in enumerate(self.plain(problem).successors(state)) if child == after]
        if not steps:
            return None
        cost, _, action = min(steps, key=lambda step: (step[0], step[1]))
        return action, cost

    # ----- solutions ---------------------------------------------------------------------

    @property
    def solution_formats(self) -> tuple[SolutionFormat, ...]:
        """Every solution format: heurist's ``text`` and ``json`` output, then the course formats."""
        return (json_format(self), text_format(self), *self.course_formats)

    def solution_format(self, name: str) -> SolutionFormat:
        for format in self.solution_formats:
            if format.name == name:
                return format
        names = ", ".join(format.name for format in self.solution_formats)
        raise InputError(f"unknown {self.name} solution format {name!r}; choose one of {names}")

    def write_solution(self, problem: Any, result: SearchResult, format: str = "text", **context: Any) -> str:
        """A search result as a solution file in ``format`` (``text``, ``json`` or a course format)."""
        return self.solution_format(format).write(problem, result, **context)

    def read_solution(self, text: str, problem: Any, source: str) -> Solution:
        """A solution file in any format heurist writes or a course program prints."""
        text = text.removeprefix("\ufeff")
        for format in self.solution_formats:
            if format.detect(text):
                return format.read(text, problem, source)
        raise InputError("not a solution file heurist can read", source, 1)

    def template_values(self, problem: Any, input_word: str) -> dict[str, str]:
        """Shell words for :attr:`template_placeholders` on ``problem`` (``input_word``: the test file's
        name, already quoted); hook, none by default."""
        return {}

    @property
    def solution_help(self) -> str:
        """What :meth:`read_solution` reads, in a few words (for help texts)."""
        return "; ".join(f"{format.name}: {format.description}" for format in self.solution_formats)

    # ----- pictures and spaces -----------------------------------------------------------

    def draw(self, problem: Any, states: Sequence[Any], index: int = -1, *, flip: bool = False) -> Any:
        """``states[index]`` of a plan as a :class:`~heurist.scene.Scene` (the move into it marked).

        Always the state itself, never a symmetry representative.
        """
        raise NotImplementedError

    def picture(self, problem: Any, states: Sequence[Any] | None = None, index: int = -1, *,
                flip: bool = False) -> Picture:
        """A state of a plan (default: the start) as a :class:`Picture`, which notebooks show as SVG."""
        plain = self.plain(problem)
        return Picture(self, plain, list(states) if states else [plain.initial_state], index, flip=flip)

    def terminal_style(self, problem: Any, state: Any) -> Callable[[int, int, str], str | None] | None:
        """A rich style for each character of :meth:`format_state`'s text (row, column, char), or None."""
        return None

    def explore(self, problem: Any, max_states: int) -> Any:
        """The start's component with every edge, as a :class:`~heurist.search.space.StateSpace`."""
        from heurist.search.space import explore

        return explore(problem, max_states)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class Picture:
    """A state of a plan drawn by its domain; Jupyter shows it (``_repr_svg_``), as python-chess shows boards."""

    def __init__(self, domain: Domain, problem: Any, states: Sequence[Any], index: int = -1, *, flip: bool = False):
        self.domain, self.problem, self.states, self.index, self.flip = domain, problem, list(states), index, flip

    def svg(self) -> str:
        from heurist.scene import to_svg

        return to_svg(self.domain.draw(self.problem, self.states, self.index, flip=self.flip))

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return self.domain.format_state(self.problem, self.states[self.index])


class ShowsItself:
    """Mixin of problem classes: a problem shows its start in a notebook, drawn by its domain.

    ``domain_name`` names the registered domain that draws it.
    """

    domain_name: ClassVar[str] = ""

    def picture(self, state: Any = None) -> Picture:
        """``state`` (default: the start) drawn as the domain draws it; a real state, not a representative."""
        domain = get_domain(self.domain_name)
        plain = domain.plain(self)
        return Picture(domain, plain, [plain.initial_state if state is None else state])

    def _repr_svg_(self) -> str:
        return self.picture().svg()


# ----- discovery -----------------------------------------------------------------------------

_BUILT_IN = ("blocksworld", "blokus", "klotski", "tiles")


@functools.lru_cache(maxsize=1)
def _entry_points() -> dict[str, Any]:
    """Entry points by domain name; the built-in packages also when run from a bare source tree.

    An entry point into ``heurist.domains`` whose package this heurist does not
    have (metadata installed from another checkout) is left out, rather than
    breaking every command when it is imported. Reading the installed
    packages' metadata takes longer than a small search, so only the commands
    that list domains, or name one that is not built in, come here.
    """
    import importlib.metadata  # here, not at the top: slow to import, and most commands never need it

    found: dict[str, Any] = {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        module = entry.value.partition(":")[0].strip()
        if module.startswith(f"{__name__}.") and importlib.util.find_spec(module) is None:
            continue
        found[entry.name] = entry
    for name in _BUILT_IN:
        if name not in found and importlib.util.find_spec(f"{__name__}.{name}") is not None:
            found[name] = f"{__name__}.{name}"
    return found


def domain_names() -> list[str]:
    """Names of the registered domains, sorted."""
    return sorted(_entry_points())


def get_domain(name: str) -> Domain:
    """The registered domain ``name``; an unknown name is an InputError listing the choices.

    A built-in domain is imported directly, without the entry-point scan
    (heurist's own entry points name the same packages); any other name is
    looked up among the installed packages' entry points.
    """
    if name in _BUILT_IN and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        entry: Any = f"{__name__}.{name}"
    else:
        entries = _entry_points()
        if name not in entries:
            raise InputError(f"unknown domain {name!r}; choose one of {', '.join(sorted(entries))}")
        entry = entries[name]
    domain = importlib.import_module(entry).DOMAIN if isinstance(entry, str) else entry.load()
    if not isinstance(domain, Domain):
        raise InputError(f"the entry point of domain {name!r} is not a heurist Domain")
    return domain


def all_domains() -> list[Domain]:
    return [get_domain(name) for name in domain_names()]


def named_domains(words: Sequence[str], keep: Callable[[Domain], bool] = lambda domain: True) -> list[Domain]:
    """The domain a command line names, alone, or else every domain that ``keep`` accepts.

    ``words`` are the command line after the subcommand (``heurist solve
    klotski FILE`` gives ``["klotski", "FILE"]``). Commands whose first
    argument is a domain register just that domain's parser when the name is
    a domain's: only its package is imported, and the others' packages and
    the entry-point scan are left out. Anything else (``--help``, a
    misspelt name) gets every domain, so that the help and the error list
    them all.
    """
    if words and not words[0].startswith("-"):
        try:
            domain = get_domain(words[0])
        except InputError:
            domain = None
        if domain is not None and keep(domain):
            return [domain]
    return [domain for domain in all_domains() if keep(domain)]


__all__ = [
    "ENTRY_POINT_GROUP",
    "Domain",
    "Option",
    "Picture",
    "ShowsItself",
    "SolutionFormat",
    "all_domains",
    "check_options",
    "domain_names",
    "get_domain",
    "named_domains",
    "parse_words",
]
