"""The self-contained HTML solution viewer: one file, inline CSS and JavaScript, no network.

Every frame of the plan is embedded as data (its SVG drawing, stored as
numbers into a table of distinct SVG lines, its board as text, the move, the cost so far, h and h* when known); the page swaps the
drawing as the user plays, pauses, steps or scrubs. Elements with stable ids
(``board-text``, ``move-number``, ``goal-status``...) let scripts and tests
read what is shown.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any


@dataclass(frozen=True)
class Frame:
    """One state of a plan as the viewer shows it."""

    svg: str
    text: str
    action: str
    cost: float
    is_goal: bool
    h: float | None = None
    h_star: float | None = None


def _json_number(value: float | None) -> float | int | str | None:
    if value is None:
        return None
    if value == float("inf"):
        return "inf"
    return int(value) if float(value).is_integer() else round(float(value), 4)


def _chart(frames: Sequence[Frame]) -> str:
    """A small SVG line chart of h (and h*) along the path, with a cursor the page moves."""
    values = [v for frame in frames for v in (frame.h, frame.h_star) if v is not None and v != float("inf")]
    if not values or len(frames) < 2:
        return ""
    width, height, pad = 420.0, 150.0, 28.0
    top = max(values) or 1.0
    last = len(frames) - 1

    def point(step: int, value: float) -> str:
        x = pad + (width - 2 * pad) * step / last
        y = height - pad - (height - 2 * pad) * value / top
        return f"{x:.1f},{y:.1f}"

    parts = [
        f'<svg id="h-chart" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" data-left="{pad}" data-right="{width - pad}" data-last="{last}">',
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#888"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>',
        f'<text x="{pad - 4}" y="{pad}" text-anchor="end" font-size="11" dominant-baseline="central">{_json_number(top)}</text>',
        f'<text x="{pad - 4}" y="{height - pad}" text-anchor="end" font-size="11" dominant-baseline="central">0</text>',
        f'<text x="{width - pad}" y="{height - pad + 14}" text-anchor="end" font-size="11">move {last}</text>',
    ]
    for name, colour, dash in (("h_star", "#555555", "5 3"), ("h", "#d62728", "")):
        points = [point(i, getattr(f, name)) for i, f in enumerate(frames) if getattr(f, name) not in (None, float("inf"))]
        if points:
            dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
            parts.append(
                f'<polyline class="series-{name}" fill="none" stroke="{colour}" stroke-width="2"{dash_attribute} '
                f'points="{" ".join(points)}"/>'
            )
    parts.append(f'<line id="h-cursor" x1="{pad}" y1="{pad - 6}" x2="{pad}" y2="{height - pad}" stroke="#1f77b4" stroke-width="2"/>')
    parts.append("</svg>")
    return "\n".join(parts)


def build_viewer(
    title: str,
    frames: Sequence[Frame],
    statistics: Sequence[tuple[str, Any]],
    legend: Sequence[tuple[str, str]],
    total_cost: float,
) -> str:
    """The viewer page for ``frames`` (the first is the start state)."""
    # Frames repeat most of their SVG lines (the board, the pieces that did not move), so
    # each distinct line is stored once and a frame is a list of line numbers.
    line_numbers: dict[str, int] = {}
    frame_lines = [
        [line_numbers.setdefault(line, len(line_numbers)) for line in frame.svg.splitlines()] for frame in frames
    ]
    data = {
        "svgLines": list(line_numbers),
        "frames": [
            {
                "svg": lines,
                "text": frame.text,
                "action": frame.action,
                "cost": _json_number(frame.cost),
                "goal": frame.is_goal,
                "h": _json_number(frame.h),
                "hStar": _json_number(frame.h_star),
            }
            for frame, lines in zip(frames, frame_lines)
        ],
        "totalCost": _json_number(total_cost),
    }
    # "</" would end the script element early; JSON allows the escaped form.
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    statistics_rows = "\n".join(
        f"<tr><th>{escape(str(name))}</th><td>{escape(str(value))}</td></tr>" for name, value in statistics
    )
    legend_items = "\n".join(
        f'<li><span class="swatch" style="background:{colour}"></span>{escape(label)}</li>' for label, colour in legend
    )
    has_h = any(frame.h is not None for frame in frames)
    has_h_star = any(frame.h_star is not None for frame in frames)
    chart = _chart(frames)
    h_block = ""
    if has_h or has_h_star:
        key = []
        if has_h:
            key.append('<span class="key-h">h</span> = <span id="h-value"></span>')
        if has_h_star:
            key.append('<span class="key-hstar">h*</span> = <span id="hstar-value"></span>')
        h_block = f'<section id="heuristic"><h2>Heuristic along the path</h2><p>{" &nbsp; ".join(key)}</p>{chart}</section>'
    return (
        _TEMPLATE.replace("%TITLE%", escape(title))
        .replace("%LEGEND%", legend_items)
        .replace("%STATISTICS%", statistics_rows or '<tr><td colspan="2">not recorded</td></tr>')
        .replace("%HEURISTIC%", h_block)
        .replace("%LAST%", str(len(frames) - 1))
        .replace("%DATA%", payload)
    )


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>
  body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 1.2em; color: #222; background: #fafafa; }
  h1 { font-size: 1.25em; margin: 0 0 .6em; }
  h2 { font-size: 1em; margin: .2em 0 .4em; }
  main { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
  #board { background: #fff; border: 1px solid #ddd; padding: 6px; min-width: 120px; }
  #board svg { display: block; height: clamp(280px, 64vh, 640px); width: auto; max-width: 92vw; }
  #controls { margin: .6em 0; display: flex; gap: .35em; align-items: center; flex-wrap: wrap; }
  button { font-size: 1em; min-width: 2.4em; padding: .25em .5em; cursor: pointer; }
  #scrub { width: 18em; }
  #status p { margin: .25em 0; }
  #goal-status.goal { color: #1b7a1b; font-weight: bold; }
  table { border-collapse: collapse; font-size: .9em; }
  th, td { text-align: left; padding: .15em .8em .15em 0; border-bottom: 1px solid #eee; }
  th { font-weight: normal; color: #555; }
  pre { background: #fff; border: 1px solid #ddd; padding: .5em; font-size: .95em; line-height: 1.15; }
  ul.legend { list-style: none; padding: 0; margin: .3em 0; }
  ul.legend li { display: inline-block; margin-right: 1em; }
  .swatch { display: inline-block; width: .9em; height: .9em; margin-right: .35em; border: 1px solid #444; vertical-align: -1px; }
  .key-h { color: #d62728; font-weight: bold; }
  .key-hstar { color: #555; font-weight: bold; }
  kbd { border: 1px solid #bbb; border-radius: 3px; padding: 0 .3em; font-size: .85em; background: #fff; }
</style>
</head>
<body>
<h1>%TITLE%</h1>
<main>
<section>
  <div id="board"></div>
  <div id="controls">
    <button id="first" aria-label="first state" title="first state (Home)">&#x21E4;</button>
    <button id="previous" aria-label="previous move" title="previous move (&#x2190;)">&#x2759;&#x25C0;</button>
    <button id="play" aria-label="play or pause" title="play or pause (space)">&#x25B6;</button>
    <button id="next" aria-label="next move" title="next move (&#x2192;)">&#x25B6;&#x2759;</button>
    <button id="last" aria-label="last state" title="last state (End)">&#x21E5;</button>
    <input id="scrub" type="range" min="0" max="%LAST%" value="0" aria-label="move">
    <label>speed <select id="speed">
      <option value="1200">slow</option><option value="500" selected>normal</option><option value="150">fast</option>
    </select></label>
  </div>
  <ul class="legend">%LEGEND%</ul>
  <p><kbd>&#x2190;</kbd> <kbd>&#x2192;</kbd> step, <kbd>space</kbd> play/pause, <kbd>Home</kbd> <kbd>End</kbd> first/last</p>
</section>
<section id="status">
  <h2>Plan</h2>
  <p>move <span id="move-number">0</span> of %LAST%</p>
  <p>cost so far <span id="cost">0</span> of <span id="total-cost"></span></p>
  <p id="action"></p>
  <p id="goal-status"></p>
  %HEURISTIC%
  <h2>Board as text</h2>
  <pre id="board-text"></pre>
  <h2>Search statistics</h2>
  <table id="statistics">%STATISTICS%</table>
</section>
</main>
<script type="application/json" id="plan-data">%DATA%</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("plan-data").textContent);
  var frames = data.frames, last = frames.length - 1, current = 0, timer = null;
  function byId(id) { return document.getElementById(id); }
  function shown(value) { return value === null ? "-" : String(value); }
  function show(index) {
    current = Math.max(0, Math.min(last, index));
    var frame = frames[current];
    byId("board").innerHTML = frame.svg.map(function (n) { return data.svgLines[n]; }).join("\\n");
    byId("board-text").textContent = frame.text;
    byId("move-number").textContent = String(current);
    byId("cost").textContent = shown(frame.cost);
    byId("action").textContent = current === 0 ? "start" : "move " + current + ": " + frame.action;
    var goal = byId("goal-status");
    goal.textContent = frame.goal ? "goal reached" : "";
    goal.className = frame.goal ? "goal" : "";
    byId("scrub").value = String(current);
    if (byId("h-value")) { byId("h-value").textContent = shown(frame.h); }
    if (byId("hstar-value")) { byId("hstar-value").textContent = shown(frame.hStar); }
    var chart = byId("h-chart");
    if (chart) {
      var left = Number(chart.dataset.left), right = Number(chart.dataset.right);
      var x = left + (right - left) * current / Math.max(1, Number(chart.dataset.last));
      var cursor = byId("h-cursor");
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    }
    document.body.dataset.frame = String(current);
  }
  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    byId("play").innerHTML = "&#x25B6;";
  }
  function play() {
    if (current >= last) { show(0); }
    byId("play").innerHTML = "&#x275A;&#x275A;";
    timer = setInterval(function () {
      if (current >= last) { pause(); } else { show(current + 1); }
    }, Number(byId("speed").value));
  }
  function toggle() { if (timer === null) { play(); } else { pause(); } }
  byId("total-cost").textContent = shown(data.totalCost);
  byId("first").onclick = function () { pause(); show(0); };
  byId("previous").onclick = function () { pause(); show(current - 1); };
  byId("next").onclick = function () { pause(); show(current + 1); };
  byId("last").onclick = function () { pause(); show(last); };
  byId("play").onclick = toggle;
  byId("scrub").oninput = function () { pause(); show(Number(byId("scrub").value)); };
  byId("speed").onchange = function () { if (timer !== null) { pause(); play(); } };
  document.addEventListener("keydown", function (event) {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") { return; }
    var keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in keys) { pause(); show(current + keys[event.key]); }
    else if (event.key === " ") { toggle(); }
    else if (event.key === "Home") { pause(); show(0); }
    else if (event.key === "End") { pause(); show(last); }
    else { return; }
    event.preventDefault();
  });
  show(0);
})();
</script>
</body>
</html>
"""
