"""``heurist blokus`` (the course's game.py command lines), ``solve blokus`` and ``generate blokus``."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from heurist.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "blokus"


def run(command: str, capsys) -> tuple[int, str, str]:
    status = main(shlex.split(command))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def course_line(out: str) -> tuple[int, int]:
    match = re.search(r"^Expanded nodes: (\d+), score: (\d+)$", out, re.MULTILINE)
    assert match, out
    return int(match.group(1)), int(match.group(2))


@pytest.mark.parametrize(
    "command, score",
    [
        ("-p tiny_set.txt -s 4 7 -z fill", 17),
        ("-p tiny_set.txt -f bfs -s 4 7 -z fill", 17),
        ("-p tiny_set_2.txt -f bfs -s 6 6 -z corners", 17),
        ("-p tiny_set_2.txt -f astar -s 6 6 -z corners -H null_heuristic", 17),
        ("-p tiny_set_2.txt -f astar -s 6 6 -z corners -H blokus_corners_heuristic", 17),
        ('-p small_set.txt -f astar -s 10 10 -H blokus_cover_heuristic -z cover -x 3 3 "[(2,2), (5, 5), (6, 7)]"', 8),
        ('-p small_set.txt -f astar -s 10 10 -H reach -z cover -x 3 3 "[(2,2), (5, 5), (6, 7)]"', 8),
        ('-p small_set.txt -f astar -s 6 6 -H reach -z cover -x 3 3 "[(2,2), (5, 5), (1, 4)]"', 7),
        ('-p small_set.txt -f astar -s 6 6 -H reach -z cover -x 3 3 "[(2,2), (5, 5), (1, 4)]" --legacy-board', 8),
        ('-p valid_pieces.txt -s 10 10 -z mini-contest -x 5 5 "[(3,4), (6,6), (7,5)]"', 6),
    ],
)
def test_course_commands_print_the_course_line(command, score, capsys):
    status, out, err = run(f"blokus {command}", capsys)
    assert status == 0, err
    expanded, printed = course_line(out)
    assert printed == score and expanded > 0


def test_targets_split_over_several_arguments_read_like_one(capsys):
    quoted = run('blokus -p valid_pieces.txt -s 10 10 -z sub-optimal -x 7 7 "[(5,5), (8,8), (4,9)]"', capsys)
    split = run("blokus -p valid_pieces.txt -s 10 10 -z sub-optimal -x 7 7 [(5,5), (8,8), (4,9)]", capsys)
    assert quoted == split
    assert quoted[0] == 0 and course_line(quoted[1])[1] <= 9


def test_board_is_printed_with_targets_and_the_quiet_flag_drops_it(capsys):
    _, out, _ = run('blokus -p small_set.txt -f astar -H reach -s 6 6 -z cover -x 3 3 "[(2,2), (5,5)]"', capsys)
    board = [line for line in out.splitlines() if line and not line.startswith("Expanded")]
    assert len(board) == 6 and all(len(line.split()) == 6 for line in board)
    assert sum(line.count("X") for line in board) == 2
    _, quiet, _ = run('blokus -q -p small_set.txt -f astar -H reach -s 6 6 -z cover -x 3 3 "[(2,2), (5,5)]"', capsys)
    assert quiet.strip().startswith("Expanded nodes:")


def test_piece_file_by_path(capsys):
    status, out, _ = run(f"blokus -p {DATA / 'tiny_set.txt'} -s 4 7 -z fill -q", capsys)
    assert status == 0 and course_line(out)[1] == 17


@pytest.mark.parametrize(
    "command, words",
    [
        ("-p nosuch.txt -s 4 7 -z fill", "no such piece file"),
        ("-p tiny_set.txt -s 4 7 -z fill -x 9 9", "off the 4x7 board"),
        ('-p small_set.txt -s 6 6 -z cover "[(7, 1)]"', "off the 6x6 board"),
        ('-p small_set.txt -s 6 6 -z cover "[(1, 1),"', "cannot parse the target list"),
        ("-p small_set.txt -s 6 6 -z cover", "require at least one point"),
        ("-p tiny_set.txt -f astar -s 4 7 -z fill -H nonsense", "unknown heuristic"),
        ("-p tiny_set.txt -s 4 7", "give a puzzle"),
        ("-p tiny_set.txt -s 4 7 -z diagonal", "no such puzzle"),
        ("-p tiny_set.txt -s 0 7 -z fill", "at least one row"),
    ],
)
def test_bad_input_is_one_line_and_status_2(command, words, capsys):
    status, out, err = run(f"blokus {command}", capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err
    assert err.startswith("heurist: ")


def test_malformed_piece_file_names_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n1\n######\n1\n#\n")
    status, _, err = run(f"blokus -p {bad} -s 5 5 -z fill", capsys)
    assert status == 2 and f"{bad}:2:" in err and "6 tiles" in err


def test_limit_ends_cleanly_with_status_3(capsys):
    status, out, _ = run("blokus -p small_set.txt -f bfs -s 7 7 -z corners --max-expansions 5", capsys)
    assert status == 3 and "limit" in out and "Expanded nodes: 5" in out


def test_solve_blokus_with_options(capsys):
    status, out, _ = run(
        'solve blokus small_set.txt -s 10 10 -x 3 3 --targets "[(2,2), (5,5), (6,7)]" --format json', capsys
    )
    document = json.loads(out)
    assert status == 0 and document["cost"] == 8 and document["heuristic"] == "reach"
    assert all(step["action"].startswith("piece ") for step in document["plan"])


def test_generated_instances_are_reproducible_and_solvable(tmp_path, capsys):
    command = "generate blokus --seed 3 -p small_set.txt -s 8 8 --targets 3"
    status, first, _ = run(command, capsys)
    assert status == 0 and "puzzle: cover" in first
    assert run(command, capsys)[1] == first
    instance = tmp_path / "instance.txt"
    instance.write_text(first)
    status, out, _ = run(f"solve blokus {instance} --quiet", capsys)
    assert status == 0 and "status: solved" in out
    # options given on the command line override the instance section
    start = re.search(r"^start: (\d+) (\d+)$", first, re.MULTILINE).groups()
    status, out, _ = run(f'solve blokus {instance} --quiet -s 9 9 --targets "[({start[0]}, {start[1]})]"', capsys)
    assert status == 0 and "cost: 1" in out  # the monomino on the start square


def test_validate_reads_the_course_report_by_its_final_board(tmp_path, capsys):
    cover = ["-s", "6", "6", "-x", "3", "3"]
    assert main(["blokus", "-p", "small_set.txt", "-f", "astar", "-H", "blokus_cover_heuristic", "-z", "cover",
                 *cover, "[(2,2), (5,5), (1,4)]"]) == 0
    report = tmp_path / "report.txt"
    report.write_text(capsys.readouterr().out)  # the board and 'Expanded nodes: N, score: 7', no moves
    assert main(["validate", "blokus", "small_set.txt", str(report), *cover, "--targets", "[(2,2), (5,5), (1,4)]"]) == 0
    assert "verdict: valid and optimal" in capsys.readouterr().out
    report.write_text("Expanded nodes: 3, score: 7\n")  # the score alone proves nothing
    assert main(["validate", "blokus", "small_set.txt", str(report), *cover, "--targets", "[(2,2), (5,5), (1,4)]"]) == 2
    assert "a score line alone (score 7) proves nothing" in capsys.readouterr().err
