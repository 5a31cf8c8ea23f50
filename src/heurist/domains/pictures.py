"""A state of a plan drawn by its domain, as notebooks show it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from heurist.domains.base import Domain


class Picture:
    """A state of a plan drawn by its domain; Jupyter shows it (``_repr_svg_``), as python-chess shows boards."""

    def __init__(self, domain: Domain, problem: Any, states: Sequence[Any], index: int = -1, *, flip: bool = False):
        self.domain, self.problem, self.states, self.index, self.flip = domain, problem, list(states), index, flip

    def svg(self) -> str:
        from heurist.scene import to_svg

        return to_svg(self.domain.draw(self.problem, self.states, self.index, flip=self.flip))

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return self.domain.format_state(self.problem, self.states[self.index])


__all__ = ["Picture"]
