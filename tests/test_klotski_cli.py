"""The Klotski command lines: `heurist solve klotski`, `heurist hrd`, `heurist generate klotski`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from heurist.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"


def run(*args: str) -> subprocess.CompletedProcess:
    """Run the real console entry point in a fresh interpreter, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "heurist.cli.main", *args], capture_output=True, text=True, timeout=300
    )


def test_v1_form_writes_both_files_and_astar_matches_the_course(tmp_path):
    dfs_out, astar_out = tmp_path / "dfs.txt", tmp_path / "astar.txt"
    code = main(["hrd", str(DATA / "f22_numeric/hrd_input2.txt"), str(dfs_out), str(astar_out)])
    assert code == 0
    assert astar_out.read_bytes() == (DATA / "f22_numeric/hrd_solution2.txt").read_bytes()
    assert dfs_out.read_text().startswith("Cost of the solution: ")


def test_v2_v3_form_and_no_solution(tmp_path):
    out = tmp_path / "out.txt"
    assert main(["hrd", "--algo", "astar", "--inputfile", str(DATA / "f24_w25_goal/easy2.txt"),
                 "--outputfile", str(out)]) == 1  # unsolvable, as hrd's help says
    assert out.read_text() == "No solution\n"
    assert main(["hrd", "--algo", "dfs", "--inputfile", str(DATA / "w23_s24_char/testhrd_med1.txt"),
                 "--outputfile", str(out)]) == 0
    boards = out.read_text().split("\n\n")
    assert boards[0] == (DATA / "w23_s24_char/testhrd_med1.txt").read_text().strip()
    assert out.read_text().endswith("\n\n")


def test_solve_prints_plan_and_statistics(capsys):
    assert main(["solve", "klotski", str(DATA / "w23_s24_char/testhrd_hard1.txt")]) == 0
    out = capsys.readouterr().out
    assert "cost: 116" in out and "expansions: " in out and "move 116:" in out


def test_solve_json(capsys):
    assert main(["solve", "klotski", str(DATA / "f24_w25_goal/easy3.txt"), "--format", "json",
                 "--algo", "bfs"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["cost"] == 7 and len(document["plan"]) == 7
    assert document["statistics"]["expansions"] > 0
    assert document["status"] == "solved"


def test_unsolvable_and_limit_exit_statuses(capsys):
    assert main(["solve", "klotski", str(DATA / "f24_w25_goal/easy2.txt")]) == 1
    assert main(["solve", "klotski", str(DATA / "w23_s24_char/testhrd_hard1.txt"),
                 "--max-expansions", "100"]) == 3
    out = capsys.readouterr().out
    assert "limit reached (expansions limit)" in out and "expansions: 100" in out


def test_user_heuristic_from_a_file(tmp_path, capsys):
    module = tmp_path / "mine.py"
    module.write_text("def h(state, problem):\n    return 0\n")
    assert main(["solve", "klotski", str(DATA / "f24_w25_goal/easy3.txt"), "-H", f"{module}:h", "-q"]) == 0
    assert "cost: 7" in capsys.readouterr().out


def test_generate_is_reproducible(tmp_path):
    first = run("generate", "klotski", "--seed", "3", "--count", "2", "--out", str(tmp_path / "a"))
    second = run("generate", "klotski", "--seed", "3", "--count", "2", "--out", str(tmp_path / "b"))
    assert first.returncode == second.returncode == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) == 2
    for name in names:
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
        assert run("solve", "klotski", str(tmp_path / "a" / name), "-q").returncode == 0


def test_generate_drops_a_chosen_piece_set_on_a_chosen_board(tmp_path):
    from heurist.domains.klotski.formats import read_puzzle

    out = tmp_path / "layouts"
    arguments = ["generate", "klotski", "--pieces", "1,1,0,2", "--rows", "4", "--cols", "3", "--count", "3"]
    assert main([*arguments, "--out", str(out)]) == 0
    files = sorted(out.iterdir())
    assert len(files) == 3
    for path in files:
        puzzle = read_puzzle(path)
        assert (puzzle.geometry.height, puzzle.geometry.width) == (4, 3)
        counts = [puzzle.geometry.shape_mask(puzzle.start, shape).bit_count() for shape in range(4)]
        assert counts == [1, 1, 0, 2]
    assert main([*arguments[:3], "0,1,0,2", "--out", str(tmp_path / "none")]) == 2  # no 2x2 piece: no exit goal
    assert not (tmp_path / "none").exists()


BAD_BOARDS = {
    "ragged": ("^11^\nv11v\n^<>^\nv22\n2..2\n", ":4: ragged board"),
    "unknown character": ("^11^\nv11v\n^<>^\nv2xv\n2..2\n", ":4: unknown character 'x'"),
    "broken 1x2": ("^11^\nv11v\n^<.^\nv22v\n2..2\n", ":3: broken piece"),
    "broken 2x2": ("^1.^\nv11v\n^<>^\nv22v\n2..2\n", ":1: broken piece"),
    "empty": ("", ":1: empty file"),
    "goal of another size": ("^11^\nv11v\n^<>^\nv22v\n2..2\n\n^11^\nv11v\n", ":7: the goal board is"),
    "broken V1 piece": ("2113\n2113\n4665\n4775\n7057\n", ":5: broken piece: digit 5"),
}


@pytest.mark.parametrize("case", sorted(BAD_BOARDS))
def test_bad_input_is_one_line_exit_2_and_no_output_file(tmp_path, case):
    text, expected = BAD_BOARDS[case]
    puzzle = tmp_path / "bad.txt"
    puzzle.write_text(text)
    out = tmp_path / "out.txt"
    for args in (
        ["hrd", "--algo", "astar", "--inputfile", str(puzzle), "--outputfile", str(out)],
        ["solve", "klotski", str(puzzle)],
    ):
        result = run(*args)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and str(puzzle) + expected.split(":", 2)[0] in lines[0]
        assert expected in lines[0], lines[0]
        assert not out.exists()
        assert list(tmp_path.iterdir()) == [puzzle]


def test_missing_file(tmp_path):
    result = run("hrd", str(tmp_path / "nope.txt"), str(tmp_path / "d"), str(tmp_path / "a"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"heurist: {tmp_path / 'nope.txt'}: no such file"
    assert not (tmp_path / "d").exists()


def test_wrong_hrd_arguments():
    result = run("hrd", "--algo", "astar", "--inputfile", "x.txt")
    assert result.returncode == 2 and "required" in result.stderr


def test_render_flag_on_solve_and_hrd(tmp_path):
    puzzle = str(DATA / "w23_s24_char/testhrd_med4.txt")
    picture, viewer = tmp_path / "plan.png", tmp_path / "plan.html"
    assert main(["solve", "klotski", puzzle, "-q", "--render", str(picture)]) == 0
    assert picture.read_bytes().startswith(b"\x89PNG")
    out = tmp_path / "out.txt"
    assert main(["hrd", "--algo", "astar", "--inputfile", puzzle, "--outputfile", str(out),
                 "--render", str(viewer)]) == 0
    assert out.exists() and "<html" in viewer.read_text().lower()
    bad = run("solve", "klotski", puzzle, "--render", str(tmp_path / "plan.bmp"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
