"""Heuristics by name: a registry per domain, plus user heuristics loaded from files or modules.

A heuristic is a plain function ``h(state, problem) -> number``. Domains
register theirs::

    HEURISTICS = HeuristicRegistry("klotski")

    @HEURISTICS.register("manhattan")
    def manhattan(state, problem): ...

and users name one of their own as ``path/to/file.py:function`` or
``package.module:function``; :meth:`HeuristicRegistry.resolve` accepts both.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import inspect
import numbers
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from heurist.errors import InputError
from heurist.search.limits import clock
from heurist.search.problem import Heuristic


class HeuristicRegistry(Mapping):
    """The named heuristics of one domain, with optional aliases: a read-only mapping from each name to its
    function (iterating gives the names, not the aliases; ``registry["H1"]`` finds an alias too)."""

    def __init__(self, domain: str):
        self.domain = domain
        self._by_name: dict[str, Heuristic] = {}
        self._aliases: dict[str, str] = {}

    def register(self, name: str, *, aliases: tuple[str, ...] = ()) -> Callable[[Heuristic], Heuristic]:
        def decorator(function: Heuristic) -> Heuristic:
            if name in self._by_name or name in self._aliases:
                raise ValueError(f"heuristic {name!r} registered twice for {self.domain}")
            self._by_name[name] = function
            function.heuristic_name = name  # type: ignore[attr-defined]
            for alias in aliases:
                self._aliases[alias] = name
            return function

        return decorator

    def names(self) -> list[str]:
        return list(self._by_name)

    def aliases(self, name: str) -> list[str]:
        """The other names ``name`` answers to (course names such as ``H1`` or ``blokus_cover_heuristic``)."""
        return [alias for alias, target in self._aliases.items() if target == name]

    def help_names(self) -> str:
        """Every name with its aliases, for help texts: ``null (zero), cover (corners), reach``."""
        return ", ".join(
            f"{name} ({', '.join(self.aliases(name))})" if self.aliases(name) else name for name in self._by_name
        )

    def __contains__(self, name: str) -> bool:
        return name in self._by_name or name in self._aliases

    def __getitem__(self, name: str) -> Heuristic:
        return self._by_name[self._aliases.get(name, name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def __repr__(self) -> str:
        return f"HeuristicRegistry({self.domain!r}, {self.names()!r})"

    def describe(self) -> list[tuple[str, str]]:
        """(name, first docstring line) for each heuristic, for help texts."""
        return [
            (name, (inspect.getdoc(fn) or "").splitlines()[0] if inspect.getdoc(fn) else "")
            for name, fn in self._by_name.items()
        ]

    def resolve(self, spec: str) -> Heuristic:
        """A registered name (or alias), or a user heuristic ``file.py:function`` / ``module:function``."""
        if spec in self:
            return self[spec]
        if ":" in spec:
            return load_user_heuristic(spec)
        known = ", ".join(self.names())
        raise InputError(
            f"unknown heuristic {spec!r} for {self.domain}; choose one of {known}, "
            "or give path/to/file.py:function or package.module:function",
            "--heuristic",
        )


def load_user_heuristic(spec: str) -> Heuristic:
    """Load ``path/to/file.py:function`` or ``package.module:function``."""
    target, _, name = spec.rpartition(":")
    if not target or not name:
        raise InputError(f"expected FILE.py:FUNCTION or MODULE:FUNCTION, got {spec!r}", "--heuristic")
    path = Path(target)
    if target.endswith(".py") or path.exists():
        if not path.is_file():
            raise InputError("no such heuristic file", target)
        module_name = f"heurist_user_{path.stem}_{abs(hash(path.resolve()))}"
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        if module_spec is None or module_spec.loader is None:
            raise InputError("cannot load as a Python module", target)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_name] = module
        try:
            module_spec.loader.exec_module(module)
        except SyntaxError as error:
            raise InputError(f"syntax error: {error.msg}", target, error.lineno) from None
        except SystemExit as error:  # sys.exit() in the user's module must not end heurist
            raise InputError(f"importing called sys.exit({error.code!r})", target) from None
        except Exception as error:  # the user's module failed while importing
            raise InputError(f"importing failed: {type(error).__name__}: {error}", target) from None
    else:
        try:
            module = importlib.import_module(target)
        except ImportError as error:
            raise InputError(f"cannot import module {target!r}: {error}", "--heuristic") from None
        except SystemExit as error:
            raise InputError(f"importing called sys.exit({error.code!r})", target) from None
        except Exception as error:
            raise InputError(f"importing failed: {type(error).__name__}: {error}", target) from None
    function = getattr(module, name, None)
    if not callable(function):
        raise InputError(f"no function named {name!r}", target)
    return _reporting_failures(function, getattr(module, "__file__", None) or target)


def _reporting_failures(function: Heuristic, source: str) -> Heuristic:
    """``function`` with its failures turned into input errors that name the user's line.

    A heuristic someone wrote (a student's, say) may raise or return something
    that is not a number; the search would then stop with a traceback from
    deep inside heurist. Instead the command line reports one line, the file
    and line of the user's code that failed; so does a call of ``sys.exit()``,
    which must not end heurist with a status outside its table. Attributes
    such as a ``prepare`` hook are kept, the hook wrapped alike.
    """
    name = getattr(function, "__name__", "heuristic")

    @functools.wraps(function)
    def heuristic(state, problem):
        with _user_code(name, source):
            value = function(state, problem)
        if not isinstance(value, numbers.Real):
            raise InputError(f"the heuristic {name!r} returned {value!r}, not a number", source)
        return value

    prepare = getattr(function, "prepare", None)
    if callable(prepare):

        @functools.wraps(prepare)
        def prepare_reporting(problem):
            with _user_code(f"{name}.prepare", source):
                return prepare(problem)

        heuristic.prepare = prepare_reporting
    return heuristic


@contextlib.contextmanager
def _user_code(name: str, source: str):
    """Turn an exception or a ``sys.exit()`` in the user's ``name`` into an input error naming ``source``."""
    try:
        yield
    except SystemExit as error:
        raise InputError(f"the heuristic {name!r} called sys.exit({error.code!r})", source,
                         _line_in(error.__traceback__, source)) from None
    except Exception as error:
        raise InputError(
            f"the heuristic {name!r} raised {type(error).__name__}: {error}",
            source,
            _line_in(error.__traceback__, source),
        ) from None


def _line_in(trace: types.TracebackType | None, source: str) -> int | None:
    """The line of ``source`` nearest to where the exception was raised, if the traceback passes through it."""
    wanted = Path(source).resolve()
    line = None
    import traceback  # here: only errors in user code need it

    for frame, lineno in traceback.walk_tb(trace):
        with contextlib.suppress(OSError):
            if Path(frame.f_code.co_filename).resolve() == wanted:
                line = lineno
    return line


def prepare_heuristic(heuristic: Heuristic, problem: object) -> float:
    """Run the heuristic's optional ``prepare(problem)`` hook; return the seconds it took."""
    prepare = getattr(heuristic, "prepare", None)
    if prepare is None:
        return 0.0
    started = clock()
    prepare(problem)
    return clock() - started
