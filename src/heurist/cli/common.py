"""Options, output and exit statuses shared by the subcommands."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import math
import os
import signal
from collections.abc import Iterable, Sequence
from typing import Any

from heurist.domains import Domain, Option
from heurist.errors import InputError
from heurist.files import check_writable, write_files
from heurist.search import ALGORITHMS, Limits, SearchResult, Status, search
from heurist.search.heuristics import HeuristicRegistry
from heurist.search.limits import command_time_limit, interrupt_signal
from heurist.search.statistics import format_statistics, result_as_json  # noqa: F401 - re-exported for the commands

EXIT_SOLVED = 0
EXIT_UNSOLVABLE = 1
EXIT_INPUT_ERROR = 2
EXIT_LIMIT = 3
EXIT_SIGINT = 128 + signal.SIGINT  # 130, as shells report a command ended by Ctrl-C
EXIT_SIGTERM = 128 + signal.SIGTERM  # 143

EXIT_STATUS_HELP = """exit status:
  0  solved (or the command succeeded)
  1  the instance is unsolvable: the whole reachable space was searched
  2  bad input: a malformed file or option, or an output that cannot be written
     (one line on stderr says where)
  3  a limit (--max-expansions, --time-limit, --memory-limit) ended the search
  130, 143  interrupted by SIGINT (Ctrl-C) or SIGTERM; a search prints its statistics so far"""


def interrupted_exit() -> int:
    """130 or 143: the exit status for the signal that interrupted the last search (130 if none did)."""
    return 128 + (interrupt_signal() or signal.SIGINT)


class _ExitByStatus(dict):
    """``EXIT_BY_STATUS[result.status]``; an interrupted search gives 130 or 143, by its signal."""

    def __missing__(self, status: Status) -> int:
        if status is Status.INTERRUPTED:
            return interrupted_exit()
        raise KeyError(status)


EXIT_BY_STATUS = _ExitByStatus({
    Status.SOLVED: EXIT_SOLVED,
    Status.UNSOLVABLE: EXIT_UNSOLVABLE,
    Status.LIMIT_REACHED: EXIT_LIMIT,
})


class ArgumentParser(argparse.ArgumentParser):
    """heurist's argument parser: a bad command line gives one line on stderr and exit status 2.

    argparse prints the usage and then the error; heurist prints just
    ``heurist: COMMAND: MESSAGE`` (``--help`` still shows the usage), and
    suggests the nearest option for a misspelled one. Subparsers are made with
    their parent's class, so setting it on the top parser covers every command.
    """

    def error(self, message: str):
        command = self.prog.removeprefix("heurist").strip() or None
        self.exit(EXIT_INPUT_ERROR, f"heurist: {InputError(message, command)}\n")  # escaped and cut as any

    def parse_args(self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None):
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:
            parser = self._innermost(namespace)
            parser.error(f"unrecognized arguments: {' '.join(extras)}{self._suggestion(extras, namespace)}")
        return namespace

    def _chain(self, namespace: argparse.Namespace) -> list[argparse.ArgumentParser]:
        """This parser and the subcommand parsers the command line chose, outermost first."""
        chain: list[argparse.ArgumentParser] = [self]
        while True:
            actions = [a for a in chain[-1]._actions if isinstance(a, argparse._SubParsersAction)]
            chosen = [a.choices[getattr(namespace, a.dest, None)] for a in actions
                      if getattr(namespace, a.dest, None) in a.choices]
            if not chosen:
                return chain
            chain.append(chosen[0])

    def _innermost(self, namespace: argparse.Namespace) -> argparse.ArgumentParser:
        return self._chain(namespace)[-1]

    def _suggestion(self, extras: list[str], namespace: argparse.Namespace) -> str:
        options = [option for parser in self._chain(namespace) for option in parser._option_string_actions]
        for word in extras:
            if word.startswith("-") and len(word) > 2:
                matches = difflib.get_close_matches(word.split("=", 1)[0], options, n=1, cutoff=0.6)
                if matches:
                    return f" (did you mean {matches[0]}?)"
        return ""


def add_search_arguments(
    parser: argparse.ArgumentParser, heuristics: HeuristicRegistry, default_heuristic: str
) -> None:
    """--algo, --heuristic, --weight and the limits.

    Both defaults are settled once the instance is loaded (:func:`settle_search`): when neither is given,
    the domain may prefer another pair for the instance (IDA* with pattern databases for a 15-puzzle).
    """
    group = parser.add_argument_group("search")
    group.add_argument(
        "--algo",
        "-a",
        choices=list(ALGORITHMS),
        default=None,
        help="search algorithm (default: astar, or the domain's choice for the instance when -H is not given "
             "either)",
    )
    names = heuristics.help_names()
    group.add_argument(
        "--heuristic",
        "-H",
        default=None,
        metavar="NAME",
        help=f"one of: {names}; or FILE.py:FUNCTION or MODULE:FUNCTION (default: {default_heuristic}, "
             "or the domain's choice for the instance when --algo is not given either)",
    )
    group.add_argument(
        "--weight", "-w", type=finite_weight, default=2.0, help="weight of wastar's h (default: %(default)s)"
    )
    add_limit_arguments(parser, whole_run=True)


def add_limit_arguments(parser: argparse.ArgumentParser, *, whole_run: bool = False) -> None:
    """--max-expansions, --time-limit and --memory-limit.

    ``whole_run=True``: the time limit bounds the whole command (loading the
    instance and preparing the heuristic included), from when the arguments
    are parsed; :func:`limits_from` then gives the search what is left.
    """
    group = parser.add_argument_group("limits (reaching one ends the search cleanly, exit status 3)")
    group.add_argument("--max-expansions", type=positive_int, metavar="N", help="stop after N expansions")
    group.add_argument(
        "--time-limit", type=positive_seconds, metavar="SECONDS",
        action=_WholeRunTimeLimit if whole_run else "store",
        help="stop after this many CPU seconds" + (" (of the whole run: loading and preparation count)"
                                                   if whole_run else ""),
    )
    group.add_argument(
        "--memory-limit", type=memory_limit_mib, metavar="MIB",
        help="stop when the process uses this much memory (default: half of the machine's memory, "
             f"{default_memory_limit():,.0f} MiB here; 'none' lifts it)",
    )


class _WholeRunTimeLimit(argparse.Action):
    """Stores --time-limit and starts the command's clock: loading and preparation count against it."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        namespace.run_clock = command_time_limit(values)


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits of the command line; a whole-run time limit gives what is left of it."""
    time_limit = args.time_limit
    run_clock = getattr(args, "run_clock", None)
    if time_limit is not None and run_clock is not None:
        time_limit = run_clock.remaining()
    memory = args.memory_limit if args.memory_limit is not None else default_memory_limit()
    return Limits(max_expansions=args.max_expansions, time_limit=time_limit,
                  memory_limit=None if memory == math.inf else memory)


def default_memory_limit() -> float:
    """The memory ceiling of a search the command line does not bound: half of the machine's memory (or of
    the container's, when a cgroup limits it), so that a runaway search stops with its statistics before it
    takes the machine down. ``--memory-limit none`` lifts it."""
    total = physical_memory_mib()
    return round(total / 2) if total else math.inf


def settle_search(domain: Domain, problem: Any, args: argparse.Namespace) -> None:
    """Fill in --algo and --heuristic when the command line left them out.

    Neither given: the domain's choice for this instance (:meth:`Domain.default_search`, A* and the domain's
    default heuristic unless it knows better); one given: the usual default for the other.
    """
    if args.algo is None and args.heuristic is None:
        args.algo, args.heuristic = domain.default_search(problem)
    if args.algo is None:
        args.algo = "astar"
    if args.heuristic is None:
        args.heuristic = domain.default_heuristic


def run_search(problem: Any, args: argparse.Namespace, heuristics: HeuristicRegistry,
               domain: Domain | None = None) -> SearchResult:
    """Search as the command line says; a live progress line on a terminal unless --quiet."""
    if domain is not None:
        settle_search(domain, problem, args)
    heuristic = heuristics.resolve(args.heuristic)
    if not 1 <= args.weight < math.inf:
        raise InputError(f"expected a finite number of at least 1, got {args.weight!r}", "--weight")
    return search(problem, args.algo, heuristic, weight=args.weight, limits=limits_from(args),
                  progress=not getattr(args, "quiet", False))


def add_domain_options(parser: argparse.ArgumentParser, domain: Domain, *, search_only: bool = True,
                       title: str | None = None) -> None:
    """The domain's declared instance options as arguments; ``search_only=False`` leaves those out."""
    add_option_arguments(parser, domain.options, title or f"{domain.name} instance",
                         skip=() if search_only else tuple(o.name for o in domain.options if o.search_only))


def add_option_arguments(parser: argparse.ArgumentParser, options: Iterable[Option], title: str,
                         skip: tuple[str, ...] = ()) -> None:
    """Declared :class:`~heurist.domains.Option` records as argparse arguments (defaults left to the domain)."""
    options = [option for option in options if option.name not in skip]
    if not options:
        return
    group = parser.add_argument_group(title)
    for option in options:
        spellings = [option.flag, *option.flags]
        if option.nargs == 0:
            group.add_argument(*spellings, dest=option.name, action=argparse.BooleanOptionalAction,
                               default=None, help=option.help)
            continue
        group.add_argument(
            *spellings, dest=option.name, type=_word_converter(option), default=None, help=option.help,
            choices=option.choices, metavar=option.metavar, nargs=option.nargs if option.nargs > 1 else None,
        )


def _word_converter(option: Option):
    def convert(word: str) -> Any:
        try:
            return option.convert_word(word)
        except InputError as error:
            raise argparse.ArgumentTypeError(error.message) from None

    convert.__name__ = option.name
    return convert


def option_values(args: argparse.Namespace, options: Iterable[Option]) -> dict[str, Any]:
    """The keyword values of the declared options the command line gave (the rest keep the domain's defaults)."""
    values = {}
    for option in options:
        value = getattr(args, option.name, None)
        if value is not None:
            values[option.name] = list(value) if option.nargs > 1 else value
    return values


def domain_examples_epilog(command: str, domains: Iterable[Domain]) -> str:
    """A command's help epilog: the first example of each domain, and where the others are."""
    firsts = [f"  {domain.examples[command][0]}" for domain in domains if domain.examples.get(command)]
    return (
        "examples:\n" + "\n".join(firsts)
        + f"\n\n'heurist {command} DOMAIN --help' lists the domain's options, with more examples."
    )


def domain_examples(domain: Domain, command: str) -> str:
    """The ``examples:`` block of a domain's help for ``command`` (empty when it has none)."""
    lines = domain.examples.get(command, [])
    return "examples:\n" + "".join(f"  {line}\n" for line in lines) + "\n" if lines else ""


def _number_converter(kind, expectation: str, accept, name: str):
    """An argparse ``type`` that gives ``argument --OPTION: expected EXPECTATION, got 'TEXT'`` when refused."""

    def convert(text: str):
        try:
            value = kind(text.strip())
        except (ValueError, OverflowError):
            value = None
        if value is None or not accept(value):
            raise argparse.ArgumentTypeError(f"expected {expectation}, got {text!r}")
        return value

    convert.__name__ = name
    return convert


positive_int = _number_converter(int, "a positive whole number", lambda value: value > 0, "positive_int")
"""argparse ``type``: a whole number > 0."""

whole_number = _number_converter(int, "a whole number", lambda value: True, "whole_number")
"""argparse ``type``: any whole number (a seed)."""

positive_float = _number_converter(
    float, "a positive number", lambda value: 0 < value < math.inf, "positive_float"
)
"""argparse ``type``: a finite number > 0 (``nan`` and ``inf`` are refused)."""

positive_seconds = _number_converter(
    float, "a positive number of seconds", lambda value: 0 < value < math.inf, "positive_seconds"
)
"""argparse ``type``: a time limit or budget, a finite number of seconds > 0."""

def memory_limit_mib(text: str) -> float:
    """argparse ``type`` of --memory-limit: a positive number of MiB, or ``none`` (no ceiling: math.inf)."""
    if text.strip().lower() in ("none", "off", "unlimited"):
        return math.inf
    return positive_mib(text)


def physical_memory_mib() -> float | None:
    """The machine's memory in MiB, or the cgroup's limit when that is lower; None if unknown."""
    found = []
    with contextlib.suppress(ValueError, OSError, AttributeError):
        found.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 20)
    for path in _cgroup_limit_files():
        try:
            with open(path, "rb") as stream:
                text = stream.read(64).strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:
            found.append(int(text) / 2 ** 20)
    return min(found) if found else None


def _cgroup_limit_files() -> list[str]:
    """The memory limit files of this process's cgroup (v2 and v1), as /proc/self/cgroup names them."""
    files = []
    try:
        with open("/proc/self/cgroup", encoding="ascii", errors="replace") as stream:
            lines = stream.read(65536).splitlines()
    except OSError:
        return files
    for line in lines:
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number == "0" and not controllers:
            files.append(f"/sys/fs/cgroup{path.rstrip('/')}/memory.max")
        elif "memory" in controllers.split(","):
            files.append(f"/sys/fs/cgroup/memory{path.rstrip('/')}/memory.limit_in_bytes")
    return files


positive_mib = _number_converter(
    float, "a positive number of MiB", lambda value: 0 < value < math.inf, "positive_mib"
)
"""argparse ``type``: a memory limit, a finite number of MiB > 0."""

finite_weight = _number_converter(
    float, "a finite number of at least 1", lambda value: 1 <= value < math.inf, "finite_weight"
)
"""argparse ``type``: weighted A*'s weight, finite and >= 1."""



RENDER_HELP = (
    "also draw the plan (or the start, when unsolved); the format follows the extension: "
    ".svg or .png (the final state), .gif (one frame per move), .html (a viewer)"
)


def add_render_arguments(parser: argparse.ArgumentParser | Any, *, flip: bool = False) -> None:
    """``--render FILE`` (and, for boards drawn row 0 at the bottom, ``--flip``)."""
    parser.add_argument("--render", metavar="FILE", help=RENDER_HELP)
    if flip:
        parser.add_argument(
            "--flip", action="store_true",
            help="with --render: draw row 0 at the top (default: at the bottom, as the course's pictures do)",
        )


def check_render_target(args: argparse.Namespace) -> None:
    """Reject an unknown picture extension, or a path that cannot be written, before any search runs."""
    if getattr(args, "render", None):
        from heurist.render import output_format  # imported here: only pictures need it

        output_format(args.render)
        check_writable(args.render)


def render_result(
    domain: Domain,
    problem: Any,
    result: SearchResult,
    args: argparse.Namespace,
    *,
    title: str,
    heuristic: Any = None,
    optimal: bool = False,
) -> None:
    """Draw ``result``'s plan (the start when unsolved) to ``args.render``, if it was asked for."""
    write_files(render_files(domain, problem, result, args, title=title, heuristic=heuristic, optimal=optimal),
                check=False)


def render_files(
    domain: Domain,
    problem: Any,
    result: SearchResult,
    args: argparse.Namespace,
    *,
    title: str,
    heuristic: Any = None,
    optimal: bool = False,
) -> list[tuple[str, bytes]]:
    """``[(args.render, picture)]`` for :func:`~heurist.files.write_files` with a command's other outputs
    (all or nothing), or ``[]`` when no picture was asked for."""
    if not getattr(args, "render", None):
        return []
    from heurist.render import plan_picture  # imported here: Pillow is only needed for pictures

    states = result.states if result.solved else [domain.plain(problem).initial_state]
    data = plan_picture(
        domain,
        problem,
        states,
        result.statistics,
        args.render,
        actions=result.actions if result.solved else [],
        heuristic=heuristic,
        optimal=optimal and result.solved,
        flip=getattr(args, "flip", False),
        title=title,
    )
    return [(args.render, data)]
