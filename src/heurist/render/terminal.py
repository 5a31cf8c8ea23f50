"""Boards in colour in a terminal, with rich; the same text, uncoloured, everywhere else.

:func:`coloured_state` styles the domain's own text drawing of a state
(``Domain.format_state``) character by character with the domain's
``terminal_style``, which uses the pictures' colours, so the terminal and the
images agree. :func:`print_state` prints it: rich colours it only when the
output is a terminal that supports colour (and ``NO_COLOR`` is unset), and
writes the plain text otherwise.
"""

from __future__ import annotations

from typing import IO, Any

from rich.console import Console
from rich.text import Text

from heurist.domains import Domain


def coloured_state(domain: Domain, problem: Any, state: Any) -> Text:
    """``format_state``'s text for ``state``, each character styled as in the pictures."""
    plain = domain.format_state(problem, state)
    text = Text(plain)
    style_of = domain.terminal_style(problem, state)
    if style_of is None:
        return text
    offset = 0
    for row, line in enumerate(plain.split("\n")):
        for col, char in enumerate(line):
            style = style_of(row, col, char)
            if style:
                text.stylize(style, offset + col, offset + col + 1)
        offset += len(line) + 1
    return text


def print_state(domain: Domain, problem: Any, state: Any, file: IO[str] | None = None) -> None:
    """Print a state: coloured on a colour terminal, plain text otherwise."""
    console = Console(file=file, highlight=False, soft_wrap=True)
    console.print(coloured_state(domain, problem, state))
