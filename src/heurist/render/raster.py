"""Scenes rasterised with Pillow: the PNG, the GIF frames and every other bitmap.

Drawn :data:`SUPERSAMPLING` times larger, then reduced, for smooth edges and text.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from heurist.scene import Circle, Group, Item, Line, Rect, Scene, Text

SUPERSAMPLING = 2
"""Raster images are drawn this many times larger, then reduced: smooth edges and text."""

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
