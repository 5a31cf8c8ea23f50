"""The :class:`Domain` face: what every command needs from a puzzle domain (see :mod:`heurist.domains`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from heurist.domains.formats import SolutionFormat, json_format, text_format
from heurist.domains.options import Option, check_options
from heurist.domains.pictures import Picture
from heurist.domains.suites import Suite
from heurist.errors import InputError
from heurist.search import HeuristicRegistry, SearchResult
from heurist.search.solutions import Solution


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
    suites: ClassVar[tuple[Suite, ...]] = ()
    """Named sets of instances for ``heurist bench`` and ``heurist grade`` (:mod:`heurist.domains.suites`)."""
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


__all__ = ["Domain"]
