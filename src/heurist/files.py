"""Writing output files so that a reader never sees one half-written."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from heurist.errors import InputError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text, written as is without newline translation, or bytes) to ``path``.

    The data goes to a temporary file in the same directory, which then replaces
    ``path`` in one step: an interrupted run leaves the old file or none, never a
    truncated one. The file gets the usual permissions (0666 less the umask).
    A directory that cannot be written to is an :class:`InputError` naming the path.
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror}", path) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes files private; outputs are not
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
