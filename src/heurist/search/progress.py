"""A live progress line for long searches, on a terminal only.

``search(..., progress=True)`` draws, once a search has run for a second,
one line on standard error that it rewrites a few times per second::

    searching: 1,234,567 expanded, 81,234/s, f 57, frontier 40,211, 312 MiB, 15.2s

and erases when the search ends. f is the f-layer being expanded (best-first
searches) or the bound of the current iteration (IDA*). While the heuristic
prepares its tables (pattern databases can take a minute on first use), the
line says so, from a timer thread, since preparation has no loop to report
from::

    preparing heuristic pdb: 14.0s, 812 MiB (tables are kept in the cache for next time)
 Nothing is drawn
when standard error is not a terminal, so logs and pipes stay clean. The
line is updated from the search's limit checks, so it costs the hot loop
nothing.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from heurist.search.limits import current_rss_kib

DELAY = 1.0
"""Wall-clock seconds before the line first appears."""
INTERVAL = 0.25
"""Wall-clock seconds between updates."""


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):  # no isatty, or a closed stream
        return False


class ProgressLine:
    """Draws the progress line on ``stream`` (standard error by default) if it is a terminal."""

    def __init__(self, stream: TextIO | None = None, *, delay: float = DELAY, interval: float = INTERVAL):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = _is_terminal(self.stream)
        self.interval = interval
        self.started = time.monotonic()
        self._next = self.started + delay
        self._drawn = False

    def update(self, expansions: int, frontier: int | None = None, f: float | None = None) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + self.interval
        elapsed = now - self.started
        parts = [f"searching: {expansions:,} expanded", f"{expansions / elapsed:,.0f}/s"]
        if f is not None:
            parts.append(f"f {f:g}")
        if frontier is not None:
            parts.append(f"frontier {frontier:,}")
        parts += [f"{current_rss_kib() // 1024:,} MiB", f"{elapsed:.1f}s"]
        width = shutil.get_terminal_size((80, 24)).columns - 1
        self._write("\r" + ", ".join(parts)[:width] + "\x1b[K")
        self._drawn = True

    @contextmanager
    def preparing(self, name: str) -> Iterator[None]:
        """Within the block, a line saying that heuristic ``name`` is being prepared, redrawn by a timer."""
        if not self.enabled:
            yield
            return
        done = threading.Event()

        def draw() -> None:
            if done.wait(max(0.0, self._next - time.monotonic())):
                return
            while True:
                elapsed = time.monotonic() - self.started
                text = (f"preparing heuristic {name}: {elapsed:.1f}s, {current_rss_kib() // 1024:,} MiB "
                        "(tables are kept in the cache for next time)")
                width = shutil.get_terminal_size((80, 24)).columns - 1
                self._write("\r" + text[:width] + "\x1b[K")
                self._drawn = True
                if done.wait(self.interval):
                    return

        timer = threading.Thread(target=draw, name="heurist-progress", daemon=True)
        timer.start()
        try:
            yield
        finally:
            done.set()
            timer.join()
            self.clear()

    def clear(self) -> None:
        """Erase the line, if it was drawn."""
        if self._drawn:
            self._write("\r\x1b[K")
            self._drawn = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: stop drawing
            self.enabled = False


def progress_reporter(progress: bool | ProgressLine | None) -> ProgressLine | None:
    """What ``search(progress=...)`` accepts: True (standard error), False/None, or a reporter."""
    if progress is True:
        return ProgressLine()
    if not progress:
        return None
    return progress
