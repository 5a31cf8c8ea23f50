"""Signals, whole-run time limits and the live progress line, through the real command line.

SIGINT and SIGTERM end a search as a limit does (status ``interrupted``, the
statistics so far, exit 130 or 143); the course front ends write no output
file. ``--time-limit`` bounds the whole run: loading, heuristic preparation
and search. A search longer than a second shows one progress line on a
terminal, never elsewhere.

Time bounds here are generous correctness bounds (CPU limits on a busy
machine take longer in wall-clock time), not benchmarks.
"""

from __future__ import annotations

import io
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from heurist.search import Limits, ProgressLine, Status, breadth_first_search, search
from heurist.search.limits import interrupt_signal

ROOT = Path(__file__).resolve().parents[1]
BWCHP11 = str(ROOT / "data/blocksworld/spring21_bwchp/bwchp11.bwp")
WALL_BOUND = 20.0  # seconds, for a 1-2 CPU-second limit

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and uses a pty")


def start(*args: str, cwd: Path = ROOT, **options) -> subprocess.Popen:
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen(
        [sys.executable, "-m", "heurist.cli.main", *args], cwd=cwd, stdin=subprocess.DEVNULL, **options
    )


def heurist(*args: str, cwd: Path = ROOT) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    process = subprocess.run(
        [sys.executable, "-m", "heurist.cli.main", *args], cwd=cwd, capture_output=True, text=True,
        timeout=120,
    )
    return process, time.monotonic() - started


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the command never got there"
        time.sleep(0.05)


def interrupt_after_cpu(process: subprocess.Popen, signum: int, seconds: float = 1.0) -> tuple[str, str]:
    """Send ``signum`` once the process has used ``seconds`` of CPU (well into its search)."""
    wait_for(lambda: process.poll() is not None or cpu_seconds(process.pid) >= seconds)
    assert process.poll() is None, "the search ended before the signal"
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    return out.decode(), err.decode()


SLOW_KLOTSKI = "11222222\n11222222\n22222222\n........\n........\n22222222\n22222222\n........\n"
"""A 2x2 and 32 single squares on an 8x8 board: blind A* takes minutes."""


# --- interrupts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_solve_with_its_statistics(signum, status):
    out, err = interrupt_after_cpu(start("solve", "blocksworld", BWCHP11), signum)
    assert "status: interrupted" in out
    expansions = int(out.split("expansions: ")[1].split()[0])
    assert expansions > 0 and "search_time:" in out and "memory:" in out
    assert "Traceback" not in err and "searching:" not in err  # stderr is no terminal: no progress line


def test_interrupted_hrd_writes_no_output_file(tmp_path):
    puzzle = tmp_path / "slow.txt"
    puzzle.write_text(SLOW_KLOTSKI)
    output = tmp_path / "out.txt"
    process = start("hrd", "--algo", "astar", "--inputfile", str(puzzle), "--outputfile", str(output), "-H", "zero")
    out, err = interrupt_after_cpu(process, signal.SIGINT)
    assert process.returncode == 130
    assert not output.exists() and os.listdir(tmp_path) == ["slow.txt"]  # no temporary file either
    assert err.count("\n") == 1 and "interrupted" in err and "Traceback" not in err


def test_sigterm_ends_the_blocksworld_front_end_with_one_line():
    process = start("blocksworld", BWCHP11, "-MAX_ITERS", "100000000")
    out, err = interrupt_after_cpu(process, signal.SIGTERM)
    assert process.returncode == 143
    assert out == "" and err.count("\n") == 1 and "interrupted" in err


def test_an_interrupt_outside_a_search_is_one_line(tmp_path):
    started = tmp_path / "started"
    module = tmp_path / "sleepy.py"
    module.write_text(f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\ntime.sleep(60)\n"
                      "def h(state, problem):\n    return 0\n")
    process = start("solve", "klotski", "data/hrd/w23_s24_char/testhrd_easy1.txt", "--heuristic", f"{module}:h")
    wait_for(started.exists)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.decode() == "heurist: interrupted\n" and out == b""


def busy_preparation(tmp_path: Path) -> Path:
    module = tmp_path / "busy.py"
    started = tmp_path / "started"
    module.write_text(
        "import pathlib\n\n"
        "def h(state, problem):\n    return 0\n\n"
        f"def prepare(problem):\n    pathlib.Path({str(started)!r}).touch()\n    while True:\n        pass\n\n"
        "h.prepare = prepare\n"
    )
    return module


def test_an_interrupt_while_preparing_the_heuristic_ends_the_search(tmp_path):
    module = busy_preparation(tmp_path)
    process = start("solve", "klotski", "data/hrd/w23_s24_char/testhrd_easy1.txt", "--heuristic", f"{module}:h")
    wait_for((tmp_path / "started").exists)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "status: interrupted" in out.decode() and "expansions: 0" in out.decode()
    assert b"Traceback" not in err


def test_signal_handlers_are_restored_after_a_search():
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGPROF)
    result = search(Endless(), "bfs", limits=Limits(time_limit=0.05))
    assert result.status is Status.LIMIT_REACHED
    after = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGPROF)
    assert after == before
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_signal_during_a_library_search_returns_interrupted():
    class Interrupting(Endless):
        def successors(self, state):
            if state == 1000:
                os.kill(os.getpid(), signal.SIGINT)
            yield from super().successors(state)

    result = search(Interrupting(), "astar")
    assert result.status is Status.INTERRUPTED and result.limit is None
    assert result.statistics.expansions > 1000
    assert interrupt_signal() == signal.SIGINT
    # The interrupt was for that search only: the next one, even without search(), runs to its limit.
    after = breadth_first_search(Endless(), limits=Limits(max_expansions=50))
    assert after.status is Status.LIMIT_REACHED and after.statistics.expansions == 50


# --- time limits bound the whole run ------------------------------------------------------------


def assert_limited(process: subprocess.CompletedProcess, elapsed: float) -> None:
    assert process.returncode == 3, process.stderr
    assert elapsed < WALL_BOUND
    assert "Traceback" not in process.stderr


@pytest.mark.parametrize("puzzle", ["fill", "corners", "cover"])
def test_the_time_limit_bounds_building_a_large_blokus_board(puzzle):
    targets = ["--targets", "[(40, 40)]"] if puzzle == "cover" else []
    process, elapsed = heurist("solve", "blokus", "valid_pieces.txt", "--puzzle", puzzle, "-s", "50", "50",
                               *targets, "--time-limit", "1")
    assert_limited(process, elapsed)
    assert process.stderr.count("\n") <= 1


def test_the_time_limit_bounds_heuristic_preparation(tmp_path):
    module = busy_preparation(tmp_path)
    process, elapsed = heurist("solve", "klotski", "data/hrd/w23_s24_char/testhrd_easy1.txt",
                               "--heuristic", f"{module}:h", "--time-limit", "1")
    assert_limited(process, elapsed)
    assert "status: limit reached (time limit)" in process.stdout


def test_the_time_limit_bounds_loading(tmp_path):
    module = tmp_path / "spin.py"
    module.write_text("while True:\n    pass\n")
    process, elapsed = heurist("solve", "klotski", "data/hrd/w23_s24_char/testhrd_easy1.txt",
                               "--heuristic", f"{module}:h", "--time-limit", "1")
    assert_limited(process, elapsed)
    assert process.stderr == "heurist: the time limit was reached before the search began\n"


def test_the_time_limit_bounds_hrd_and_no_file_is_written(tmp_path):
    puzzle = tmp_path / "slow.txt"
    puzzle.write_text(SLOW_KLOTSKI)
    output = tmp_path / "out.txt"
    process, elapsed = heurist("hrd", "--algo", "astar", "--inputfile", str(puzzle), "--outputfile", str(output),
                               "-H", "zero", "--time-limit", "1")
    assert_limited(process, elapsed)
    assert not output.exists()


def test_an_endless_input_file_is_refused():
    process, elapsed = heurist("solve", "blocksworld", "/dev/zero", "--time-limit", "4")
    assert process.returncode == 2 and elapsed < WALL_BOUND
    assert process.stderr.startswith("heurist: /dev/zero: ") and process.stderr.count("\n") == 1


def test_a_search_time_limit_still_counts_from_the_search_in_the_library():
    """Outside the command line the limit is per search() call, whatever ran before it."""
    spent = time.process_time()
    while time.process_time() - spent < 0.1:
        pass
    result = search(Endless(), "bfs", limits=Limits(time_limit=0.2))
    assert result.limit == "time" and result.statistics.expansions > 0


# --- the progress line --------------------------------------------------------------------------


class Endless:
    initial_state = 0

    def is_goal(self, state):
        return False

    def successors(self, state):
        yield "next", state + 1, 1


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_line_is_drawn_on_a_terminal_and_erased():
    terminal = FakeTerminal()
    result = search(Endless(), "astar", limits=Limits(time_limit=0.3),
                    progress=ProgressLine(terminal, delay=0.05, interval=0.05))
    assert result.status is Status.LIMIT_REACHED
    text = terminal.getvalue()
    assert text.startswith("\rsearching: ") and "expanded" in text and "/s" in text and "f " in text
    assert "frontier 1" in text and "MiB" in text
    assert text.endswith("\r\x1b[K")  # erased when the search ends
    assert "\n" not in text


def test_no_progress_line_elsewhere():
    stream = io.StringIO()
    search(Endless(), "bfs", limits=Limits(time_limit=0.2), progress=ProgressLine(stream, delay=0, interval=0))
    assert stream.getvalue() == ""


def test_no_progress_line_for_a_short_search():
    terminal = FakeTerminal()
    search(Endless(), "dfs", limits=Limits(max_expansions=100), progress=ProgressLine(terminal))
    assert terminal.getvalue() == ""


def run_on_terminal(*args: str) -> tuple[int, str]:
    """Run heurist with standard error on a pseudo-terminal; its exit status and what it drew there."""
    main, secondary = pty.openpty()
    process = start(*args, stderr=secondary)
    os.close(secondary)
    drawn = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        assert ready, "no output from the command"
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the command closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    os.close(main)
    process.communicate(timeout=60)
    return process.returncode, drawn.decode()


def test_solve_shows_progress_on_a_terminal_unless_quiet():
    status, drawn = run_on_terminal("solve", "blocksworld", BWCHP11, "--time-limit", "1.8")
    assert status == 3
    assert "\rsearching: " in drawn and "expanded" in drawn and "frontier" in drawn
    assert drawn.endswith("\r\x1b[K")
    status, drawn = run_on_terminal("solve", "blocksworld", BWCHP11, "--time-limit", "1.2", "--quiet")
    assert status == 3 and drawn == ""


class _Endless:
    """Every state has four new children: a search that only a limit ends, with much to free."""

    initial_state = (0,) * 20

    def is_goal(self, state) -> bool:
        return False

    def successors(self, state):
        for i in range(4):
            yield i, state[1:] + (state[0] * 4 + i + 1,), 1


def test_a_search_stopped_by_its_time_limit_keeps_its_statistics_while_its_memory_is_freed(monkeypatch):
    # Freeing the frontier and closed list after the algorithm returns takes time; the
    # backstop alarm (made to fire almost at once here) must not discard the finished result.
    import heurist.search.limits as limits

    monkeypatch.setattr(limits, "_BACKSTOP_GRACE", 0.001)
    result = search(_Endless(), "astar", lambda state, problem: 0, limits=Limits(time_limit=0.5))
    assert result.limit == "time" and result.statistics.expansions > 0


def test_a_command_that_leaves_its_memory_to_the_exit_still_prints_everything_through_a_pipe():
    # ``heurist solve`` ends with os._exit after a search that stored states: the plan and the
    # statistics must all be flushed through the pipe first, with the status of the search.
    process, _ = heurist("solve", "klotski", "data/hrd/w23_s24_char/testhrd_hard1.txt")
    assert process.returncode == 0, process.stderr
    assert "status: solved" in process.stdout and process.stdout.rstrip().endswith("KiB")
    assert "cost: 116" in process.stdout
    process, _ = heurist("solve", "blocksworld", BWCHP11, "--time-limit", "1", "--quiet")
    assert process.returncode == 3 and "status: limit reached (time limit)" in process.stdout
    assert "total_time:" in process.stdout and process.stderr == ""


def test_searches_run_by_a_library_caller_free_their_memory():
    from heurist.cli.main import main
    from heurist.search.limits import memory_left_to_exit

    assert main(["solve", "klotski", str(ROOT / "data/hrd/f24_w25_goal/easy1.txt"), "--quiet"]) == 0
    assert not memory_left_to_exit()
