"""Entry point of the ``heurist`` command.

Subcommands are discovered: every module in :mod:`heurist.cli` that defines
``register(subparsers)`` adds its own, the subcommand named like the module.
Each handler returns an exit status. When the command line names a
subcommand, only its module is imported: the course front ends, which test
scripts call many times, then start in a third of the time.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

import heurist
import heurist.cli
from heurist.cli.common import EXIT_INPUT_ERROR, EXIT_LIMIT, EXIT_STATUS_HELP
from heurist.errors import InputError
from heurist.search.limits import SearchStopped


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``heurist`` parser with every subcommand, or with ``command``'s alone when it names one."""
    parser = argparse.ArgumentParser(
        prog="heurist",
        description="Heuristic state-space search on puzzles: solve, check and compare.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'heurist COMMAND --help' for the options and examples of a command.\n\n"
        + EXIT_STATUS_HELP,
    )
    parser.add_argument("--version", action="version", version=f"heurist {heurist.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules(command):
        module.register(subparsers)
    return parser


def command_modules(command: str | None = None) -> list:
    """The modules defining subcommands, in help order; just ``command``'s when it names one."""
    names = [info.name for info in pkgutil.iter_modules(heurist.cli.__path__)]
    if command in names:
        module = importlib.import_module(f"heurist.cli.{command}")
        if hasattr(module, "register"):
            return [module]
    modules = [importlib.import_module(f"heurist.cli.{name}") for name in names]
    modules = [module for module in modules if hasattr(module, "register")]
    return sorted(modules, key=lambda m: (getattr(m, "ORDER", 50), m.__name__))


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_INPUT_ERROR
    try:
        return int(args.handler(args) or 0)
    except InputError as error:
        print(f"heurist: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt:  # outside a search, which ends with status interrupted instead
        print("heurist: interrupted", file=sys.stderr)
        return 130
    except SearchStopped as stopped:  # the whole-run time limit, reached before the search began
        print(f"heurist: {stopped} before the search began", file=sys.stderr)
        return EXIT_LIMIT
    except BrokenPipeError:  # the reader went away (e.g. `heurist ... | head`)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0


if __name__ == "__main__":  # pragma: no cover - the console script calls main()
    sys.exit(main())
