"""Exceptions shared by every part of heurist.

Every problem with user input is raised as :class:`InputError`, which the
command line turns into one line ``FILE:LINE: problem`` and exit status 2.
"""

from __future__ import annotations

import os
import re
import select
import stat
from pathlib import Path

MAX_MESSAGE = 200
"""Messages longer than this many characters are cut (a 1 MB bad line gives a short message)."""


class HeuristError(Exception):
    """Base class of heurist's own exceptions."""


class InputError(HeuristError, ValueError):
    """Malformed user input: a puzzle file, a solution file or an option.

    ``source`` names the file (or option) and ``line`` the 1-based line number
    when one applies, so the message can point at the exact place. The text is
    always one line: control characters (a newline in a file name, say) are
    escaped as ``repr`` escapes them, and a message longer than
    :data:`MAX_MESSAGE` characters is cut in the middle with an ellipsis.
    """

    def __init__(self, message: str, source: str | Path | None = None, line: int | None = None):
        self.message = message
        self.source = None if source is None else str(source)
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            source = one_line(self.source)
            where = source if self.line is None else f"{source}:{self.line}"
            where += ": "
        message = one_line(self.message)
        if len(message) > MAX_MESSAGE:  # keep the start and the end, where the advice usually is
            message = message[: MAX_MESSAGE - 61] + "…" + message[-60:]
        return f"{where}{message}"


def one_line(text: str) -> str:
    """``text`` with every unprintable character (newline, tab, form feed, U+2028...) escaped as ``repr`` does."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


MAX_INPUT_BYTES = 64 * 1024 * 1024
"""The largest input file heurist reads (64 MiB): far beyond any puzzle, and a device such as
``/dev/zero`` that never ends is refused instead of read forever."""


_HUGE_NUMBER = re.compile(r"\d{4000,}")
"""A run of digits longer than any puzzle needs, and near the 4,300 digits Python converts at most."""


FIFO_WAIT = 10.0
"""Seconds a FIFO (a pipe given as a file name, ``<(command)``) may stay silent before it is given up on."""


def read_bytes(path: str | Path) -> bytes:
    """A file's bytes, never blocking for ever: at most :data:`MAX_INPUT_BYTES` + 1 of them.

    A regular file (or a link to one) is read; a FIFO is read as long as data
    keeps coming, waiting at most :data:`FIFO_WAIT` seconds for each piece; a
    device or a socket is refused. Every failure is an :class:`InputError`.
    """
    path = Path(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise InputError("is a directory, not a file", path)
        if stat.S_ISREG(mode):
            os.set_blocking(descriptor, True)
            with os.fdopen(descriptor, "rb", closefd=False) as stream:
                return stream.read(MAX_INPUT_BYTES + 1)
        if stat.S_ISFIFO(mode):
            return _read_fifo(descriptor, path)
        raise InputError("not a regular file (a device or a socket)", path)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None
    finally:
        os.close(descriptor)


def _read_fifo(descriptor: int, path: Path) -> bytes:
    """Read a FIFO to its end: a writer that is there is waited for as long as it writes; with no writer,
    one must come within :data:`FIFO_WAIT` seconds."""
    poller = select.poll()
    poller.register(descriptor, select.POLLIN)
    chunks: list[bytes] = []
    size = 0
    writer = False  # a process has the FIFO open for writing (a read would block rather than end)
    waited_for_writer = False
    while size <= MAX_INPUT_BYTES:
        try:
            chunk = os.read(descriptor, 1 << 20)
        except BlockingIOError:
            writer = True
            poller.poll()  # a live writer: its data or its end will come
            continue
        if chunk:
            writer = True
            chunks.append(chunk)
            size += len(chunk)
            continue
        if writer or waited_for_writer:
            break  # the end of what the writer wrote
        if not poller.poll(FIFO_WAIT * 1000):
            raise InputError(f"no process writes this FIFO (waited {FIFO_WAIT:g} s)", path)
        waited_for_writer = True
    return b"".join(chunks)


def read_text(path: str | Path) -> str:
    """Read a text file, turning every OS-level failure into an :class:`InputError`.

    At most :data:`MAX_INPUT_BYTES` are read; a longer file is refused as too large.
    Nothing at the path can make it block for ever (see :func:`read_bytes`).
    """
    path = Path(path)
    data = read_bytes(path)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"too large: more than {MAX_INPUT_BYTES // (1024 * 1024)} MiB", path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError("not a UTF-8 text file", path, line) from None
    huge = _HUGE_NUMBER.search(text)
    if huge is not None:  # Python refuses to convert such numbers; no puzzle needs one
        line = text.count("\n", 0, huge.start()) + 1
        raise InputError(f"a number of {len(huge.group()):,} digits: far too large for any puzzle", path, line)
    return text
