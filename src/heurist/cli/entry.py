"""The ``heurist`` console script's first module: signal handlers before anything heavy is imported.

Importing the command line takes a fifth of a second; a Ctrl-C or a SIGTERM
in that time must end the command as one later would: one line on stderr and
the conventional status (130 or 143), never a traceback or a silent death.
Only the standard library's ``os``, ``signal`` and ``sys`` are imported here.
"""

from __future__ import annotations

import os
import signal


def _interrupted_while_starting(signum: int, frame: object) -> None:
    try:
        os.write(2, b"heurist: interrupted\n")
    finally:
        os._exit(128 + signum)


def run() -> None:
    """Guard the start-up, then hand over to :func:`heurist.cli.main.run`, which installs its own handlers."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _interrupted_while_starting)
    from heurist.cli import main

    main.install_signal_handlers()
    try:
        main.run()
    except KeyboardInterrupt as stop:  # between the handlers and main()'s own guard (argument parsing)
        _interrupted_while_starting(signal.SIGTERM if isinstance(stop, main.Terminated) else signal.SIGINT, None)


__all__ = ["run"]


if __name__ == "__main__":  # python -m heurist.cli.entry ARGS, as the console script runs
    run()
