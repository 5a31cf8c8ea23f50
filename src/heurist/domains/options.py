"""Domain options, declared once as :class:`Option` records for keywords and the command line."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from heurist.errors import InputError


@dataclass(frozen=True)
class Option:
    """One domain option, declared once for keywords and the command line.

    ``name`` is the keyword (``board_size``) and, with dashes, the long flag
    (``--board-size``); ``flags`` adds short spellings (``-s``). ``type``
    converts one command-line word; ``nargs`` is how many words the option
    takes (0 for an on/off switch, whose ``--no-`` form turns it off).
    ``search_only`` options change which states a search visits but not the
    puzzle (Klotski's mirror reduction): checks, replays and pictures switch
    them off to see every real state. ``minimum`` and ``maximum`` bound a
    number (each number, for an option of several): a generator asked for a
    board of 10^20 rows gets one line, not a MemoryError.
    """

    name: str
    help: str
    type: Callable[[str], Any] = str
    default: Any = None
    choices: tuple[str, ...] | None = None
    flags: tuple[str, ...] = ()
    nargs: int = 1
    metavar: str | tuple[str, ...] | None = None
    search_only: bool = False
    minimum: float | None = None
    maximum: float | None = None
    format: Callable[[Any], str] = str
    """One value as the command-line word that ``type`` reads back (the inverse of ``type``)."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.flag, *self.flags)

    def words(self, value: Any) -> list[str]:
        """A value as the command-line words that give it (``["--board-size", "6", "6"]``)."""
        if self.nargs == 0:
            return [self.flag if value else "--no-" + self.flag[2:]]
        values = value if self.nargs > 1 else [value]
        return [self.flag, *(self.format(item) for item in values)]

    def convert_word(self, word: str, source: str | None = None) -> Any:
        """One command-line word converted by ``type``; a bad word is an :class:`InputError`."""
        try:
            value = self.type(word)
        except (TypeError, ValueError) as error:
            detail = f": {error}" if isinstance(error, InputError) else ""
            raise InputError(f"{word!r} is not a valid value for {self.flag}{detail}", source) from None
        return value

    def check(self, value: Any, source: str | None = None) -> Any:
        """A keyword value checked and converted; ``None`` gives the default."""
        if value is None:
            return self.default
        if self.nargs == 0:
            if not isinstance(value, bool):
                raise InputError(f"{self.flag} is a switch: give True or False, not {value!r}", source)
            return value
        if self.nargs > 1:
            if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != self.nargs:
                raise InputError(f"{self.flag} takes {self.nargs} values, not {value!r}", source)
            values = tuple(self.convert_word(v, source) if isinstance(v, str) else v for v in value)
            for number in values:
                self._check_bounds(number, source)
            return values
        if isinstance(value, str) and self.type is not str:
            value = self.convert_word(value, source)
        if self.choices is not None and value not in self.choices:
            raise InputError(f"{self.flag}: {value!r} is not one of {', '.join(self.choices)}", source)
        self._check_bounds(value, source)
        return value

    def _check_bounds(self, value: Any, source: str | None) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return
        def shown(number: float) -> str:
            text = f"{number:,}" if float(number).is_integer() and abs(number) < 1e15 else f"{number:g}"
            return text if len(text) <= 20 else f"{number:.3g}"

        if self.minimum is not None and not value >= self.minimum:
            raise InputError(f"{self.flag} must be at least {shown(self.minimum)}, not {shown(value)}", source)
        if self.maximum is not None and not value <= self.maximum:
            raise InputError(f"{self.flag} must be at most {shown(self.maximum)}, not {shown(value)}", source)


def check_options(declared: Iterable[Option], given: dict[str, Any], source: str | None = None,
                  what: str = "option") -> dict[str, Any]:
    """Every declared option's value (defaults filled in); an undeclared keyword is an InputError."""
    by_name = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        choices = ", ".join(by_name) or "none"
        raise InputError(f"unknown {what} {unknown[0]!r}; the options are: {choices}", source)
    return {name: option.check(given.get(name), source) for name, option in by_name.items()}


def parse_words(declared: Iterable[Option], words: Sequence[str], source: str | None = None) -> dict[str, Any]:
    """Options given as command-line words (``["--metric", "slide"]``) as keywords.

    For options written inside other files or options (bench suites,
    ``check --generate-options``), where the command line's parser is not
    at hand. Only the words that are given appear in the result.
    """
    by_spelling: dict[str, tuple[Option, bool]] = {}
    for option in declared:
        for spelling in option.spellings:
            by_spelling[spelling] = (option, True)
        if option.nargs == 0:
            by_spelling["--no-" + option.flag[2:]] = (option, False)
    values: dict[str, Any] = {}
    index = 0
    while index < len(words):
        word = words[index]
        if word not in by_spelling:
            known = ", ".join(sorted(spelling for spelling in by_spelling if spelling.startswith("--")))
            raise InputError(f"unknown option {word!r}; the options are: {known or 'none'}", source)
        option, on = by_spelling[word]
        if option.nargs == 0:
            values[option.name] = on
            index += 1
            continue
        given = words[index + 1:index + 1 + option.nargs]
        if len(given) < option.nargs or any(w.startswith("--") for w in given):
            raise InputError(f"{word} takes {option.nargs} value{'s' if option.nargs > 1 else ''}", source)
        converted = [option.convert_word(w, source) for w in given]
        values[option.name] = option.check(converted if option.nargs > 1 else converted[0], source)
        index += 1 + option.nargs
    return values


__all__ = ["Option", "check_options", "parse_words"]
