"""Entry point of the ``heurist`` command.

Subcommands are discovered: every module in :mod:`heurist.cli` that defines
``register(subparsers)`` adds its own, the subcommand named like the module.
Each handler returns an exit status. When the command line names a
subcommand, only its module is imported: the course front ends, which test
scripts call many times, then start in a third of the time.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import importlib.util
import os
import signal
import sys
from collections.abc import Sequence

import heurist
import heurist.cli
from heurist.cli.common import (
    EXIT_INPUT_ERROR,
    EXIT_LIMIT,
    EXIT_SIGINT,
    EXIT_SIGTERM,
    EXIT_STATUS_HELP,
    ArgumentParser,
)
from heurist.errors import InputError
from heurist.search.limits import SearchStopped, leave_memory_to_exit, memory_left_to_exit


def build_parser(command: str | None = None, words: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The ``heurist`` parser with every subcommand, or with ``command``'s alone when it names one.

    ``words`` are the command line after ``command``: subcommands whose first
    argument is a domain (``DOMAIN_ARGUMENT = True``) read the domain's name
    from them and register that domain alone.
    """
    parser = ArgumentParser(
        prog="heurist",
        description="Heuristic state-space search on puzzles: solve, check and compare.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'heurist COMMAND --help' for the options and examples of a command.\n\n"
        + EXIT_STATUS_HELP,
    )
    parser.add_argument("--version", action="version", version=f"heurist {heurist.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules(command):
        if getattr(module, "DOMAIN_ARGUMENT", False) and module.__name__ == f"heurist.cli.{command}":
            module.register(subparsers, words)
        else:
            module.register(subparsers)
    return parser


def command_modules(command: str | None = None) -> list:
    """The modules defining subcommands, in help order; just ``command``'s when it names one."""
    if command and command.isidentifier() and importlib.util.find_spec(f"heurist.cli.{command}") is not None:
        module = importlib.import_module(f"heurist.cli.{command}")
        if hasattr(module, "register"):
            return [module]
    import pkgutil  # listing the package is needed only when no command is named

    names = [info.name for info in pkgutil.iter_modules(heurist.cli.__path__)]
    modules = [importlib.import_module(f"heurist.cli.{name}") for name in names]
    modules = [module for module in modules if hasattr(module, "register")]
    return sorted(modules, key=lambda m: (getattr(m, "ORDER", 50), m.__name__))


SINGLE_RUN_COMMANDS = frozenset({"solve", "hrd", "blocksworld", "blokus", "validate", "render"})
"""Commands that run one search or two and end: their searches' memory is left to the exit."""


class Terminated(KeyboardInterrupt):
    """SIGTERM outside a search: it ends the command as Ctrl-C does, with status 143."""


def _terminate(signum, frame) -> None:
    raise Terminated()


def install_signal_handlers() -> None:
    """Ctrl-C raises KeyboardInterrupt and SIGTERM :class:`Terminated` (a search installs its own while it runs)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _terminate)


def run() -> None:
    """The ``heurist`` console script (through :mod:`heurist.cli.entry`): :func:`main`, then the process ends.

    After a command of :data:`SINGLE_RUN_COMMANDS` whose search stored many
    states, the process ends with ``os._exit`` once its output is flushed,
    so the kernel takes the memory back at once instead of Python freeing
    each state (see :func:`heurist.search.limits.leave_memory_to_exit`).
    """
    if len(sys.argv) > 1 and sys.argv[1] in SINGLE_RUN_COMMANDS:
        leave_memory_to_exit()
    status = main()
    for signum in (signal.SIGINT, signal.SIGTERM):  # the command has finished: a signal now changes nothing
        signal.signal(signum, signal.SIG_IGN)
    if memory_left_to_exit():
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass  # main() has reported a failing standard output already
        os._exit(status)
    sys.exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None, argv[1:])
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_INPUT_ERROR
    stdout = sys.stdout
    guarded = sys.stdout = GuardedOutput(stdout)
    try:
        status = int(args.handler(args) or 0)
        guarded.flush()
        return status
    except InputError as error:
        print(f"heurist: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt as stop:  # outside a search, which ends with status interrupted instead
        print("heurist: interrupted", file=sys.stderr)
        return EXIT_SIGTERM if isinstance(stop, Terminated) else EXIT_SIGINT
    except SearchStopped as stopped:  # the whole-run time limit, reached before the search began
        print(f"heurist: {stopped} before the search began", file=sys.stderr)
        return EXIT_LIMIT
    except OutputFailed as failure:
        _silence(stdout)
        if isinstance(failure.error, BrokenPipeError):  # the reader went away (e.g. `heurist ... | head`)
            return 0
        reason = failure.error.strerror or str(failure.error)
        print(f"heurist: standard output: cannot write: {reason}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except BrokenPipeError:
        _silence(stdout)
        return 0
    finally:
        if sys.stdout is guarded:
            sys.stdout = stdout
        try:  # what an error left in the buffer must not fail again at interpreter exit
            if stdout is not None:
                stdout.flush()
        except (OSError, ValueError):
            _silence(stdout)


class OutputFailed(Exception):
    """Writing to standard output failed (a full disk, a closed or broken pipe): ``error`` says how."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


class GuardedOutput:
    """Standard output whose failures raise :class:`OutputFailed`, told apart from other OS errors.

    A closed standard output (``heurist ... >&-``, where Python sets
    ``sys.stdout`` to None) fails on the first write, as a full one does.
    """

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is None:
            raise OutputFailed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        try:
            return self._stream.write(text)
        except OSError as error:
            raise OutputFailed(error) from None

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as error:
            raise OutputFailed(error) from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str):
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _silence(stream) -> None:
    """Point ``stream``'s descriptor at /dev/null, so the flush at interpreter exit cannot fail again."""
    try:
        descriptor = os.open(os.devnull, os.O_WRONLY)
        os.dup2(descriptor, stream.fileno())
        os.close(descriptor)
    except (AttributeError, OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover - the console script calls run()
    run()
