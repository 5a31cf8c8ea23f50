"""Faults: outputs that cannot be written, special output files, a full or closed standard
output, bad option values, and user heuristics that exit.

Each case checks the promise of the README's exit-status table: the exit status, exactly one
line on stderr naming the path (no traceback), and no output file created or changed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import heurist
from heurist.cli.main import main
from heurist.errors import InputError
from heurist.files import write_atomically, write_files

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
HARD1 = DATA / "hrd" / "w23_s24_char" / "testhrd_hard1.txt"
EASY1 = DATA / "hrd" / "w23_s24_char" / "testhrd_easy1.txt"
UNSOLVABLE = DATA / "hrd" / "f24_w25_goal" / "easy2.txt"
V1_INPUT = DATA / "hrd" / "f22_numeric" / "hrd_input0.txt"
V1_SOLUTION = DATA / "hrd" / "f22_numeric" / "hrd_solution0.txt"
BWP = DATA / "blocksworld" / "probA03.bwp"
FULL_MESSAGE = "heurist: standard output: cannot write: No space left on device"
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0
# This checkout's heurist, also from another working directory (PYTHONPATH may be relative).
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(Path(heurist.__file__).resolve().parents[1]), *filter(None, [os.environ.get("PYTHONPATH")])]
)}


def heurist(*args: object, cwd: Path | None = None, **options) -> subprocess.CompletedProcess:
    options.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-m", "heurist.cli.main", *map(str, args)],
        stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120, env=ENV, **options,
    )


def one_line(result: subprocess.CompletedProcess, status: int, *names: object) -> str:
    """The single stderr line of ``result``, which exited with ``status`` and names each of ``names``."""
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    for name in names:
        assert str(name) in lines[0], lines[0]
    return lines[0]


def snapshot(directory: Path) -> dict[str, object]:
    """Every entry below ``directory``: a file's bytes, a directory's or link's kind."""
    entries: dict[str, object] = {}
    for path in sorted(directory.rglob("*")):
        key = str(path.relative_to(directory))
        if path.is_symlink():
            entries[key] = ("link", os.readlink(path))
        elif path.is_dir():
            entries[key] = "dir"
        elif path.is_file():
            entries[key] = path.read_bytes()
        else:
            entries[key] = stat.S_IFMT(path.lstat().st_mode)
    return entries


# --- a full or closed standard output ------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ("solve", "klotski", HARD1),
    ("solve", "blocksworld", BWP),
    ("blocksworld", BWP),
    ("validate", "klotski", V1_INPUT, V1_SOLUTION, "--no-optimality"),
    ("bench", "--list"),
], ids=["solve-klotski", "solve-blocksworld", "blocksworld", "validate", "bench-list"])
def test_a_full_standard_output_is_one_line_and_status_2(args):
    with open("/dev/full", "w") as full:
        result = heurist(*args, stdout=full)
    assert one_line(result, 2) == FULL_MESSAGE


def test_a_closed_standard_output_is_one_line_and_status_2():
    command = [sys.executable, "-m", "heurist.cli.main", "solve", "klotski", str(EASY1)]
    result = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *command], stderr=subprocess.PIPE, text=True,
                            timeout=120, env=ENV)
    assert one_line(result, 2, "standard output: cannot write")


def test_a_reader_that_goes_away_is_still_silent():
    command = [sys.executable, "-m", "heurist.cli.main", "solve", "klotski", str(HARD1)]
    result = subprocess.run(["sh", "-c", '"$@" | head -1 >/dev/null', "sh", *command],
                            stderr=subprocess.PIPE, text=True, timeout=120, env=ENV)
    assert result.stderr == ""


# --- outputs that cannot be written -----------------------------------------------------------------

def test_hrd_output_that_is_a_directory(tmp_path):
    (tmp_path / "out").mkdir()
    before = snapshot(tmp_path)
    result = heurist("hrd", "--algo", "astar", "--inputfile", EASY1, "--outputfile", "out", cwd=tmp_path)
    assert one_line(result, 2, "out: cannot write: Is a directory")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("astar_out", ["adir", "missing/astar.txt"])
def test_hrd_v1_checks_both_outputs_before_writing_either(tmp_path, astar_out):
    (tmp_path / "adir").mkdir()
    before = snapshot(tmp_path)
    result = heurist("hrd", V1_INPUT, "dfs.txt", astar_out, cwd=tmp_path)
    assert one_line(result, 2, f"{astar_out}: cannot write")
    assert snapshot(tmp_path) == before  # dfs.txt not written


def test_hrd_output_in_a_missing_directory(tmp_path):
    result = heurist("hrd", "--algo", "dfs", "--inputfile", EASY1, "--outputfile", "no/such/out.txt", cwd=tmp_path)
    assert one_line(result, 2, "no/such/out.txt: cannot write: No such file or directory")
    assert snapshot(tmp_path) == {}


def test_render_target_that_is_a_directory(tmp_path):
    (tmp_path / "d.png").mkdir()
    before = snapshot(tmp_path)
    result = heurist("solve", "klotski", EASY1, "--render", "d.png", cwd=tmp_path)
    assert one_line(result, 2, "d.png: cannot write: Is a directory")
    assert result.stdout == ""  # refused before the search
    result = heurist("render", "klotski", EASY1, "--out", "d.png", cwd=tmp_path)
    assert one_line(result, 2, "d.png: cannot write: Is a directory")
    assert snapshot(tmp_path) == before


def test_generate_into_an_existing_file(tmp_path):
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    before = snapshot(tmp_path)
    result = heurist("generate", "klotski", "--count", "2", "--out", "README.md", cwd=tmp_path)
    assert one_line(result, 2, "README.md: cannot write")
    assert snapshot(tmp_path) == before


def test_export_into_a_path_below_a_file_leaves_nothing(tmp_path):
    (tmp_path / "file").write_text("x")
    before = snapshot(tmp_path)
    result = heurist("export", "pddl", BWP, "--out", "file/pddl", cwd=tmp_path)
    assert one_line(result, 2, "file")
    assert snapshot(tmp_path) == before


@pytest.mark.skipif(ROOT_USER, reason="root writes into a read-only directory")
def test_a_read_only_directory(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = heurist("hrd", "--algo", "astar", "--inputfile", EASY1, "--outputfile", locked / "out.txt")
        assert one_line(result, 2, locked / "out.txt", "Permission denied")
        result = heurist("export", "pddl", BWP, "--out", locked / "pddl")
        assert one_line(result, 2, locked / "pddl", "Permission denied")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


@contextlib.contextmanager
def tmpfs(directory: Path, options: str):
    """A small tmpfs mounted on ``directory`` (root only); skips the test when it cannot be mounted."""
    if not ROOT_USER or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    directory.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(directory)],
                             capture_output=True, timeout=30)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.decode().strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], capture_output=True, timeout=30)


def test_a_full_disk(tmp_path):
    with tmpfs(tmp_path / "disk", "size=64k") as disk:
        with contextlib.suppress(OSError), open(disk / "filler", "wb") as filler:
            filler.write(b"\0" * 1_000_000)
        before = snapshot(disk)
        result = heurist("hrd", "--algo", "astar", "--inputfile", EASY1, "--outputfile", disk / "out.txt")
        assert one_line(result, 2, disk / "out.txt", "No space left on device")
        result = heurist("export", "pddl", BWP, "--out", disk / "pddl")
        assert one_line(result, 2, disk / "pddl", "No space left on device")  # and no empty pddl/ left
        result = heurist("solve", "klotski", EASY1, "--render", disk / "plan.svg")
        assert one_line(result, 2, disk / "plan.svg", "No space left on device")
        assert snapshot(disk) == before


def test_a_read_only_file_system(tmp_path):
    with tmpfs(tmp_path / "ro", "ro,size=64k") as disk:
        result = heurist("hrd", "--algo", "astar", "--inputfile", EASY1, "--outputfile", disk / "out.txt")
        assert one_line(result, 2, disk / "out.txt", "Read-only file system")
        result = heurist("generate", "klotski", "--count", "2", "--out", disk / "new")
        assert one_line(result, 2, disk / "new", "Read-only file system")
        assert snapshot(disk) == {}


# --- special output files are written through --------------------------------------------------------

def test_dev_full_as_an_output_file_is_one_line():
    result = heurist("hrd", "--algo", "astar", "--inputfile", EASY1, "--outputfile", "/dev/full")
    assert one_line(result, 2, "/dev/full: cannot write: No space left on device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_symlink_to_standard_output_is_written_through(tmp_path):
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    result = heurist("hrd", "--algo", "astar", "--inputfile", EASY1, "--outputfile", link)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("2^22")  # the boards, on standard output
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"


def test_a_symlink_to_a_file_is_written_through(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    write_atomically(link, "new\n")
    assert link.is_symlink() and target.read_text() == "new\n"


def test_a_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_files([(fifo, "through the pipe\n")])
    reader.join(10)
    assert received == [b"through the pipe\n"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(not ROOT_USER, reason="making a device node needs root")
def test_a_character_device_is_written_through_even_as_root(tmp_path):
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a scratch copy of /dev/null
    result = heurist("hrd", "--algo", "astar", "--inputfile", EASY1, "--outputfile", device)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(device.lstat().st_mode)
    assert [path.name for path in tmp_path.iterdir()] == ["null"]  # no temporary file either


def test_write_files_is_all_or_nothing(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a").write_text("old")
    with pytest.raises(InputError, match="b: cannot write: Is a directory"):
        write_files([(tmp_path / "a", "new"), (tmp_path / "b", "new")])
    assert snapshot(tmp_path) == {"a": b"old", "b": "dir"}


# --- hrd's exit status -----------------------------------------------------------------------------

def test_hrd_exits_1_on_an_unsolvable_puzzle(tmp_path):
    result = heurist("hrd", "--algo", "astar", "--inputfile", UNSOLVABLE, "--outputfile", "out.txt", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert (tmp_path / "out.txt").read_text().strip() == "No solution"


# --- bench ---------------------------------------------------------------------------------------

GENERATED = "blocksworld:2:1:--blocks 4 --stacks 3"


def test_bench_resume_with_runs_jsonl_a_directory(tmp_path):
    (tmp_path / "out" / "runs.jsonl").mkdir(parents=True)
    result = heurist("bench", "--generated", GENERATED, "--heuristics", "h0", "--out", "out", "--resume", "--quiet",
                     cwd=tmp_path)
    assert one_line(result, 2, "out/runs.jsonl: cannot read: Is a directory")


def test_bench_checks_its_report_paths_before_any_run(tmp_path):
    (tmp_path / "out" / "results.json").mkdir(parents=True)
    result = heurist("bench", "--generated", GENERATED, "--heuristics", "h0", "--out", "out", "--quiet", cwd=tmp_path)
    assert one_line(result, 2, "out/results.json: cannot write: Is a directory")
    assert snapshot(tmp_path / "out") == {"results.json": "dir"}


def test_bench_reports_are_written_all_or_nothing(tmp_path):
    from heurist.bench.report import write_reports

    (tmp_path / "coverage.png").mkdir()
    with pytest.raises(InputError, match="coverage.png: cannot write: Is a directory"):
        write_reports([], tmp_path, {})
    assert snapshot(tmp_path) == {"coverage.png": "dir"}


def test_sigterm_to_bench_keeps_finished_runs_and_prints_no_traceback(tmp_path):
    errors = tmp_path / "stderr.txt"
    with open(errors, "w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "heurist.cli.main", "bench", "--generated", "blocksworld:40:1:--blocks 5 --stacks 3",
             "--heuristics", "h0", "--jobs", "2", "--out", "out", "--quiet"],
            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True, env=ENV,
        )
    runs = tmp_path / "out" / "runs.jsonl"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if runs.exists() and runs.read_text().count("\n") >= 2:
                break
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        process.wait(30)
        time.sleep(1.5)  # the workers still running finish and find nobody to report to
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever this test started and is left
    assert runs.read_text().count("\n") >= 2
    assert "Traceback" not in errors.read_text(), errors.read_text()


# --- option values -------------------------------------------------------------------------------

@pytest.mark.parametrize("args, expected", [
    (["solve", "klotski", "P", "--time-limit", "abc"],
     "argument --time-limit: expected a positive number of seconds, got 'abc'"),
    (["solve", "klotski", "P", "--time-limit", "nan"], "--time-limit: expected a positive number of seconds"),
    (["solve", "klotski", "P", "--time-limit", "inf"], "--time-limit: expected a positive number of seconds"),
    (["solve", "klotski", "P", "--time-limit", "0"], "--time-limit: expected a positive number of seconds"),
    (["solve", "klotski", "P", "--memory-limit", "nan"], "--memory-limit: expected a positive number of MiB"),
    (["solve", "klotski", "P", "--max-expansions", "0"], "--max-expansions: expected a positive whole number"),
    (["solve", "klotski", "P", "--weight", "nan"], "--weight/-w: expected a finite number of at least 1"),
    (["solve", "klotski", "P", "--weight", "0.5"], "--weight/-w: expected a finite number of at least 1"),
    (["blocksworld", "P", "-MAX_ITERS", "0"], "-MAX_ITERS/--max-iters: expected a positive whole number"),
    (["bench", "--kill-after", "nan"], "--kill-after: expected a positive number of seconds"),
    (["render", "klotski", "P", "--out", "a.svg", "--frame-time", "abc"],
     "--frame-time: expected a whole number of milliseconds from 20 to 60000, got 'abc'"),
    (["generate", "klotski", "--count", "0"], "--count: expected a positive whole number, got '0'"),
    (["solve", "klotski", "P", "--heurstic", "manhattan"], "did you mean --heuristic?"),
    (["hrd", "--algo", "astar", "--inputfle", "P"], "did you mean --inputfile?"),
    (["solve", "klotski"], "heurist: solve klotski: the following arguments are required: FILE"),
], ids=lambda value: "-".join(value[1:]) if isinstance(value, list) else None)
def test_a_bad_option_is_one_line(args, expected, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("heurist: "), err
    assert expected in err
    assert "_positive" not in err and "usage:" not in err


def test_a_bad_option_in_a_subprocess_is_one_line():
    result = heurist("solve", "klotski", EASY1, "--time-limit", "nan")
    assert one_line(result, 2, "--time-limit")
    assert result.stdout == ""


# --- messages stay on one line -------------------------------------------------------------------

def test_input_errors_are_cut_and_escaped():
    long = str(InputError("bad row: " + "x" * 1_000_000 + " (the advice)", "in.txt", 3))
    assert len(long) < 250 and long.startswith("in.txt:3: bad row: xxx") and long.endswith("(the advice)")
    assert str(InputError("no such file", "a\nb\x0cc\u2028.txt")) == "a\\nb\\x0cc\\u2028.txt: no such file"
    assert str(InputError("ok", "横刀立马.txt")) == "横刀立马.txt: ok"  # printable names are kept


def test_a_file_name_with_a_newline_keeps_the_error_on_one_line(tmp_path):
    name = tmp_path / "bad\nname.txt"
    name.write_text("nonsense\n")
    result = heurist("solve", "klotski", name)
    assert one_line(result, 2, "bad\\nname.txt")


def test_a_megabyte_line_gives_a_short_message(tmp_path):
    puzzle = tmp_path / "wide.txt"
    puzzle.write_text("^" + "#" * 1_000_000 + "\n")
    result = heurist("solve", "klotski", puzzle)
    assert len(one_line(result, 2, puzzle)) < 400


def test_validate_with_an_empty_solution_name():
    result = heurist("validate", "klotski", EASY1, "")
    assert one_line(result, 2, "the solution file name is empty")


# --- user heuristics that exit -------------------------------------------------------------------

@pytest.mark.parametrize("source", [
    "import sys\nsys.exit(5)\ndef h(state, problem):\n    return 0\n",
    "import sys\ndef h(state, problem):\n    sys.exit(5)\n",
    "def h(state, problem):\n    raise SystemExit('bye')\n",
    "import sys\ndef h(state, problem):\n    return 0\ndef prepare(problem):\n    sys.exit(5)\nh.prepare = prepare\n",
], ids=["import", "call", "raise", "prepare"])
def test_a_user_heuristic_that_exits_is_an_input_error(tmp_path, source):
    module = tmp_path / "mine.py"
    module.write_text(source)
    result = heurist("solve", "klotski", EASY1, "--heuristic", f"{module}:h")
    assert one_line(result, 2, module, "sys.exit")
