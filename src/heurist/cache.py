"""Tables worth keeping between runs (pattern databases), in the user's cache directory.

Building a heuristic's tables can take longer than the search they serve, and
the course's test scripts run the same puzzles again and again. A table is
stored under a key that names everything its values depend on (the caller
puts a format version in it), and read back on the next run with the same
key. The directory is ``platformdirs.user_cache_dir("heurist")``
(``~/.cache/heurist`` on Linux); the environment variable ``HEURIST_CACHE``
changes that:

* ``HEURIST_CACHE=off`` (or ``0``, ``no``, ``false``): nothing is read or written;
* ``HEURIST_CACHE=/some/directory``: that directory is used instead.

A file is written whole under a temporary name and then renamed, so a reader
never sees half of one. Each holds a checksum (CRC-32) of its contents and
its full key: a file that is truncated, corrupt, from another format or (by a hash
collision) for another key is ignored and replaced. The cache only ever
saves time: every failure to read or write it is silent, and the values are
the ones the caller would compute.

Whatever lies at a cache path is untrusted: only a regular file is read
(opened without following a link and without blocking, so a FIFO or a link
to ``/dev/zero`` is passed over), its size is checked before it is read
(at most :data:`MAX_FILE_BYTES`), and the caller's ``valid`` check decides
whether a value of the right key also has the right shape.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

CACHE_VARIABLE = "HEURIST_CACHE"
"""The environment variable that turns the cache off or moves it."""

_OFF = {"off", "0", "no", "false"}
_ON = {"", "on", "1", "yes", "true"}
_MAGIC = b"heurist cache\n" + bytes([marshal.version])
MAX_FILE_BYTES = 1 << 30
"""A cache file larger than this is not read (the largest table heurist keeps is a few MiB)."""


class Missing:
    """The type of :data:`MISSING`."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = Missing()
"""What :func:`load` returns when the cache holds nothing usable for the key."""


def cache_directory() -> Path | None:
    """Where cached tables live, or None when ``HEURIST_CACHE`` turns the cache off."""
    setting = os.environ.get(CACHE_VARIABLE, "").strip()
    if setting.lower() in _OFF:
        return None
    if setting.lower() not in _ON:
        return Path(os.path.expanduser(setting))
    if sys.platform == "linux":  # what platformdirs answers there (XDG), without the time its import takes
        return Path(os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.expanduser("~/.cache")) / "heurist"
    import platformdirs

    return Path(platformdirs.user_cache_dir("heurist"))


def _path(kind: str, key: tuple) -> Path | None:
    directory = cache_directory()
    if directory is None:
        return None
    text = repr(key).encode()
    return directory / kind / f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}.bin"  # the key inside decides


def read_regular_file(path: str | Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes; else None.

    Opened without following a link and without blocking (a FIFO is never
    waited on), and the size is checked before anything is read.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return data if len(data) <= limit else None


def load(kind: str, key: tuple, valid: Callable[[Any], bool] = lambda value: True) -> Any:
    """The value stored under ``key`` (a tuple of plain values) if ``valid(value)``, or :data:`MISSING`."""
    path = _path(kind, key)
    if path is None:
        return MISSING
    data = read_regular_file(path, MAX_FILE_BYTES)
    if data is None:
        return MISSING
    header = len(_MAGIC)
    checksum, payload = data[header:header + 4], data[header + 4:]
    if data[:header] != _MAGIC or zlib.crc32(payload).to_bytes(4, "little") != checksum:
        return MISSING
    try:
        stored_key, value = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return MISSING
    if stored_key != key:
        return MISSING
    try:
        return value if valid(value) else MISSING
    except Exception:  # a check that trips over a value of the wrong shape has found one
        return MISSING


def store(kind: str, key: tuple, value: Any) -> None:
    """Keep ``value`` (ints, floats, strings, None, tuples, lists, dicts of those) under ``key``."""
    path = _path(kind, key)
    if path is None:
        return
    try:
        payload = marshal.dumps((key, value))
    except ValueError:
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".writing-", suffix=".tmp")
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(_MAGIC + zlib.crc32(payload).to_bytes(4, "little") + payload)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


__all__ = ["CACHE_VARIABLE", "MAX_FILE_BYTES", "MISSING", "cache_directory", "load", "read_regular_file", "store"]
