"""Blocks World on the command line: the course front end, solve, generate, export, bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from heurist.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld"
A03 = str(DATA / "probA03.bwp")

A03_TRANSCRIPT = f"""\
success! iter=4, cost=3, depth=3, max queue size=10
move 0, pathcost=0, heuristic=3, f(n)=g(n)+h(n)=3
CE
AD
B
>>>>>>>>>>
move 1, pathcost=1, heuristic=2, f(n)=g(n)+h(n)=3
CE
ADB

>>>>>>>>>>
move 2, pathcost=2, heuristic=1, f(n)=g(n)+h(n)=3
C
ADB
E
>>>>>>>>>>
move 3, pathcost=3, heuristic=0, f(n)=g(n)+h(n)=3

ADBC
E
>>>>>>>>>>
statistics: {A03} method Astar planlen 3 iter 4 maxq 10
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_course_front_end_prints_the_assignment_transcript(capsys):
    status, out, err = run(capsys, "blocksworld", A03)
    assert (status, err) == (0, "")
    assert out == A03_TRANSCRIPT


@pytest.mark.parametrize("spelling", ["H1", "h1", "out-of-place"])
def test_course_front_end_accepts_the_course_heuristic_names(capsys, spelling):
    status, out, _ = run(capsys, "blocksworld", str(DATA / "probA05.bwp"), "-H", spelling)
    assert status == 0
    last = out.splitlines()[-1].split()
    assert last[:6] == ["statistics:", str(DATA / "probA05.bwp"), "method", "Astar", "planlen", "5"]


def test_max_iters_ends_the_search_with_planlen_failed(capsys):
    status, out, _ = run(capsys, "blocksworld", str(DATA / "probB17.bwp"), "-H", "H0", "-MAX_ITERS", "25")
    assert status == 3
    assert out.splitlines()[-1].startswith(
        f"statistics: {DATA / 'probB17.bwp'} method Astar planlen FAILED iter 25 maxq "
    )


def test_iter_and_maxq_are_the_engines_expansions_and_max_frontier(capsys):
    from heurist.domains.blocksworld import load_bwp
    from heurist.domains.blocksworld.heuristics import HEURISTICS
    from heurist.search import search

    path = DATA / "probB14.bwp"
    result = search(load_bwp(path), "astar", HEURISTICS["prefix"])
    _, out, _ = run(capsys, "blocksworld", str(path), "-H", "prefix")
    stats = result.statistics
    assert out.splitlines()[-1].endswith(
        f"planlen 13 iter {stats.expansions} maxq {stats.max_frontier}"
    )
    assert out.splitlines()[0] == (
        f"success! iter={stats.expansions}, cost=13, depth=13, max queue size={stats.max_frontier}"
    )


def test_solve_prints_the_plan_and_statistics(capsys):
    status, out, _ = run(capsys, "solve", "blocksworld", str(DATA / "probB18.bwp"))
    assert status == 0
    assert "plan_length: 12" in out
    moves = [line for line in out.splitlines() if line.startswith("move ")]
    assert len(moves) == 12
    assert moves[0] == "move 1: B from stack 0 to stack 2"
    assert "start:\n0: AB\n1: FH\n2: CG\n3: DEIJ\n4:\n" in out


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ("", "bad.bwp:1: empty file"),
        ("5 9 -1\n>>>>>>>>>>\nAB\n", "bad.bwp:4: the header says 5 stacks"),
        ("2 2 -1\n>>>>>>>>>>\nAb\n\n>>>>>>>>>>\nAB\n\n>>>>>>>>>>\n", "bad.bwp:3: 'b' is not a block"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, capsys, monkeypatch, content, where):
    monkeypatch.chdir(tmp_path)
    Path("bad.bwp").write_text(content)
    for argv in (["blocksworld", "bad.bwp"], ["solve", "blocksworld", "bad.bwp"]):
        status, out, err = run(capsys, *argv)
        assert status == 2
        assert out == ""
        assert err.count("\n") == 1
        assert err.startswith(f"heurist: {where}")


def test_bad_input_leaves_no_traceback_in_a_real_process(tmp_path):
    bad = tmp_path / "twice.bwp"
    bad.write_text("3 3 -1\n>>>>>>>>>>\nAB\nC\n\n>>>>>>>>>>\nAB\nB\n\n>>>>>>>>>>\n")
    done = subprocess.run(
        [sys.executable, "-m", "heurist.cli.main", "blocksworld", str(bad)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr == f"heurist: {bad}:8: block B appears twice in the goal (first on line 7)\n"


def test_missing_file_and_bad_options(capsys, tmp_path):
    status, _, err = run(capsys, "blocksworld", str(tmp_path / "none.bwp"))
    assert status == 2 and "no such file" in err
    status, _, err = run(capsys, "blocksworld", A03, "-H", "nosuch")
    assert status == 2 and "unknown heuristic" in err
    with pytest.raises(SystemExit) as exited:
        main(["blocksworld", A03, "-MAX_ITERS", "0"])
    assert exited.value.code == 2


def test_generate_writes_reproducible_files_and_refuses_two_stacks(tmp_path, capsys):
    out = tmp_path / "random"
    status, printed, _ = run(
        capsys, "generate", "blocksworld", "--stacks", "4", "--blocks", "7", "--seed", "3", "--count", "2", "--out", str(out)
    )
    assert status == 0
    files = sorted(out.iterdir())
    assert len(files) == 2 and printed.split() == [str(f) for f in files]
    first = files[0].read_text()
    assert first.startswith("4 7 -1\n>>>>>>>>>>\n")
    status, printed, _ = run(capsys, "generate", "blocksworld", "--stacks", "4", "--blocks", "7", "--seed", "3")
    assert printed == first
    status, _, err = run(capsys, "generate", "blocksworld", "--stacks", "2", "--blocks", "4")
    assert status == 2 and err.startswith("heurist: generate: --stacks must be at least 3")


def test_export_pddl_writes_a_domain_and_a_problem(tmp_path, capsys):
    status, printed, _ = run(capsys, "export", "pddl", A03, "--out", str(tmp_path))
    assert status == 0
    assert printed.split() == [str(tmp_path / "domain.pddl"), str(tmp_path / "probA03.pddl")]
    assert "(define (domain bw-fixed-stacks)" in (tmp_path / "domain.pddl").read_text()


def test_export_pddl_refuses_unknown_files(tmp_path, capsys):
    other = tmp_path / "puzzle.xyz"
    other.write_text("nothing")
    status, _, err = run(capsys, "export", "pddl", str(other), "--out", str(tmp_path))
    assert status == 2 and "no PDDL exporter for .xyz" in err


def test_an_unreachable_goal_fails_with_exit_status_1(tmp_path, capsys):
    # With two stacks the blocks keep their cyclic order: BAC cannot be made from ABC.
    path = tmp_path / "two.bwp"
    path.write_text("2 3 -1\n>>>>>>>>>>\nABC\n\n>>>>>>>>>>\nBAC\n\n>>>>>>>>>>\n")
    status, out, _ = run(capsys, "blocksworld", str(path))
    assert status == 1
    assert out.splitlines()[-1] == f"statistics: {path} method Astar planlen FAILED iter 4 maxq 1"
