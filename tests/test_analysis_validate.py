"""`heurist validate`: solution files in the courses' formats, replayed and judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from heurist.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
HRD = ROOT / "data" / "hrd"
BWP = ROOT / "data" / "blocksworld"

COURSE_SOLUTIONS = [
    ("f22_numeric/hrd_input0.txt", "f22_numeric/hrd_solution0.txt", 1),
    ("f22_numeric/hrd_input2.txt", "f22_numeric/hrd_solution2.txt", 3),
    ("f22_numeric/classic_handout.txt", "f22_numeric/classic_astar_output_116.txt", 116),
    ("w23_s24_char/testhrd_easy1.txt", "w23_s24_char/testhrd_easy1_astar_output_1.txt", 1),
    ("w23_s24_char/testhrd_hard1.txt", "w23_s24_char/testhrd_hard1_astar_output_116.txt", 116),
    ("f24_w25_goal/easy3.txt", "f24_w25_goal/easy3.out", 7),
    ("f24_w25_goal/med1.txt", "f24_w25_goal/med1.out", 74),
    ("f24_w25_goal/hard2.txt", "f24_w25_goal/hard2.out", 79),
]


def validate(*arguments: str, capsys) -> tuple[int, dict]:
    code = main(["validate", *arguments, "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else {}


@pytest.mark.parametrize("instance, solution, cost", COURSE_SOLUTIONS)
def test_course_reference_outputs_are_valid_and_optimal(instance, solution, cost, capsys):
    code, report = validate("klotski", str(HRD / instance), str(HRD / solution), capsys=capsys)
    assert code == 0
    assert report["valid"] and report["legal"] and report["starts_at_instance"] and report["ends_at_goal"]
    assert report["cost"] == report["optimal_cost"] == cost and report["optimal"]


def test_no_solution_claims(tmp_path, capsys):
    code, report = validate("klotski", str(HRD / "f24_w25_goal/easy2.txt"), str(HRD / "f24_w25_goal/easy2.out"),
                            capsys=capsys)
    assert code == 0 and report["claim"] == "no solution" and report["optimum_status"] == "unsolvable"
    wrong = tmp_path / "none.txt"
    wrong.write_text("No solution\n")
    code, report = validate("klotski", str(HRD / "f24_w25_goal/easy3.txt"), str(wrong), capsys=capsys)
    assert code == 1 and "one of cost 7 exists" in report["problems"][0]


def _dfs_output(tmp_path: Path, puzzle: Path) -> Path:
    out = tmp_path / "dfs.txt"
    assert main(["hrd", "--algo", "dfs", "--inputfile", str(puzzle), "--outputfile", str(out)]) == 0
    return out


def test_dfs_output_is_valid_but_not_optimal(tmp_path, capsys):
    puzzle = HRD / "w23_s24_char/testhrd_med4.txt"
    out = _dfs_output(tmp_path, puzzle)
    capsys.readouterr()
    code, report = validate("klotski", str(puzzle), str(out), capsys=capsys)
    assert code == 0 and report["valid"] and report["optimal"] is False
    assert report["cost"] > report["optimal_cost"] == 38
    code, _ = validate("klotski", str(puzzle), str(out), "--require-optimal", capsys=capsys)
    assert code == 1


def test_first_illegal_step_is_reported_with_its_line_and_states(tmp_path, capsys):
    text = (HRD / "w23_s24_char/testhrd_hard1_astar_output_116.txt").read_text()
    boards = text.split("\n\n")
    # Drop board 5 (0-based): the jump from board 4 to board 6 is two moves at once.
    broken = tmp_path / "broken.txt"
    broken.write_text("\n\n".join(boards[:5] + boards[6:]))
    code, report = validate("klotski", str(HRD / "w23_s24_char/testhrd_hard1.txt"), str(broken), capsys=capsys)
    assert code == 1 and not report["legal"]
    step = report["illegal_step"]
    assert step["step"] == 5 and step["line"] == 5 * 6 + 1
    assert step["before"] == boards[4].strip() and step["after"] == boards[6].strip()


def test_wrong_stated_cost_and_wrong_start(tmp_path, capsys):
    solution = tmp_path / "cost.txt"
    solution.write_text((HRD / "f22_numeric/hrd_solution2.txt").read_text().replace("Cost of the solution: 3",
                                                                                     "Cost of the solution: 2"))
    code, report = validate("klotski", str(HRD / "f22_numeric/hrd_input2.txt"), str(solution), capsys=capsys)
    assert code == 1 and report["stated_cost"] == 2 and report["cost"] == 3
    assert report["problems"] == ["line 1: the file states cost 2, the moves cost 3"]
    # A solution of another puzzle with the same pieces: legal, but not from this start.
    code, report = validate("klotski", str(HRD / "f24_w25_goal/hard1.txt"), str(HRD / "f24_w25_goal/easy3.out"),
                            capsys=capsys)
    assert code == 1 and report["starts_at_instance"] is False


@pytest.mark.parametrize("edit, message", [
    (lambda text: text[: text.index("\n\n", 200) - 5], "truncated: the last board has 4 of the instance's 5 rows"),
    (lambda text: text.replace("^", "X", 1), "unknown character 'X'"),
    (lambda text: text.replace("2..2", "2222", 1), "other pieces than the instance"),
    (lambda text: "", "no board"),
])
def test_bad_solution_files_exit_two_with_the_line(edit, message, tmp_path, capsys):
    solution = tmp_path / "bad.txt"
    solution.write_text(edit((HRD / "w23_s24_char/testhrd_hard1_astar_output_116.txt").read_text()))
    code = main(["validate", "klotski", str(HRD / "w23_s24_char/testhrd_hard1.txt"), str(solution)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"heurist: {solution}:") and message in err and err.count("\n") == 1


def test_solution_for_another_board_size_exits_two(capsys):
    code = main(["validate", "klotski", str(HRD / "f24_w25_goal/hard2.txt"), str(HRD / "f24_w25_goal/med1.out")])
    assert code == 2 and "med1.out:" in capsys.readouterr().err


# ----- Blocks World traces --------------------------------------------------------------------

def _trace(tmp_path: Path, problem: str) -> Path:
    out = tmp_path / "trace.txt"
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["blocksworld", str(BWP / problem)]) == 0
    out.write_text(buffer.getvalue())
    return out


def test_blocksworld_trace_is_validated(tmp_path, capsys):
    trace = _trace(tmp_path, "probA07.bwp")
    code, report = validate("blocksworld", str(BWP / "probA07.bwp"), str(trace), capsys=capsys)
    assert code == 0 and report["valid"] and report["cost"] == report["stated_cost"] == report["optimal_cost"]


def test_blocksworld_illegal_move_and_truncation(tmp_path, capsys):
    trace = _trace(tmp_path, "probA07.bwp")
    lines = trace.read_text().split("\n")
    separators = [i for i, line in enumerate(lines) if line == ">" * 10]
    # Swap the two states after move 1: move 2's state now comes first.
    first, second = separators[1], separators[2]
    block_one, block_two = lines[first + 2 : first + 5], lines[second + 2 : second + 5]
    lines[first + 2 : first + 5], lines[second + 2 : second + 5] = block_two, block_one
    trace.write_text("\n".join(lines))
    code, report = validate("blocksworld", str(BWP / "probA07.bwp"), str(trace), capsys=capsys)
    assert code == 1 and report["illegal_step"]["step"] in (2, 3)
    trace.write_text("\n".join(lines[: separators[1] + 3]))
    assert main(["validate", "blocksworld", str(BWP / "probA07.bwp"), str(trace)]) == 2
    assert "truncated" in capsys.readouterr().err


# ----- Blokus move lists ----------------------------------------------------------------------

BLOKUS = ["small_set.txt", "-s", "6", "6", "-x", "3", "3", "--targets", "[(2,2), (5,5), (1,4)]"]


def test_blokus_move_list_from_solve_is_valid_and_optimal(tmp_path, capsys):
    assert main(["solve", "blokus", *BLOKUS]) == 0
    solution = tmp_path / "moves.txt"
    solution.write_text(capsys.readouterr().out)
    instance, options = BLOKUS[0], BLOKUS[1:]
    code, report = validate("blokus", instance, str(solution), *options, capsys=capsys)
    assert code == 0 and report["optimal"] and report["cost"] == report["stated_cost"] == 7


def test_blokus_course_front_end_output_with_moves_validates(tmp_path, capsys):
    course = ["blokus", "-p", "small_set.txt", "-f", "ucs", "-s", "6", "6", "-z", "cover", "-x", "3", "3",
              "[(2,2), (5,5), (1,4)]", "--moves"]
    assert main(course) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[-1].startswith("Expanded nodes: ")
    solution = tmp_path / "course.txt"
    solution.write_text(printed)
    instance, options = BLOKUS[0], BLOKUS[1:]
    code, report = validate("blokus", instance, str(solution), *options, capsys=capsys)
    assert code == 0 and report["optimal"] and report["cost"] == 7


def test_blokus_illegal_and_unknown_moves(tmp_path, capsys):
    solution = tmp_path / "moves.txt"
    instance, options = BLOKUS[0], BLOKUS[1:]
    solution.write_text("piece 7 at (2,2) (2,3) (3,3) (4,3)\npiece 1 at (4,4)\n")  # touches piece 7 edge to edge
    code, report = validate("blokus", instance, str(solution), *options, capsys=capsys)
    assert code == 1 and report["illegal_step"]["step"] == 2 and report["illegal_step"]["line"] == 2
    solution.write_text("piece 7 at (2,2) (2,3) (3,3) (4,3)\npiece 99 at (1,4)\n")
    assert main(["validate", "blokus", instance, str(solution), *options]) == 2
    assert f"{solution}:2: there is no piece 99" in capsys.readouterr().err


def test_optimality_search_limits_leave_the_optimum_unknown(capsys):
    puzzle, solution = HRD / "w23_s24_char/testhrd_hard1.txt", HRD / "w23_s24_char/testhrd_hard1_astar_output_116.txt"
    code, report = validate("klotski", str(puzzle), str(solution), "--max-expansions", "10", capsys=capsys)
    assert code == 0 and report["valid"] and "optimal" not in report
    assert report["optimum_status"] == "unknown (expansions limit reached)"
    code, report = validate("klotski", str(puzzle), str(solution), "--no-optimality", capsys=capsys)
    assert code == 0 and "optimum_status" not in report and report["cost"] == 116


def test_blocksworld_failed_run_claims_no_plan(tmp_path, capsys):
    trace = tmp_path / "failed.txt"
    trace.write_text("FAILED: MAX_ITERS reached, iter=5, max queue size=60\n"
                     "statistics: probA05.bwp method Astar planlen FAILED iter 5 maxq 60\n")
    code, report = validate("blocksworld", str(BWP / "probA05.bwp"), str(trace), capsys=capsys)
    assert code == 1 and report["claim"] == "no solution" and "cost 5 exists" in report["problems"][0]


@pytest.mark.parametrize("limit", [["--no-optimality"], ["--time-limit", "1e-9"], ["--max-expansions", "1"]])
@pytest.mark.parametrize("domain, instance, claim, options", [
    ("klotski", HRD / "w23_s24_char/testhrd_easy1.txt", "No solution\n", []),
    ("blocksworld", BWP / "probA05.bwp", "FAILED: MAX_ITERS reached, iter=5, max queue size=60\n", []),
    ("blokus", "small_set.txt", "status: no solution\n", ["-s", "6", "6", "-x", "3", "3", "--targets", "[(2,2)]"]),
])
def test_an_unsettled_no_solution_claim_is_unverified_never_valid(domain, instance, claim, options, limit,
                                                                  tmp_path, capsys):
    claimed = tmp_path / "none.txt"
    claimed.write_text(claim)
    code, report = validate(domain, str(instance), str(claimed), *options, *limit, capsys=capsys)
    if not report:  # the whole-run time limit ended it while the claim was read: unsettled, one line
        assert code == 3 and limit[0] == "--time-limit"
        return
    assert not report["valid"]
    if report.get("optimum_status") == "solved":  # the search finished before the limit could stop it
        assert code == 1 and report["verdict"] == "INVALID"
    else:
        assert code == 3 and report["verdict"] == "unverified"


def test_require_optimal_without_the_optimum_is_unverified(tmp_path, capsys):
    puzzle = HRD / "w23_s24_char/testhrd_hard1.txt"
    out = _dfs_output(tmp_path, puzzle)
    capsys.readouterr()
    code, report = validate("klotski", str(puzzle), str(out), "--require-optimal", "--max-expansions", "10",
                            capsys=capsys)
    assert code == 3 and report["verdict"] == "unverified" and report["legal"] and report["ends_at_goal"]
    code, report = validate("klotski", str(puzzle), str(out), "--require-optimal", capsys=capsys)
    assert code == 1 and report["verdict"] == "valid but not optimal" and report["optimal_cost"] == 116


def test_solve_output_in_every_format_is_validated(tmp_path, capsys):
    puzzle = HRD / "w23_s24_char/testhrd_med1.txt"
    for form in ("text", "json"):
        assert main(["solve", "klotski", str(puzzle), "--format", form]) == 0
        plan = tmp_path / f"plan.{form}"
        plan.write_text(capsys.readouterr().out)
        code, report = validate("klotski", str(puzzle), str(plan), capsys=capsys)
        assert code == 0 and report["verdict"] == "valid and optimal" and report["format"] == form
