"""A tiny vector scene (rectangles, circles, lines, text, groups) and its two writers.

Every domain draws a state once, as a :class:`Scene`; :func:`to_svg` writes
it as SVG text and :func:`heurist.render.raster.to_image` rasterises it with Pillow, so the SVG,
the PNG, the GIF frames and the HTML viewer all show the same picture.
Coordinates are pixels with y pointing down, as in SVG.

Items carry an optional ``role`` (written as the SVG ``class``), which names
what an item stands for (``piece big``, ``target``, ``block in-place``...):
the viewer's stylesheet and the tests rely on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str | None
    stroke: str | None = None
    stroke_width: float = 0.0
    radius: float = 0.0
    dashed: bool = False
    role: str = ""


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None
    stroke: str | None = None
    stroke_width: float = 0.0
    role: str = ""


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float = 1.0
    role: str = ""


@dataclass(frozen=True)
class Text:
    """Text centred vertically on ``y``; ``anchor`` is ``start``, ``middle`` or ``end`` horizontally."""

    x: float
    y: float
    text: str
    size: float = 14.0
    fill: str = "#222222"
    anchor: str = "middle"
    role: str = ""


@dataclass(frozen=True)
class Group:
    """Items drawn shifted by (dx, dy) and scaled by ``scale`` (about the group's origin)."""

    items: tuple
    dx: float = 0.0
    dy: float = 0.0
    scale: float = 1.0
    role: str = ""


Item = Rect | Circle | Line | Text | Group


@dataclass
class Scene:
    width: float
    height: float
    items: list = field(default_factory=list)
    background: str = "#ffffff"
    title: str = ""

    def add(self, *items: Item) -> Scene:
        self.items.extend(items)
        return self

    def as_group(self, dx: float = 0.0, dy: float = 0.0, scale: float = 1.0, role: str = "") -> Group:
        return Group(tuple(self.items), dx, dy, scale, role)


# ----- composing -----------------------------------------------------------------------------

def side_by_side(
    panels: Sequence[tuple[str, Scene, float]],
    gap: float = 24.0,
    label_size: float = 15.0,
    align_bottom: bool = False,
) -> Scene:
    """Panels (label, scene, scale) in a row, each under its label, top- or bottom-aligned."""
    label_band = label_size * 2 if any(label for label, _, _ in panels) else 0.0
    tallest = max(scene.height * scale for _, scene, scale in panels)
    width = gap
    groups: list[Item] = []
    for label, scene, scale in panels:
        top = label_band + (tallest - scene.height * scale if align_bottom else 0.0)
        if label:
            groups.append(Text(width + scene.width * scale / 2, top - label_band / 2, label, label_size, role="label"))
        groups.append(scene.as_group(width, top, scale, role="panel"))
        width += scene.width * scale + gap
    return Scene(width, label_band + tallest + gap / 2, groups)


def with_caption(scene: Scene, lines: Sequence[str], size: float = 15.0) -> Scene:
    """The scene under a band holding ``lines`` of text (e.g. ``move 3 of 12``), shrunk to fit."""
    longest = max((len(line) for line in lines), default=0)
    if longest:
        size = min(size, 0.95 * scene.width / (0.6 * longest))  # about 0.6 em per character
    line_height = size * 1.35
    band = line_height * len(lines) + size * 0.8
    framed = Scene(scene.width, scene.height + band, background=scene.background, title=scene.title)
    for number, line in enumerate(lines):
        framed.add(Text(scene.width / 2, size * 0.5 + line_height * (number + 0.5), line, size, role="caption"))
    framed.add(scene.as_group(0, band))
    return framed


# ----- SVG -----------------------------------------------------------------------------------

def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _paint(fill: str | None, stroke: str | None, stroke_width: float) -> str:
    text = f' fill="{fill or "none"}"'
    if stroke and stroke_width:
        text += f' stroke="{stroke}" stroke-width="{_number(stroke_width)}"'
    return text


def _role(role: str) -> str:
    return f' class="{escape(role)}"' if role else ""


def _svg_item(item: Item, out: list[str]) -> None:
    n = _number
    if isinstance(item, Rect):
        rounded = f' rx="{n(item.radius)}"' if item.radius else ""
        dash = ' stroke-dasharray="6 4"' if item.dashed else ""
        out.append(
            f'<rect{_role(item.role)} x="{n(item.x)}" y="{n(item.y)}" width="{n(item.width)}" '
            f'height="{n(item.height)}"{rounded}{_paint(item.fill, item.stroke, item.stroke_width)}{dash}/>'
        )
    elif isinstance(item, Circle):
        out.append(
            f'<circle{_role(item.role)} cx="{n(item.cx)}" cy="{n(item.cy)}" r="{n(item.r)}"'
            f"{_paint(item.fill, item.stroke, item.stroke_width)}/>"
        )
    elif isinstance(item, Line):
        out.append(
            f'<line{_role(item.role)} x1="{n(item.x1)}" y1="{n(item.y1)}" x2="{n(item.x2)}" '
            f'y2="{n(item.y2)}" stroke="{item.stroke}" stroke-width="{n(item.width)}" stroke-linecap="square"/>'
        )
    elif isinstance(item, Text):
        out.append(
            f'<text{_role(item.role)} x="{n(item.x)}" y="{n(item.y)}" font-size="{n(item.size)}" '
            f'fill="{item.fill}" text-anchor="{item.anchor}" dominant-baseline="central">'
            f"{escape(item.text)}</text>"
        )
    elif isinstance(item, Group):
        transform = f"translate({n(item.dx)} {n(item.dy)})"
        if item.scale != 1:
            transform += f" scale({n(item.scale)})"
        out.append(f'<g{_role(item.role)} transform="{transform}">')
        for child in item.items:
            _svg_item(child, out)
        out.append("</g>")
    else:  # pragma: no cover - every drawer uses the item types above
        raise TypeError(f"cannot draw {item!r}")


def to_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document."""
    width, height = _number(scene.width), _number(scene.height)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">'
    ]
    if scene.title:
        out.append(f"<title>{escape(scene.title)}</title>")
    out.append(f'<rect class="background" width="100%" height="100%" fill="{scene.background}"/>')
    for item in scene.items:
        _svg_item(item, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"
