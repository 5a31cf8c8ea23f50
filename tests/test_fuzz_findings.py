"""Defects the fuzzer found beyond the issue's list, each with its reproduction (docs/reliability.md)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def heurist(*arguments: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "heurist.cli.main", *arguments], capture_output=True, text=True,
                          cwd=cwd, timeout=60)


def one_line(completed: subprocess.CompletedProcess, prefix: str) -> None:
    assert completed.returncode == 2, completed.stderr
    assert "Traceback" not in completed.stderr and completed.stderr.count("\n") == 1
    assert completed.stderr.startswith(prefix), completed.stderr


def test_a_long_line_in_a_blokus_move_list_is_refused_at_once(tmp_path):
    (tmp_path / "slow.txt").write_text("move 1: " + "piece 5 at (3,5) (4,3) " * 20000 + "x\n")
    started = time.monotonic()
    completed = heurist("validate", "blokus", "tiny_set_2.txt", "slow.txt", "--puzzle", "corners",
                        "--board-size", "6", "6", cwd=tmp_path)
    assert time.monotonic() - started < 20
    one_line(completed, "heurist: slow.txt:1: a line of 460,009 characters is not a move")


@pytest.mark.parametrize("name, text, command", [
    ("big.json", '{"domain": "tiles", "status": "solved", "cost": 1' + "0" * 5000 + "}\n",
     ["validate", "tiles", str(ROOT / "data/tiles/aima-26.txt"), "big.json"]),
    ("big.txt", "piece 1 (2 tiles) at (0,0) (0,1" + "0" * 5000 + ")\n",
     ["validate", "blokus", "tiny_set.txt", "big.txt", "--puzzle", "fill", "--board-size", "4", "7"]),
    ("tiles.txt", "1 2 3\n4 5 6\n7 8 " + "9" * 5000 + "\n", ["solve", "tiles", "tiles.txt"]),
])
def test_numbers_of_thousands_of_digits_are_input_errors_with_their_line(name, text, command, tmp_path):
    (tmp_path / name).write_text(text)
    line = text[: text.index("0" * 100 if "0" * 100 in text else "9" * 100)].count("\n") + 1
    one_line(heurist(*command, cwd=tmp_path), f"heurist: {name}:{line}: a number of ")


@pytest.mark.parametrize("command, message", [
    (["generate", "blocksworld", "--stacks", "99999999999999999999"], "--stacks must be at most 100"),
    (["generate", "tiles", "--rows", "100000", "--cols", "100000"], "--rows must be at most 32"),
    (["generate", "klotski", "--steps", "99999999999999999999"], "--steps must be at most 1,000,000"),
    (["generate", "blokus", "-s", "99999999999999999999", "3"], "--board-size must be at most 50"),
    (["generate", "blocksworld", "--count", "99999999999999999999", "--out", "x"], "--count: must be between"),
    (["bench", "--generated", "blocksworld:1:3:--stacks 3 --blocks 3", "--time-limit", "1e309", "--out", "b"],
     "heurist: bench: argument --time-limit"),
])
def test_absurd_generator_sizes_are_refused_in_one_line(command, message, tmp_path):
    completed = heurist(*command, cwd=tmp_path)
    assert completed.returncode == 2 and "Traceback" not in completed.stderr
    assert completed.stderr.count("\n") == 1 and message in completed.stderr, completed.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "b").exists()


def test_a_deeply_nested_json_solution_is_an_input_error(tmp_path):
    (tmp_path / "deep.json").write_text('{"a":' * 1000 + "\n")
    completed = heurist("validate", "tiles", str(ROOT / "data/tiles/aima-26.txt"), "deep.json", cwd=tmp_path)
    one_line(completed, "heurist: deep.json:1: JSON nested too deeply")


def test_a_cover_instance_without_targets_names_its_file(tmp_path):
    assert heurist("generate", "blokus", "--pieces", "tiny_set.txt", "--board-size", "5", "5", "--out", "g",
                   cwd=tmp_path).returncode == 0
    generated = next((tmp_path / "g").iterdir())
    lines = [line for line in generated.read_text().splitlines() if not line.startswith("targets:")]
    (tmp_path / "notargets.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "in").mkdir()
    (tmp_path / "notargets.txt").rename(tmp_path / "in" / "notargets.txt")
    completed = heurist("solve", "blokus", "in/notargets.txt", cwd=tmp_path)
    one_line(completed, "heurist: in/notargets.txt:")
    assert "a cover puzzle needs targets" in completed.stderr


def test_a_bench_time_limit_of_months_runs(tmp_path):
    completed = heurist("bench", "--generated", "tiles:1:3:--rows 2 --cols 3", "--time-limit", "1e7", "--jobs", "1",
                        "--quiet", "--out", "b", cwd=tmp_path)
    assert completed.returncode == 0 and "Traceback" not in completed.stderr, completed.stderr
    assert (tmp_path / "b" / "results.csv").exists()


def test_an_interrupted_solve_output_holds_no_plan(tmp_path):
    (tmp_path / "intr.txt").write_text("status: interrupted\nalgorithm: astar\nexpansions: 5\n")
    completed = heurist("validate", "klotski", str(ROOT / "data/hrd/w23_s24_char/testhrd_easy1.txt"), "intr.txt",
                        cwd=tmp_path)
    one_line(completed, "heurist: intr.txt:3: the file holds no plan (status: interrupted)")


# ----- found by the second campaign's 20,000-case run (round two: signals, special files, types in JSON) -----


def test_a_fifo_no_one_reads_at_an_output_gives_one_line_and_no_file(tmp_path, monkeypatch, capsys):
    """hrd V1 with A* at its limit and a FIFO as the DFS output once printed two lines; with a FIFO as
    the picture it wrote the plan files before the picture failed."""
    import os

    from heurist import files
    from heurist.cli.main import main

    monkeypatch.setattr(files, "FIFO_READER_WAIT", 0.2)
    monkeypatch.chdir(tmp_path)
    puzzle = ROOT / "data" / "hrd" / "f22_numeric" / "classic_handout.txt"
    os.mkfifo("dfs.txt")
    assert main(["hrd", str(puzzle), "dfs.txt", "astar.txt", "--max-expansions", "5000"]) == 2  # DFS solves
    err = capsys.readouterr().err
    assert err == "heurist: dfs.txt: cannot write: no process reads this FIFO (waited 0.2 s)\n"
    os.mkfifo("plan.svg")
    assert main(["hrd", str(ROOT / "data" / "hrd" / "f22_numeric" / "hrd_input2.txt"), "d.txt", "a.txt",
                 "--render", "plan.svg"]) == 2
    assert capsys.readouterr().err.startswith("heurist: plan.svg: cannot write: no process reads this FIFO")
    assert not os.path.exists("d.txt") and not os.path.exists("a.txt")


def test_a_directory_in_the_table_cache_is_passed_over(tmp_path):
    environment = {**__import__("os").environ, "HEURIST_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "heurist.cli.main", "solve", "klotski",
               str(ROOT / "data" / "hrd" / "w23_s24_char" / "testhrd_easy1.txt"), "--heuristic", "pdb"]
    first = subprocess.run(command, capture_output=True, env=environment, timeout=60)
    for path in (tmp_path / "cache").rglob("*.bin"):
        path.unlink()
        path.mkdir()
    again = subprocess.run(command, capture_output=True, env=environment, timeout=60)
    assert again.returncode == first.returncode == 0 and b"Traceback" not in again.stderr


def test_tiles_lines_end_at_cr_as_in_every_course_format(tmp_path):
    (tmp_path / "cr.txt").write_bytes(b"1 2 3\r4 5 6\r7 8\r")  # a row of two numbers on line 3
    completed = heurist("solve", "tiles", "cr.txt", cwd=tmp_path)
    one_line(completed, "heurist: cr.txt:3: ")
