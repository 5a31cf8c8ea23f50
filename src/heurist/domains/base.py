"""The :class:`Domain` face: what every command needs from a puzzle domain (see :mod:`heurist.domains`).

The contract is explicit (docs/domains.md has it as a table):

* **required** -- the class attributes ``name``, ``summary`` and
  ``heuristics``, the abstract methods :meth:`Domain.load`,
  :meth:`Domain.write_instance`, :meth:`Domain.format_state` and
  :meth:`Domain.draw`, and one of :meth:`Domain.parse_state` (plans read by
  their states) or :meth:`Domain.parse_action` (by their actions);
* **hooks** -- every other method and class attribute, with a default;
* **services** -- :data:`FINAL_MEMBERS`, which commands rely on and a
  domain never overrides.

A subclass that breaks the contract fails when it is defined, with one line
naming what is missing (:class:`DomainContractError`), not when a command
first needs the missing piece.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypedDict, TypeVar, final

from heurist.domains.formats import SolutionFormat, json_format, text_format
from heurist.domains.options import Option, check_options
from heurist.domains.pictures import Picture
from heurist.domains.suites import Suite
from heurist.errors import InputError
from heurist.search import HeuristicRegistry, SearchResult
from heurist.search.solutions import Solution

if TYPE_CHECKING:
    from typing import Unpack

    from heurist.domains.formats import InstanceRecord
    from heurist.scene import Scene

P = TypeVar("P")
"""The domain's problem class."""
S = TypeVar("S")
"""Its states."""
A = TypeVar("A")
"""Its actions."""


class DomainContractError(TypeError):
    """A :class:`Domain` subclass that breaks the contract: raised when the class is defined."""


class WriteContext(TypedDict, total=False):
    """What a solution writer may be told besides the problem and the result (every key optional):
    heurist's own formats take ``record`` (or ``instance``, ``options`` and ``heuristic`` to make one) and
    ``quiet``; the course formats take what their programs print (``heuristic`` as the function, the
    ``source`` file name, the ``expanded`` count, a ``note``)."""

    record: InstanceRecord
    instance: str
    options: dict[str, Any]
    heuristic: Any
    quiet: bool
    source: str
    expanded: int
    note: str


REQUIRED_ATTRIBUTES = ("name", "summary", "heuristics")
FINAL_MEMBERS = (
    "check_options", "check_generate_options", "solution_formats", "solution_format", "write_solution",
    "read_solution", "solution_help", "picture",
)
"""The services every command relies on: a domain changes what they do through the hooks, never by
overriding them."""


class Domain(ABC, Generic[P, S, A]):
    """A puzzle domain's face: what every command needs from it, generic in its problem, state and action
    types (``class TilesDomain(Domain[TilesProblem, State, Move])``).

    Required: the class attributes ``name``, ``summary``, ``heuristics``; the
    abstract methods :meth:`load`, :meth:`write_instance`,
    :meth:`format_state` and :meth:`draw`; one of :meth:`parse_state` or
    :meth:`parse_action`. Everything else is a hook with a default, except
    the services in :data:`FINAL_MEMBERS`. Three capabilities are set when
    the class is defined: :attr:`reads_states` (it implements
    :meth:`parse_state`), :attr:`can_generate` (:meth:`generate` or
    generator options) and :attr:`exports_pddl` (:meth:`export_pddl`).
    """

    reads_states: ClassVar[bool] = False
    """Plans are read back by their states (the domain implements :meth:`parse_state`), else by their actions."""
    can_generate: ClassVar[bool] = False
    """The domain has an instance generator (:meth:`generate`)."""
    exports_pddl: ClassVar[bool] = False
    """The domain writes its instances as PDDL (:meth:`export_pddl`), for ``export pddl`` and bench's planners."""

    def __init_subclass__(cls, **keywords: Any) -> None:
        super().__init_subclass__(**keywords)

        def implements(member: str) -> bool:
            return getattr(cls, member) is not getattr(Domain, member)

        overridden = [member for member in FINAL_MEMBERS if any(member in vars(klass) for klass in cls.__mro__
                                                                   if klass is not Domain and issubclass(klass, Domain))]
        if overridden:
            raise DomainContractError(f"{cls.__name__} overrides {', '.join(overridden)}: a domain changes "
                                      "these services through its hooks, never by overriding them")
        cls.reads_states = implements("parse_state")
        cls.can_generate = bool(cls.generate_options) or implements("generate")
        cls.exports_pddl = implements("export_pddl")
        if getattr(cls, "__abstractmethods__", None):
            return  # an intermediate base class: its subclasses are checked
        missing = [name for name in REQUIRED_ATTRIBUTES if getattr(cls, name, None) in (None, "")]
        if not (cls.reads_states or implements("parse_action")):
            missing.append("parse_state or parse_action")
        if missing:
            raise DomainContractError(f"{cls.__name__} is not a complete domain: it lacks {', '.join(missing)}")

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

    @abstractmethod
    def load(self, path: str | Path, **options: Any) -> P:
        """Read an instance file as a problem; bad input raises :class:`InputError` naming file and line."""

    @abstractmethod
    def write_instance(self, problem: P) -> str:
        """The instance as the text of a file that :meth:`load` reads back."""

    @final
    def check_options(self, options: dict[str, Any], source: str | None = None) -> dict[str, Any]:
        """The instance options checked against the declarations, defaults filled in."""
        return check_options(self.options, options, source)

    @final
    def check_generate_options(self, options: dict[str, Any], source: str | None = "generate") -> dict[str, Any]:
        """The generator options checked against the declarations, defaults filled in."""
        return check_options(self.generate_options, options, source, "generator option")

    def generate(self, *, seed: int = 0, count: int = 1, **options: Any) -> list[tuple[str, str]]:
        """``count`` random instances from ``seed`` as (file name, text) pairs."""
        raise InputError(f"the {self.name} domain has no instance generator")

    def plain(self, problem: P) -> P:
        """The same instance with every search-only reduction off, so that states are the real ones."""
        return problem

    def default_search(self, problem: P) -> tuple[str, str]:
        """(algorithm, heuristic) for ``heurist solve`` and ``render`` when the command line names neither.

        A* and :attr:`default_heuristic`, unless the domain knows a better pair for this instance.
        """
        return "astar", self.default_heuristic

    # ----- states and actions ------------------------------------------------------------

    @abstractmethod
    def format_state(self, problem: P, state: S) -> str:
        """A state drawn as text (the boards ``heurist solve`` prints)."""

    def parse_state(self, problem: P, lines: Sequence[str], source: str, line: int) -> S:
        """The inverse of :meth:`format_state`; ``line`` is the 1-based line of ``lines[0]``.

        Required unless the domain implements :meth:`parse_action`: domains
        whose text drawing does not determine the state (Blokus boards do not
        say which piece covers which square) read plans by their actions.
        """
        raise NotImplementedError(f"the {self.name} domain reads plans by their actions")

    def format_action(self, problem: P, action: A) -> str:
        """An action in a few words (hook: ``str(action)`` by default)."""
        return str(action)

    def parse_action(self, problem: P, text: str, source: str, line: int) -> A:
        """The inverse of :meth:`format_action`; required unless the domain implements :meth:`parse_state`."""
        raise NotImplementedError(f"the {self.name} domain reads plans by their states")

    def describe(self, problem: P) -> str:
        """A few words on the instance's rules that change the distances (a metric, a puzzle kind)."""
        return ""

    def step(self, problem: P, state: S, after: S) -> tuple[A, float] | None:
        """(action, cost) of the cheapest move from ``state`` to ``after`` among the real moves, or None."""
        steps = [(cost, index, action) for index, (action, child, cost)
                 in enumerate(self.plain(problem).successors(state)) if child == after]
        if not steps:
            return None
        cost, _, action = min(steps, key=lambda step: (step[0], step[1]))
        return action, cost

    # ----- solutions ---------------------------------------------------------------------

    @final
    @property
    def solution_formats(self) -> tuple[SolutionFormat, ...]:
        """Every solution format: heurist's ``text`` and ``json`` output, then the course formats."""
        return (json_format(self), text_format(self), *self.course_formats)

    @final
    def solution_format(self, name: str) -> SolutionFormat:
        for format in self.solution_formats:
            if format.name == name:
                return format
        names = ", ".join(format.name for format in self.solution_formats)
        raise InputError(f"unknown {self.name} solution format {name!r}; choose one of {names}")

    @final
    def write_solution(self, problem: P, result: SearchResult, format: str = "text",
                       **context: Unpack[WriteContext]) -> str:
        """A search result as a solution file in ``format`` (``text``, ``json`` or a course format);
        ``context`` is a :class:`WriteContext`."""
        return self.solution_format(format).write(problem, result, **context)

    @final
    def read_solution(self, text: str, problem: P, source: str) -> Solution:
        """A solution file in any format heurist writes or a course program prints."""
        text = text.removeprefix("\ufeff")
        for format in self.solution_formats:
            if format.detect(text):
                return format.read(text, problem, source)
        raise InputError("not a solution file heurist can read", source, 1)

    def template_values(self, problem: P, input_word: str) -> dict[str, str]:
        """Shell words for :attr:`template_placeholders` on ``problem`` (``input_word``: the test file's
        name, already quoted); hook, none by default."""
        return {}

    @final
    @property
    def solution_help(self) -> str:
        """What :meth:`read_solution` reads, in a few words (for help texts)."""
        return "; ".join(f"{format.name}: {format.description}" for format in self.solution_formats)

    # ----- pictures and spaces -----------------------------------------------------------

    @abstractmethod
    def draw(self, problem: P, states: Sequence[S], index: int = -1, *, flip: bool = False) -> Scene:
        """``states[index]`` of a plan as a :class:`~heurist.scene.Scene` (the move into it marked).

        Always the state itself, never a symmetry representative.
        """

    @final
    def picture(self, problem: P, states: Sequence[S] | None = None, index: int = -1, *,
                flip: bool = False) -> Picture:
        """A state of a plan (default: the start) as a :class:`Picture`, which notebooks show as SVG."""
        plain = self.plain(problem)
        return Picture(self, plain, list(states) if states else [plain.initial_state], index, flip=flip)

    def terminal_style(self, problem: P, state: S) -> Callable[[int, int, str], str | None] | None:
        """A rich style for each character of :meth:`format_state`'s text (row, column, char), or None."""
        return None

    def explore(self, problem: P, max_states: int) -> Any:
        """The start's component with every edge, as a :class:`~heurist.search.space.StateSpace`."""
        from heurist.search.space import explore

        return explore(problem, max_states)

    # ----- other tools -----------------------------------------------------------------

    pddl_file_suffixes: ClassVar[tuple[str, ...]] = ()
    """Instance file suffixes ``heurist export pddl`` gives this domain (``(".bwp",)``)."""

    def export_pddl(self, path: str | Path) -> dict[str, str]:
        """The instance file at ``path`` as PDDL, ``{file name: text}`` (a domain and a problem file), for
        ``heurist export pddl`` and the planners of ``heurist bench``; hook, none by default."""
        raise InputError(f"the {self.name} domain has no PDDL export")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


__all__ = ["FINAL_MEMBERS", "REQUIRED_ATTRIBUTES", "Domain", "DomainContractError", "WriteContext"]
