"""A tiny vector scene (rectangles, circles, lines, text, groups) and its two writers.

Every domain draws a state once, as a :class:`Scene`; :func:`to_svg` writes
it as SVG text and :func:`to_image` rasterises it with Pillow, so the SVG,
the PNG, the GIF frames and the HTML viewer all show the same picture.
Coordinates are pixels with y pointing down, as in SVG.

Items carry an optional ``role`` (written as the SVG ``class``), which names
what an item stands for (``piece big``, ``target``, ``block in-place``...):
the viewer's stylesheet and the tests rely on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape

from PIL import Image, ImageDraw, ImageFont

FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif"
SUPERSAMPLING = 2
"""Raster images are drawn this many times larger, then reduced: smooth edges and text."""


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


# ----- raster --------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    for name in ("DejaVuSans.ttf", "Arial.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)  # Pillow's bundled font


_ANCHORS = {"start": "lm", "middle": "mm", "end": "rm"}


def _dashed_rectangle(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], colour: str, width: int) -> None:
    x0, y0, x1, y1 = box
    dash, gap = 6 * width, 4 * width
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = max(abs(bx - ax), abs(by - ay))
        position = 0.0
        while position < length:
            end = min(position + dash, length)
            f0, f1 = position / length, end / length
            draw.line(
                [(ax + (bx - ax) * f0, ay + (by - ay) * f0), (ax + (bx - ax) * f1, ay + (by - ay) * f1)],
                fill=colour,
                width=width,
            )
            position = end + gap


def _raster_item(draw: ImageDraw.ImageDraw, item: Item, dx: float, dy: float, scale: float) -> None:
    def x(value: float) -> float:
        return dx + value * scale

    def y(value: float) -> float:
        return dy + value * scale

    if isinstance(item, Rect):
        box = (x(item.x), y(item.y), x(item.x + item.width) - 1, y(item.y + item.height) - 1)
        stroke_width = max(1, round(item.stroke_width * scale)) if item.stroke and item.stroke_width else 0
        if item.dashed:
            if item.fill:
                draw.rectangle(box, fill=item.fill)
            if stroke_width:
                _dashed_rectangle(draw, box, item.stroke, stroke_width)
            return
        draw.rounded_rectangle(
            box,
            radius=item.radius * scale,
            fill=item.fill,
            outline=item.stroke if stroke_width else None,
            width=stroke_width,
        )
    elif isinstance(item, Circle):
        r = item.r * scale
        box = (x(item.cx) - r, y(item.cy) - r, x(item.cx) + r, y(item.cy) + r)
        stroke_width = max(1, round(item.stroke_width * scale)) if item.stroke and item.stroke_width else 0
        draw.ellipse(box, fill=item.fill, outline=item.stroke if stroke_width else None, width=stroke_width)
    elif isinstance(item, Line):
        draw.line([(x(item.x1), y(item.y1)), (x(item.x2), y(item.y2))], fill=item.stroke, width=max(1, round(item.width * scale)))
    elif isinstance(item, Text):
        font = _font(max(6, round(item.size * scale)))
        draw.text((x(item.x), y(item.y)), item.text, fill=item.fill, font=font, anchor=_ANCHORS[item.anchor])
    elif isinstance(item, Group):
        for child in item.items:
            _raster_item(draw, child, x(item.dx), y(item.dy), scale * item.scale)
    else:  # pragma: no cover
        raise TypeError(f"cannot draw {item!r}")


def to_image(scene: Scene) -> Image.Image:
    """The scene as an RGB image of ``ceil(width)`` x ``ceil(height)`` pixels."""
    width, height = max(1, int(-(-scene.width // 1))), max(1, int(-(-scene.height // 1)))
    factor = SUPERSAMPLING
    image = Image.new("RGB", (width * factor, height * factor), scene.background)
    draw = ImageDraw.Draw(image)
    for item in scene.items:
        _raster_item(draw, item, 0.0, 0.0, float(factor))
    return image.reduce(factor) if factor != 1 else image  # box filter: no ringing at edges
