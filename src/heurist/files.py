"""Writing output files so that a reader never sees one half-written.

Regular files are replaced in one step (a temporary file, then a rename).
Anything else that already exists at the path, a device such as
``/dev/stdout`` or ``/dev/null``, a FIFO or a symbolic link, is written
through: opened and written in place, never replaced by a regular file.
Every failure is an :class:`~heurist.errors.InputError` that names the path:
``PATH: cannot write: REASON``.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from heurist.errors import InputError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def cannot_write(path: str | Path, error: OSError | int) -> InputError:
    """The input error for an output that cannot be written: ``PATH: cannot write: REASON``."""
    reason = os.strerror(error) if isinstance(error, int) else (error.strerror or str(error))
    return InputError(f"cannot write: {reason}", path)


def writes_through(path: str | Path) -> bool:
    """Whether ``path`` exists and is not a regular file or a directory: a symbolic link, a device, a FIFO."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISLNK(mode) or not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _directory(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def check_writable(path: str | Path) -> None:
    """Raise the :func:`cannot_write` error now if ``path`` can be seen not to be writable.

    A command that writes several files checks them all first, so that a bad
    last path does not leave the first files written. The check creates and
    removes a temporary file beside ``path``, so a missing, read-only or full
    directory is found as the write would find it.
    """
    path = Path(path)
    if path.is_dir():
        raise cannot_write(path, errno.EISDIR)
    if writes_through(path):
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise cannot_write(path, errno.EACCES)
        return
    try:
        handle, temporary = tempfile.mkstemp(dir=_directory(path), prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise cannot_write(path, error) from None
    os.close(handle)
    Path(temporary).unlink(missing_ok=True)


def _encoded(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


FIFO_READER_WAIT = 5.0
"""Seconds a FIFO at an output path may go without a reader before the write is given up."""


def _write_through(path: Path, data: bytes) -> None:
    """Write in place; a FIFO without a reader is waited on for :data:`FIFO_READER_WAIT` seconds at most."""
    deadline = time.monotonic() + FIFO_READER_WAIT
    while True:
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_TRUNC)
            break
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: a FIFO that no process reads (yet)
                raise cannot_write(path, error) from None
            if time.monotonic() >= deadline:
                raise InputError(f"cannot write: no process reads this FIFO (waited {FIFO_READER_WAIT:g} s)",
                                 path) from None
            time.sleep(0.01)
    try:
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "wb", closefd=False) as stream:
            stream.write(data)
    except OSError as error:
        raise cannot_write(path, error) from None
    finally:
        os.close(descriptor)


def _write_temporary(path: Path, data: bytes) -> str:
    """``data`` in a new temporary file beside ``path``; its name."""
    if path.is_dir():
        raise cannot_write(path, errno.EISDIR)
    try:
        handle, temporary = tempfile.mkstemp(dir=_directory(path), prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise cannot_write(path, error) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes files private; outputs are not
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise cannot_write(path, error) from None
        raise
    return temporary


def write_atomically(path: str | Path, data: str | bytes, *, replace_special: bool = False) -> None:
    """Write ``data`` (text, written as is without newline translation, or bytes) to ``path``.

    A regular file (or a new one) is written to a temporary file in the same
    directory, which then replaces ``path`` in one step: an interrupted run
    leaves the old file or none, never a truncated one. The file gets the usual
    permissions (0666 less the umask). A device, FIFO or symbolic link is
    written through, unless ``replace_special``: then whatever is at ``path``
    (a link, a FIFO planted by someone else) is replaced by the new regular
    file and never written through. Any failure is an :class:`InputError`
    naming the path.
    """
    write_files([(path, data)], check=False, replace_special=replace_special)


def write_files(files: Iterable[tuple[str | Path, str | bytes]], *, check: bool = True,
                replace_special: bool = False) -> None:
    """Write several files all or nothing, as far as the file system allows.

    Every path is checked first (:func:`check_writable`), then every regular
    file is written to its temporary file; only when all of them are written
    do the renames happen. On a failure the temporary files are removed and
    no regular file has been replaced.
    """
    files = [(Path(path), _encoded(data)) for path, data in files]

    def through(path: Path) -> bool:
        return not replace_special and writes_through(path)

    if check:
        for path, _ in files:
            if not replace_special or not writes_through(path):
                check_writable(path)
    temporaries: list[tuple[str, Path]] = []
    try:
        for path, data in files:
            if not through(path):
                temporaries.append((_write_temporary(path, data), path))
        for path, data in files:
            if through(path):
                _write_through(path, data)
        while temporaries:
            temporary, path = temporaries[0]
            try:
                os.replace(temporary, path)
            except OSError as error:
                raise cannot_write(path, error) from None
            temporaries.pop(0)
    finally:
        for temporary, _ in temporaries:
            Path(temporary).unlink(missing_ok=True)


@contextmanager
def output_directory(directory: str | Path) -> Iterator[Path]:
    """Create ``directory`` (and its missing parents) for the files written in the ``with`` block.

    When the block fails, the directories this call created are removed again
    (if still empty), so a failed command leaves no empty directory behind.
    """
    directory = Path(directory)
    created: list[Path] = []
    for folder in reversed([directory, *directory.parents]):
        if str(folder) in ("", ".") or folder.exists():
            continue
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        except OSError as error:
            _remove(created)
            raise cannot_write(folder, error) from None
        created.append(folder)
    if not directory.is_dir():
        _remove(created)
        raise cannot_write(directory, errno.ENOTDIR)
    try:
        yield directory
    except BaseException:
        _remove(created)
        raise


def _remove(folders: list[Path]) -> None:
    for folder in reversed(folders):
        try:
            folder.rmdir()
        except OSError:
            return
