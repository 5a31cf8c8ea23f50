"""Boards in colour in a terminal, with rich; the same text, uncoloured, everywhere else.

:func:`coloured_state` styles the domain's own text drawing of a state
(``Domain.format_state``) character by character with the colours the
pictures use, so the terminal and the images agree. :func:`print_state`
prints it: rich colours it only when the output is a terminal that supports
colour (and ``NO_COLOR`` is unset), and writes the plain text otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from heurist.domains import get_domain


def _klotski_styles(problem: Any, state: Any) -> Callable[[int, int, str], str | None]:
    from heurist.domains.klotski.board import BIG, HORIZONTAL, SINGLE, VERTICAL
    from heurist.domains.klotski.drawing import SHAPE_COLOUR

    by_char = {"1": BIG, "^": VERTICAL, "v": VERTICAL, "<": HORIZONTAL, ">": HORIZONTAL, "2": SINGLE}
    return lambda row, col, char: f"bold black on {SHAPE_COLOUR[by_char[char]]}" if char in by_char else None


def _blocksworld_styles(problem: Any, state: Any) -> Callable[[int, int, str], str | None]:
    from heurist.domains.blocksworld.drawing import IN_PLACE, OUT_OF_PLACE, blocks_in_place

    placed = blocks_in_place(problem, state)

    def style(row: int, col: int, char: str) -> str | None:
        if not ("A" <= char <= "Z"):
            return None
        return f"bold black on {IN_PLACE if char in placed else OUT_OF_PLACE}"

    return style


def _blokus_styles(problem: Any, state: Any) -> Callable[[int, int, str], str | None]:
    from heurist.domains.blokus.drawing import START, TARGET, TILE

    styles = {"#": f"bold {TILE}", "x": f"bold {TARGET}", "X": f"bold white on {TARGET}", "s": f"bold black on {START}"}
    return lambda row, col, char: styles.get(char)


_STYLES = {"klotski": _klotski_styles, "blocksworld": _blocksworld_styles, "blokus": _blokus_styles}


def coloured_state(domain_name: str, problem: Any, state: Any) -> Text:
    """``format_state``'s text for ``state``, each character styled as in the pictures."""
    plain = get_domain(domain_name).format_state(problem, state)
    text = Text(plain)
    styles = _STYLES.get(domain_name)
    if styles is None:
        return text
    style_of = styles(problem, state)
    offset = 0
    for row, line in enumerate(plain.split("\n")):
        for col, char in enumerate(line):
            style = style_of(row, col, char)
            if style:
                text.stylize(style, offset + col, offset + col + 1)
        offset += len(line) + 1
    return text


def print_state(domain_name: str, problem: Any, state: Any, file: IO[str] | None = None) -> None:
    """Print a state: coloured on a colour terminal, plain text otherwise."""
    console = Console(file=file, highlight=False, soft_wrap=True)
    console.print(coloured_state(domain_name, problem, state))
