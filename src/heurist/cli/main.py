"""Entry point of the ``heurist`` command.

Subcommands are discovered: every module in :mod:`heurist.cli` that defines
``register(subparsers)`` adds its own. Each handler returns an exit status.
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
from heurist.cli.common import EXIT_INPUT_ERROR, EXIT_STATUS_HELP
from heurist.errors import InputError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="heurist",
        description="Heuristic state-space search on puzzles: solve, check and compare.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'heurist COMMAND --help' for the options and examples of a command.\n\n"
        + EXIT_STATUS_HELP,
    )
    parser.add_argument("--version", action="version", version=f"heurist {heurist.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = []
    for info in pkgutil.iter_modules(heurist.cli.__path__):
        module = importlib.import_module(f"heurist.cli.{info.name}")
        if hasattr(module, "register"):
            modules.append(module)
    for module in sorted(modules, key=lambda m: (getattr(m, "ORDER", 50), m.__name__)):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_INPUT_ERROR
    try:
        return int(args.handler(args) or 0)
    except InputError as error:
        print(f"heurist: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt:
        print("heurist: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `heurist ... | head`)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0


if __name__ == "__main__":  # pragma: no cover - the console script calls main()
    sys.exit(main())
