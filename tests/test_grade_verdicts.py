"""Verdicts a TA agrees with: cut-off outputs, 'no solution' with an error status, reversed plans, CPU time of
killed runs, and an optima cache that concurrent graders and damaged files cannot spoil."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from heurist.grade import (
    Limits,
    OptimumCache,
    Verdict,
    choose_isolation,
    collect_cases,
    grade,
    parse_program,
)
from heurist.grade.optima import CACHE_VERSION, read_cache

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"


@pytest.fixture
def easy(tmp_path):
    """A CSC384 test, its optimal answer, and a folder of prepared outputs the programs may read."""
    tests, prepared = tmp_path / "tests", tmp_path / "prepared"
    tests.mkdir()
    prepared.mkdir()
    puzzle = tests / "med4.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_med4.txt").read_bytes())
    (case,) = collect_cases("klotski", [str(puzzle)])
    info, _ = OptimumCache(None).get(case)
    from heurist.domains import get_domain
    from heurist.search import search

    domain = get_domain("klotski")
    problem = case.problem()
    result = search(problem, "astar", domain.heuristics.resolve(domain.default_heuristic))
    boards = [domain.format_state(problem, state) for state in result.states]
    return {"case": case, "optimum": info, "prepared": prepared, "boards": boards}


def run(easy, script: str, **limits) -> object:
    (easy["prepared"] / "run.sh").write_text(script)
    program = parse_program(f"sh {easy['prepared']}/run.sh {{output}}")
    settings = {"timeout": 10.0, "isolation": choose_isolation(), "readable": (str(easy["prepared"]),), **limits}
    (result,) = grade([program], [easy["case"]], Limits(**settings), {easy["case"].name: easy["optimum"]})
    return result


def test_an_illegal_step_before_the_cut_is_the_verdict(easy):
    boards = easy["boards"]
    illegal = [boards[0], boards[2]] + boards[2:] * 200  # step 1 jumps two moves; then far past the cap
    (easy["prepared"] / "plan.txt").write_text("\n\n".join(illegal) + "\n")
    result = run(easy, f"cat {easy['prepared']}/plan.txt > output.txt\n", max_output=4096)
    assert result.verdict is Verdict.ILLEGAL
    assert result.detail.startswith("step 1 (line 7)") and "cut off" in result.detail


def test_a_cut_off_legal_prefix_is_bad_format(easy):
    (easy["prepared"] / "plan.txt").write_text("\n\n".join(easy["boards"] * 3) + "\n")
    result = run(easy, f"cat {easy['prepared']}/plan.txt > output.txt\n", max_output=600)
    assert result.verdict is Verdict.BAD_FORMAT and "cut off" in result.detail


def test_a_readable_no_solution_with_an_error_status_is_judged_by_what_it_says(easy):
    result = run(easy, "echo 'No solution' > output.txt; exit 1\n")
    assert result.verdict is Verdict.WRONG_GOAL
    assert result.detail == "claims no solution, but a plan of cost 38 exists"
    assert "the program ended with exit status 1" in result.notes


def test_a_plan_written_goal_first_says_so(easy):
    (easy["prepared"] / "plan.txt").write_text("\n\n".join(reversed(easy["boards"])) + "\n")
    result = run(easy, f"cp {easy['prepared']}/plan.txt output.txt\n")
    assert result.verdict is Verdict.ILLEGAL
    assert "written goal-first" in result.detail


def test_cpu_time_of_a_run_killed_at_the_wall_timeout_is_measured(easy):
    result = run(easy, "while :; do :; done\n", timeout=1.5)
    assert result.verdict is Verdict.TIMED_OUT
    assert result.cpu_time > 0.5


def test_the_whole_run_cpu_time_is_limited(easy):
    busy = "while :; do :; done"
    result = run(easy, f"({busy}) & ({busy}) & ({busy}) & wait\n", timeout=20, cpu_limit=2)
    assert result.verdict is Verdict.TIMED_OUT and "CPU time limit (2 s)" in result.detail
    assert result.wall_time < 10


def test_graders_sharing_a_cache_lose_nothing(tmp_path):
    cases = []
    for name in ("med3", "med4"):
        puzzle = tmp_path / f"{name}.txt"
        puzzle.write_bytes((DATA / f"hrd/w23_s24_char/testhrd_{name}.txt").read_bytes())
        cases += collect_cases("klotski", [str(puzzle)])
    path = tmp_path / "optima.json"
    caches = [OptimumCache(path), OptimumCache(path)]  # both read the file before either writes
    for cache, case in zip(caches, cases):
        cache.get(case)
    threads = [threading.Thread(target=cache.save) for cache in caches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(read_cache(path)) == 2
    assert all(OptimumCache(path).get(case)[1] for case in cases)


def test_a_damaged_or_hostile_cache_is_never_trusted(tmp_path):
    puzzle = tmp_path / "med4.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_med4.txt").read_bytes())
    (case,) = collect_cases("klotski", [str(puzzle)])
    path = tmp_path / "optima.json"
    good = OptimumCache(None)
    info, _ = good.get(case)
    key = next(iter(good.new))
    for entry in ({"status": "solved", "cost": "1"}, {"status": "solved", "cost": True}, {"status": "solved"},
                  {"status": "limit reached"}, [], {"status": "solved", "cost": -3}):
        path.write_text(json.dumps({"version": CACHE_VERSION, "optima": {key: entry}}))
        found, cached = OptimumCache(path).get(case)
        assert not cached and found.cost == 38
    path.unlink()
    os.mkfifo(path)  # a FIFO where the cache should be: read as empty, never waited on
    assert OptimumCache(path).entries == {}
    path.unlink()
    path.symlink_to("/dev/zero")
    assert OptimumCache(path).entries == {}
