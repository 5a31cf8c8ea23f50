"""Resource limits and signals that end a search cleanly, with the statistics gathered so far.

Three things can end a search early: a limit (:class:`Limits`: expansions,
CPU time, memory), an interrupt (SIGINT or SIGTERM while :func:`search` runs)
and, as a backstop, a CPU-time alarm for work that never reaches a limit
check (a heuristic's ``prepare`` hook, or one very slow expansion).

The algorithms consult a :class:`LimitWatch` every few expansions (the stride
adapts so that a check happens every few milliseconds of CPU time, and lands
exactly on ``max_expansions``). A signal only sets a flag that the next check
reads, so the hot loops pay for one integer comparison per expansion.

Work that cannot check (heuristic preparation) runs under a CPU-time alarm
(``ITIMER_PROF``) that raises :class:`SearchStopped`; :func:`search` and the
algorithms turn it into a result with status ``limit reached`` (time) or
``interrupted``. During the search proper the alarm is armed a little after
the deadline, so it only fires when an expansion never returns to a check.
"""

from __future__ import annotations

import gc
import os
import resource
import signal
import threading
import time
import weakref
from dataclasses import dataclass

_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MEMORY_CHECK_EVERY = 2048  # expansions; memory is also read every _MEMORY_CHECK_SECONDS of CPU time
_MEMORY_CHECK_SECONDS = 0.05
_CHECK_EVERY = (0.002, 0.02)  # aim for a limit check every 2 to 20 ms of CPU time
_MAX_STRIDE = 4096
_BACKSTOP_GRACE = 0.5  # CPU seconds after the deadline before the alarm stops a stuck expansion
_HAS_TIMER = hasattr(signal, "setitimer") and hasattr(signal, "ITIMER_PROF")


@dataclass(frozen=True)
class Limits:
    """Optional caps on a search. ``None`` means unlimited.

    ``time_limit`` is in CPU seconds (see :func:`clock`), counted from the
    start of :func:`~heurist.search.search`, heuristic preparation included;
    ``memory_limit`` is in MiB of resident memory for the whole process.
    """

    max_expansions: int | None = None
    time_limit: float | None = None
    memory_limit: float | None = None


def current_rss_kib() -> int:
    """Resident memory of this process in KiB (Linux ``/proc``; peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_SIZE // 1024
    except OSError:
        return peak_rss_kib()


def peak_rss_kib() -> int:
    """Peak resident memory of this process in KiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def clock() -> float:
    """CPU seconds used by this process: what search times and time limits measure.

    As in Fast Downward and pyperplan, CPU time rather than wall-clock time, so
    figures do not depend on what else the machine is doing.
    """
    return time.process_time()


INTERRUPTED = "interrupted"
"""What :meth:`LimitWatch.check` returns when a signal asked the search to stop."""


class SearchStopped(BaseException):
    """Raised where a search cannot stop at a limit check: by the CPU-time alarm or a repeated signal.

    A ``BaseException``, so that no ``except Exception`` in a heuristic or a
    domain swallows it. ``reason`` is ``"time"`` or ``"interrupted"``.
    """

    def __init__(self, reason: str, signum: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.signum = signum

    def __str__(self) -> str:
        return "interrupted" if self.reason == INTERRUPTED else f"the {self.reason} limit was reached"


class _StopRequest:
    """Process-wide: whether a signal asked the running search to stop, and which."""

    pending = False  # a signal arrived during the current search(); cleared when it ends
    signum: int | None = None  # the last signal that interrupted a search
    cooperative = False  # True while an algorithm checks its LimitWatch; False during preparation
    collector_paused = False  # the outermost search turned the cyclic garbage collector off, to turn back on
    leave_to_exit = False  # see leave_memory_to_exit()


_STOP = _StopRequest()
_SESSIONS: list[SearchSession] = []
_LEFT_TO_EXIT: list[tuple] = []  # what searches left for the process's exit to free


def leave_memory_to_exit() -> None:
    """From now on, searches leave their frontier and records to the process's exit, unfreed.

    For a command that runs a search or two and then ends the process at once
    (``os._exit``, see :func:`heurist.cli.main.run`): freeing millions of
    stored states one by one takes seconds (6-7 s after a 60 s Blocks World
    search), time in which the user waits for nothing. Library callers, who
    go on after a search, never call this, and their searches free as usual.
    """
    _STOP.leave_to_exit = True


def memory_left_to_exit() -> bool:
    """Whether some search left its memory to the process's exit."""
    return bool(_LEFT_TO_EXIT)


def interrupt_signal() -> int | None:
    """The signal (``signal.SIGINT`` or ``signal.SIGTERM``) that interrupted the last search, if one did."""
    return _STOP.signum


class LimitWatch:
    """Checks limits, signals and the progress display every few expansions.

    The algorithms call ``check(expansions, frontier, f)`` when ``expansions``
    reaches ``next_check``; it returns the name of what ended the search
    (``"expansions"``, ``"time"``, ``"memory"`` or ``"interrupted"``) or
    ``None``, and sets the next ``next_check``. The time limit counts from the
    start of the enclosing :func:`~heurist.search.search` call, so heuristic
    preparation uses it up too.
    """

    def __init__(self, limits: Limits | None, start: float | None = None):
        limits = limits or Limits()
        session = _SESSIONS[-1] if _SESSIONS else None
        self.start = clock() if start is None else start
        origin = session.started if session is not None else self.start
        self.max_expansions = limits.max_expansions
        self.deadline = None if limits.time_limit is None else origin + limits.time_limit
        self.memory_kib = None if limits.memory_limit is None else limits.memory_limit * 1024
        self.progress = None if session is None else session.progress
        self._session = session if session is not None and session.claim() else None
        self.active = any(x is not None for x in (self.max_expansions, self.deadline, self.memory_kib))
        self.next_check = 0
        self._stride = 1
        self._last = self._last_memory = self.start
        self._next_memory = 0

    def check(self, expansions: int, frontier: int | None = None, f: float | None = None) -> str | None:
        now = clock()
        spent, self._last = now - self._last, now
        if spent < _CHECK_EVERY[0]:
            self._stride = min(2 * self._stride, _MAX_STRIDE)
        elif spent > _CHECK_EVERY[1]:
            self._stride = max(self._stride // 2, 1)
        self.next_check = expansions + self._stride
        if self.max_expansions is not None:
            if expansions >= self.max_expansions:
                return "expansions"
            self.next_check = min(self.next_check, self.max_expansions)
        if _STOP.pending:
            return INTERRUPTED
        if self.deadline is not None and now >= self.deadline:
            return "time"
        if self.memory_kib is not None and (
            expansions >= self._next_memory or now - self._last_memory >= _MEMORY_CHECK_SECONDS
        ):
            self._next_memory, self._last_memory = expansions + _MEMORY_CHECK_EVERY, now
            if current_rss_kib() >= self.memory_kib:
                return "memory"
        if self.progress is not None:
            self.progress.update(expansions, frontier, f)
        return None

    def keep(self, *containers: object) -> None:
        """The algorithm's frontier and records, about to be dropped: left to the exit if so asked."""
        if _STOP.leave_to_exit:
            _LEFT_TO_EXIT.append(containers)

    def finished(self) -> None:
        """The algorithm has stopped: no alarm may end it now.

        Freeing a large search's frontier and closed list when the algorithm
        returns can take a good part of a second; the backstop alarm must not
        fire then and throw away a result that is already complete.
        """
        if self._session is not None:
            self._session.end_search()

    def exceeded(self, expansions: int) -> str | None:
        """``check(expansions)``, for callers that check at every expansion."""
        return self.check(expansions)

    def elapsed(self) -> float:
        return clock() - self.start


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _on_cpu_alarm(signum, frame) -> None:
    raise SearchStopped("time")


def _on_interrupt(signum, frame) -> None:
    again = _STOP.pending
    _STOP.pending, _STOP.signum = True, signum
    if again or not _STOP.cooperative:
        # A second signal (the search is stuck in one expansion), or preparation, which never checks.
        raise SearchStopped(INTERRUPTED, signum)


def _arm(seconds: float) -> None:
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 1e-6))


class SearchSession:
    """What :func:`~heurist.search.search` sets up around one search, and undoes afterwards.

    * SIGINT and SIGTERM handlers that ask the search to stop (not when the
      signal was ignored, nor outside the main thread, where Python cannot
      install handlers);
    * a CPU-time alarm at the deadline while the heuristic is prepared, then
      ``_BACKSTOP_GRACE`` seconds after it while the algorithm runs;
    * the progress display, cleared at the end;
    * the cyclic garbage collector paused (reference counting still frees
      memory): a search's states, frontier entries and records form no
      cycles, and walking millions of them at every full collection cost
      15-30 % of a long Blocks World search.

    A search started inside another (a heuristic that searches) shares the
    outer one's signal handlers and never outlives its alarm.
    """

    def __init__(self, limits: Limits | None, progress=None):
        self.limits = limits or Limits()
        self.progress = progress
        self.started = clock()
        self.deadline = None if self.limits.time_limit is None else self.started + self.limits.time_limit
        self._handlers: dict[int, object] = {}
        self._timer: tuple[object, float] | None = None  # (previous SIGPROF handler, previous timer's deadline)
        self._alarm_restored = False
        self._began = self._claimed = False

    def __enter__(self) -> SearchSession:
        outermost = not _SESSIONS
        main = _main_thread()
        self._cooperative = _STOP.cooperative
        if outermost:
            # A search makes millions of tuples that live until it ends and form no cycles;
            # the cyclic collector would walk them all again and again as they accumulate.
            _STOP.collector_paused = gc.isenabled()
            gc.disable()
            _STOP.pending, _STOP.signum = False, None
            _STOP.cooperative = False
            if main:
                for signum in (signal.SIGINT, signal.SIGTERM):
                    previous = signal.getsignal(signum)
                    if previous is not signal.SIG_IGN:
                        self._handlers[signum] = previous
                        signal.signal(signum, _on_interrupt)
        if main and _HAS_TIMER:
            _CommandClock.hand_over()
            remaining = signal.getitimer(signal.ITIMER_PROF)[0]
            outer = self.started + remaining if remaining > 0 else None
            if self.deadline is not None or outer is not None:
                self._timer = (signal.signal(signal.SIGPROF, _on_cpu_alarm), outer)
                if self.deadline is not None and (outer is None or self.deadline < outer):
                    _arm(self.deadline - clock())
        _SESSIONS.append(self)
        return self

    def claim(self) -> bool:
        """True once, for the first :class:`LimitWatch` made after :meth:`begin_search`: the algorithm's own."""
        if self._began and not self._claimed:
            self._claimed = True
            return True
        return False

    def begin_search(self) -> None:
        """Preparation is over: signals now only set the flag, and the alarm becomes a backstop."""
        self._began = True
        _STOP.cooperative = True
        if self._timer is not None and self.deadline is not None:
            outer = self._timer[1]
            backstop = self.deadline + _BACKSTOP_GRACE
            if outer is None or backstop < outer:
                _arm(backstop - clock())

    def end_search(self) -> None:
        """The algorithm has its result: the alarm goes back to what it was before this search."""
        if self._timer is not None and not self._alarm_restored:
            self._alarm_restored = True
            outer = self._timer[1]
            if outer is None:
                signal.setitimer(signal.ITIMER_PROF, 0)
            else:
                _arm(outer - clock())

    def __exit__(self, *exc_info) -> None:
        _SESSIONS.pop()
        if self._timer is not None:
            self.end_search()
            signal.signal(signal.SIGPROF, self._timer[0])
        for signum, handler in self._handlers.items():
            signal.signal(signum, handler)
        _STOP.cooperative = self._cooperative  # an outer search may still be preparing its heuristic
        if not _SESSIONS:
            _STOP.pending = False
            if _STOP.collector_paused:
                _STOP.collector_paused = False
                if _LEFT_TO_EXIT:  # millions of objects the collector would walk once more, for nothing
                    gc.freeze()
                gc.enable()
        if self.progress is not None:
            self.progress.clear()


class _CommandClock:
    """A whole-run CPU time limit for one command: see :func:`command_time_limit`."""

    _armed: int | None = None  # the token of the armed command alarm
    _previous_handler: object = None
    _tokens = 0

    def __init__(self, seconds: float):
        self.started = clock()
        self.deadline = self.started + seconds
        if not (_HAS_TIMER and _main_thread()):
            return
        _CommandClock.disarm(_CommandClock._armed)
        _CommandClock._tokens += 1
        token = _CommandClock._tokens
        _CommandClock._previous_handler = signal.signal(signal.SIGPROF, _on_cpu_alarm)
        _CommandClock._armed = token
        _arm(seconds)
        weakref.finalize(self, _CommandClock.disarm, token)

    def remaining(self) -> float:
        """CPU seconds left, never quite zero (a limit of zero would mean no limit)."""
        return max(self.deadline - clock(), 1e-9)

    @staticmethod
    def disarm(token: int | None) -> None:
        if token is None or token != _CommandClock._armed or not _main_thread():
            return
        _CommandClock._armed = None
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, _CommandClock._previous_handler or signal.SIG_DFL)

    @staticmethod
    def hand_over() -> None:
        """A search starts: it takes over the command's alarm (its own time limit is what remains)."""
        _CommandClock.disarm(_CommandClock._armed)


def command_time_limit(seconds: float) -> _CommandClock:
    """Bound the work a command does before its search (loading, building the problem) by ``seconds`` of CPU.

    Arms a CPU-time alarm that raises :class:`SearchStopped` (``"time"``) if
    the command has not started its search by then. The first search takes
    the alarm over; give it ``clock.remaining()`` as its time limit, so that
    the limit bounds the whole run. The alarm is also disarmed when the
    returned object is dropped (the command's arguments go away).
    """
    return _CommandClock(seconds)


class memory_guard:
    """Bound the memory of work that has no limit checks of its own (reading and replaying a long plan).

    While the ``with`` block runs, a thread reads the process's resident
    memory every ``every`` seconds; past ``limit_mib`` it sends the main thread
    SIGUSR2, whose handler raises :class:`SearchStopped` (``"memory"``) there.
    Outside the main thread, or with no limit, it does nothing.
    """

    def __init__(self, limit_mib: float | None, every: float = 0.02):
        self.limit_kib = None if limit_mib is None else limit_mib * 1024
        self.every = every
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._previous: object = None

    def __enter__(self) -> memory_guard:
        if self.limit_kib is None or not _main_thread() or not hasattr(signal, "pthread_kill"):
            return self
        self._previous = signal.signal(signal.SIGUSR2, _on_memory_alarm)
        main = threading.main_thread().ident
        self._thread = threading.Thread(target=self._watch, args=(main,), daemon=True, name="heurist-memory-guard")
        self._thread.start()
        return self

    def _watch(self, main: int) -> None:
        while not self._done.wait(self.every):
            if current_rss_kib() > self.limit_kib:
                signal.pthread_kill(main, signal.SIGUSR2)
                return

    def __exit__(self, *exc_info) -> None:
        if self._thread is None:
            return
        self._done.set()
        self._thread.join()
        signal.signal(signal.SIGUSR2, self._previous or signal.SIG_DFL)


def _on_memory_alarm(signum, frame) -> None:
    raise SearchStopped("memory")
