"""Pictures of states and replays of plans: SVG, PNG, animated GIF and an HTML viewer.

* :func:`render_state` draws one state (or an instance's start) to a file;
* :func:`render_plan` draws a plan: ``.svg``/``.png`` its final state,
  ``.gif`` one frame per move with a pause on the last, ``.html`` the
  self-contained viewer with play / pause / step / scrub controls, the cost
  so far, the search statistics and, when given a heuristic, h and h*
  along the path.

The format follows the file's extension. Each domain draws a state of a
plan as a :class:`~heurist.scene.Scene` (``Domain.draw``);
:func:`heurist.scene.to_svg` writes scenes as SVG and :mod:`.raster`
rasterises them with Pillow, so every format shows the same picture.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from heurist.domains import Domain
from heurist.errors import InputError
from heurist.files import write_atomically
from heurist.render.raster import to_image
from heurist.render.viewer import Frame, build_viewer
from heurist.scene import Scene, to_svg, with_caption

FORMATS = (".svg", ".png", ".gif", ".html")
MAX_GIF_MOVES = 1_000
"""Longer plans are not animated as GIF (every frame is a bitmap held until the file is written)."""
MAX_VIEWER_MOVES = 20_000
"""Longer plans are not put in the HTML viewer (every state is an SVG in the page)."""
MOVE_MILLISECONDS = 500
"""How long each GIF frame shows; the last frame stays :data:`FINAL_MILLISECONDS`."""
FINAL_MILLISECONDS = 2500


def output_format(path: str | Path) -> str:
    """The extension of ``path`` if it is one :data:`FORMATS` knows; InputError otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix == ".htm":
        suffix = ".html"
    if suffix not in FORMATS:
        raise InputError(
            f"cannot tell the picture format from {Path(path).name!r}: end it with {', '.join(FORMATS)}",
            path,
        )
    return suffix


def replay_steps(domain: Domain, problem: Any, states: Sequence[Any], source: str = "plan") -> list[tuple[Any, float]]:
    """(action, cost) of each step of ``states``, found among the real moves (``Domain.step``).

    This both recovers what a list of states leaves out and checks the plan:
    a step that is not one legal move is an :class:`InputError` naming it.
    """
    steps = []
    for number, (before, after) in enumerate(zip(states, states[1:]), start=1):
        step = domain.step(problem, before, after)
        if step is None:
            raise InputError(f"step {number} of the plan is not one legal move", source)
        steps.append(step)
    return steps


def statistics_rows(statistics: Any) -> list[tuple[str, Any]]:
    """Name/value rows of a :class:`~heurist.search.Statistics`, a mapping, or nothing."""
    if statistics is None:
        return []
    if hasattr(statistics, "as_dict"):
        statistics = statistics.as_dict()
    rows = []
    for name, value in dict(statistics).items():
        if isinstance(value, float) and name.endswith("time"):
            value = f"{value:.4f}s"
        elif name == "memory":
            value = f"{value} KiB"
        rows.append((name, "-" if value is None else value))
    return rows


def render_state(domain: Domain, problem: Any, state: Any, path: str | Path, *, flip: bool = False) -> None:
    """Draw one state as ``.svg`` or ``.png`` (``.gif``/``.html``: a one-frame replay)."""
    render_plan(domain, problem, [state], None, path, flip=flip)


def render_plan(
    domain: Domain,
    problem: Any,
    states: Sequence[Any],
    statistics: Any,
    path: str | Path,
    **options: Any,
) -> None:
    """Write the plan ``states`` to ``path`` (see :func:`plan_picture`); the file is written whole or not at all."""
    write_atomically(path, plan_picture(domain, problem, states, statistics, path, **options))


def plan_picture(
    domain: Domain,
    problem: Any,
    states: Sequence[Any],
    statistics: Any,
    path: str | Path,
    *,
    actions: Sequence[Any] | None = None,
    step_costs: Sequence[float] | None = None,
    heuristic: Callable[[Any, Any], float] | None = None,
    optimal: bool = False,
    flip: bool = False,
    title: str | None = None,
    frame_milliseconds: int = MOVE_MILLISECONDS,
) -> bytes:
    """The picture of the plan ``states`` (start first) in the format ``path``'s extension names.

    ``statistics`` (a :class:`~heurist.search.Statistics`, a dict or None)
    goes into the HTML viewer. ``actions`` and ``step_costs`` are recovered
    from the problem when not given (which also checks the plan). With a
    ``heuristic`` the viewer plots h along the path, and h* (the cost still
    to go) when ``optimal`` says the plan is a cheapest one. ``flip`` puts
    Blokus row 0 at the top; ``frame_milliseconds`` is how long each GIF
    frame shows. Nothing is written: the caller writes the bytes with its other files.
    """
    suffix = output_format(path)
    if not states:
        raise InputError("there is no plan to draw (no states)", path)
    longest = {".gif": MAX_GIF_MOVES, ".html": MAX_VIEWER_MOVES}.get(suffix)
    if longest is not None and len(states) - 1 > longest:
        instead = "animate it as .html, or draw" if suffix == ".gif" else "draw"
        raise InputError(f"a plan of {len(states) - 1:,} moves is too long for {suffix} (at most {longest:,}); "
                         f"{instead} its last state as .png or .svg", path)
    if actions is None or step_costs is None:
        steps = replay_steps(domain, problem, states)
        actions = [action for action, _ in steps] if actions is None else actions
        step_costs = [cost for _, cost in steps] if step_costs is None else step_costs
    costs = [0.0]
    for cost in step_costs:
        costs.append(costs[-1] + cost)
    last = len(states) - 1
    described = [domain.format_action(problem, action) for action in actions]

    def caption(index: int) -> list[str]:
        if index == 0:
            return ["start", ""] if last else []
        return [f"move {index} of {last}, cost {_number(costs[index])}", described[index - 1]]

    def frame_scene(index: int) -> Scene:
        scene = domain.draw(problem, states, index, flip=flip)
        lines = caption(index)
        return with_caption(scene, lines) if lines else scene

    if suffix in (".svg", ".png"):
        scene = frame_scene(last)
        data = to_svg(scene).encode() if suffix == ".svg" else _png_bytes(scene)
    elif suffix == ".gif":
        data = _gif_bytes(_LazyScenes(frame_scene, len(states)), frame_milliseconds)
    else:
        h_values = _h_values(heuristic, problem, states)
        frames = [
            Frame(
                svg=to_svg(domain.draw(problem, states, index, flip=flip)),
                text=domain.format_state(problem, state),
                action=described[index - 1] if index else "",
                cost=costs[index],
                is_goal=bool(problem.is_goal(state)),
                h=h_values[index] if h_values else None,
                h_star=costs[-1] - costs[index] if optimal else None,
            )
            for index, state in enumerate(states)
        ]
        name = title or f"{domain.name}: plan"
        data = build_viewer(name, frames, statistics_rows(statistics), list(domain.legend), costs[-1]).encode()
    return data


class _LazyScenes(Sequence):
    """The scenes of a plan, drawn when asked for: a long GIF never holds them all at once."""

    def __init__(self, draw: Callable[[int], Scene], count: int):
        self.draw, self.count = draw, count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self.draw(i) for i in range(*index.indices(self.count))]
        if not -self.count <= index < self.count:
            raise IndexError(index)
        return self.draw(index % self.count)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _h_values(heuristic: Callable | None, problem: Any, states: Sequence[Any]) -> list[float] | None:
    if heuristic is None:
        return None
    prepare = getattr(heuristic, "prepare", None)
    if prepare is not None:
        prepare(problem)
    return [heuristic(state, problem) for state in states]


def _png_bytes(scene: Scene) -> bytes:
    buffer = io.BytesIO()
    to_image(scene).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _gif_bytes(scenes: Sequence[Scene], frame_milliseconds: int = MOVE_MILLISECONDS) -> bytes:
    """One frame per scene, ``frame_milliseconds`` each, the last held longer, looping.

    Frames are drawn one at a time and kept only in the palette's one byte a
    pixel, so a long plan costs a quarter of what full-colour frames would.
    """
    # One shared palette lets the GIF store only what changed between frames. Every frame
    # shows the same kinds of things, so the first two and the last hold all the colours.
    samples = [to_image(scenes[index]) for index in dict.fromkeys((0, min(1, len(scenes) - 1), len(scenes) - 1))]
    size = (max(image.width for image in samples), max(image.height for image in samples))
    sheet = Image.new("RGB", (size[0] * len(samples), size[1]), "#ffffff")
    for number, sample in enumerate(samples):
        sheet.paste(sample, (size[0] * number, 0))
    palette = sheet.quantize(colors=96, dither=Image.Dither.NONE)
    frames = []
    for scene in scenes:
        image = to_image(scene)
        if image.size != size:  # captions of different lengths never change the size, but be safe
            padded = Image.new("RGB", size, "#ffffff")
            padded.paste(image, (0, 0))
            image = padded
        frames.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [frame_milliseconds] * (len(frames) - 1) + [max(FINAL_MILLISECONDS, frame_milliseconds)]
    buffer = io.BytesIO()
    frames[0].save(
        buffer, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, disposal=1
    )
    return buffer.getvalue()


__all__ = ["FORMATS", "output_format", "plan_picture", "render_plan", "render_state", "replay_steps"]
