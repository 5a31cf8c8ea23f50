"""How strongly a student's run is kept apart from everything else: the isolation levels and their set-up.

Three levels, strongest first; :func:`choose_isolation` takes the strongest
this machine offers unless one is asked for:

* ``namespaces``: bubblewrap (``bwrap``) gives each run new user, PID, mount,
  network, IPC, UTS and cgroup namespaces. The file system is a fresh tmpfs
  holding only the system's directories read-only (``/usr``, ``/etc`` with
  its owner-only files masked, ...), the Python that runs the launcher, the
  program's own directory read-only (with anything protected inside it
  masked), a size-capped private ``/tmp`` and a size-capped working directory
  ``/sandbox`` (the only writable places). The run's processes see only each
  other; when the run ends its PID namespace ends, and every descendant with
  it, ``setsid`` or not.
* ``dedicated uid``: without namespaces but as root, each concurrent run gets
  its own unprivileged uid (``--sandbox-uid`` and the ones after it), owning
  only its temporary directory; ``RLIMIT_NPROC`` bounds its processes and
  every process of that uid is killed when the run ends. It reads what any
  user may read.
* ``none``: the program runs as the grader's own user in a process group;
  nothing is hidden and nothing it starts with ``setsid`` is stopped. Say so
  loudly: only for programs you trust.
"""

from __future__ import annotations

import enum
import functools
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from heurist.errors import InputError

SANDBOX_DIRECTORY = "/sandbox"
"""The run's working directory inside a namespace sandbox (a size-capped tmpfs)."""

SYSTEM_DIRECTORIES = ("/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Read-only in every namespace sandbox, when they exist (merged-/usr links stay links)."""

DEFAULT_SANDBOX_UID = 61000
"""The first uid of the ``dedicated uid`` level; run N of the concurrent ones gets this plus N."""


class Isolation(str, enum.Enum):
    """The isolation level a run had, strongest first."""

    NAMESPACES = "namespaces"
    DEDICATED_UID = "dedicated uid"
    NONE = "none"

    @property
    def warning(self) -> str | None:
        """What the level does not stop, for the terminal and every report; None for the strongest."""
        if self is Isolation.DEDICATED_UID:
            return ("isolation is weak (dedicated uid, no namespaces): programs can read any world-readable file, "
                    "hidden tests included unless their directory is private to root")
        if self is Isolation.NONE:
            return ("NO ISOLATION: programs run as this user and can read the tests and answers, rewrite reports "
                    "and outlive the grader; use it only for programs you trust")
        return None


ISOLATION_CHOICES = ("auto", *(level.value.replace(" ", "-") for level in Isolation))
"""The command line's spellings: ``auto`` (the default), ``namespaces``, ``dedicated-uid``, ``none``."""


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


@functools.lru_cache(maxsize=1)
def namespaces_work() -> bool:
    """Whether ``bwrap`` is installed and can make every namespace here (tried once, with ``/bin/true``)."""
    program = bwrap_path()
    if program is None:
        return False
    arguments = [program, "--unshare-all", "--die-with-parent", *_system_binds(), "--proc", "/proc",
                 "--dev", "/dev", "--", "/bin/true"]
    try:
        done = subprocess.run(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=20, env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def choose_isolation(requested: str | Isolation = "auto") -> Isolation:
    """The level asked for (an :class:`InputError` if this machine cannot give it), or the strongest one."""
    text = requested.value if isinstance(requested, Isolation) else requested.replace("-", " ")
    if text == "auto":
        if namespaces_work():
            return Isolation.NAMESPACES
        return Isolation.DEDICATED_UID if os.geteuid() == 0 else Isolation.NONE
    try:
        level = Isolation(text)
    except ValueError:
        raise InputError(f"unknown isolation {requested!r}; choose one of {', '.join(ISOLATION_CHOICES)}",
                         "--isolation") from None
    if level is Isolation.NAMESPACES and not namespaces_work():
        why = "bwrap is not installed (Debian: apt-get install bubblewrap)" if bwrap_path() is None else \
            "bwrap cannot create namespaces on this machine"
        raise InputError(f"namespaces isolation is not available: {why}", "--isolation")
    if level is Isolation.DEDICATED_UID and os.geteuid() != 0:
        raise InputError("dedicated-uid isolation needs the grader to run as root", "--isolation")
    return level


def _system_binds() -> list[str]:
    arguments: list[str] = []
    for directory in SYSTEM_DIRECTORIES:
        if os.path.islink(directory):
            arguments += ["--symlink", os.readlink(directory), directory]
        elif os.path.isdir(directory):
            arguments += ["--ro-bind", directory, directory]
    return arguments


@functools.lru_cache(maxsize=1)
def private_system_files() -> tuple[str, ...]:
    """Entries of ``/etc`` that other users may not read (``shadow``, ``ssl/private``...): masked in every sandbox.

    The sandbox's processes are root outside it when the grader is root, and
    would otherwise read files meant for root alone.
    """
    hidden: list[str] = []
    for root, directories, files in os.walk("/etc"):
        for name in [*directories, *files]:
            path = os.path.join(root, name)
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                continue
            readable = mode & stat.S_IROTH and (not stat.S_ISDIR(mode) or mode & stat.S_IXOTH)
            if not readable:
                hidden.append(path)
        directories[:] = [name for name in directories if os.path.join(root, name) not in hidden]
    return tuple(hidden)


def launcher_python() -> str:
    """The interpreter that runs the launcher: the grader's own, without its virtual environment."""
    return os.path.realpath(sys.executable)


@dataclass(frozen=True)
class View:
    """What a namespace sandbox shows besides the system: read-only paths and the protected paths masked in them."""

    visible: tuple[str, ...] = ()
    protected: tuple[str, ...] = ()


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def mask_arguments(visible: Iterable[str], protected: Iterable[str]) -> list[str]:
    """bwrap arguments that hide each protected path lying inside a visible one (an empty directory, or
    ``/dev/null`` for a file); protected paths outside every visible one are not in view anyway."""
    arguments: list[str] = []
    shown = [os.path.realpath(path) for path in visible]
    for path in sorted({os.path.realpath(path) for path in protected}):
        if not any(_inside(path, directory) for directory in shown):
            continue
        if os.path.isdir(path):
            arguments += ["--tmpfs", path, "--remount-ro", path]
        elif os.path.lexists(path):
            arguments += ["--ro-bind", "/dev/null", path]
    return arguments


def bwrap_arguments(view: View, *, disk_bytes: int, tmp_bytes: int, input_fd: int, input_name: str) -> list[str]:
    """The bwrap command line of one run, up to the command (the launcher) it runs."""
    program = bwrap_path()
    if program is None:  # pragma: no cover - choose_isolation checked it
        raise InputError("bwrap is not installed", "--isolation")
    interpreter = os.path.dirname(os.path.dirname(launcher_python()))
    visible = [interpreter, *view.visible]
    arguments = [program, "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--hostname", "sandbox",
                 "--uid", "1000", "--gid", "1000", *_system_binds()]
    for path in private_system_files():
        arguments += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
    arguments += ["--proc", "/proc", "--dev", "/dev", "--size", str(tmp_bytes), "--tmpfs", "/tmp"]
    for path in dict.fromkeys(os.path.realpath(path) for path in visible):
        if os.path.exists(path) and not any(_inside(path, system) for system in SYSTEM_DIRECTORIES):
            arguments += ["--ro-bind", path, path]
    arguments += mask_arguments(visible, view.protected)
    arguments += ["--size", str(disk_bytes), "--tmpfs", SANDBOX_DIRECTORY,
                  "--ro-bind-data", str(input_fd), f"{SANDBOX_DIRECTORY}/{input_name}",
                  "--chdir", SANDBOX_DIRECTORY, "--disable-userns", "--"]
    return arguments


def is_regular_directory(path: str | Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


__all__ = ["DEFAULT_SANDBOX_UID", "ISOLATION_CHOICES", "Isolation", "SANDBOX_DIRECTORY", "View", "bwrap_arguments",
           "choose_isolation", "launcher_python", "mask_arguments", "namespaces_work", "private_system_files"]
