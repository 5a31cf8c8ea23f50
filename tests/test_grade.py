"""``heurist grade``: sample solvers of each course get their verdicts, nothing outside their
temporary directories changes, and the reports validate against their formats.

The samples in ``tests/grade_samples/`` are tiny course programs (``hrd.py``,
``blocksworld.py``, ``game.py``) whose first argument picks what they do wrong
(see ``_modes.py``); they solve with heurist itself and inherit PYTHONPATH.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

from heurist.cli.main import main
from heurist.domains import get_domain
from heurist.grade import (
    Limits,
    OptimumCache,
    Verdict,
    choose_isolation,
    collect_cases,
    grade,
    parse_program,
)
from heurist.grade.isolation import namespaces_work

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = Path(__file__).resolve().parent / "grade_samples"
DATA = ROOT / "data"
PYTHON = sys.executable

LIMITS = ["--timeout", "6", "--memory-limit", "1024", "--max-output", "256K", "--jobs", "2"]


@pytest.fixture(scope="session")
def course_library(tmp_path_factory) -> Path:
    """A copy of heurist for the samples to solve with: the grader's own installation is hidden from runs."""
    library = tmp_path_factory.mktemp("courselib")
    shutil.copytree(ROOT / "src" / "heurist", library / "heurist",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return library


@pytest.fixture(scope="session")
def sandbox(course_library) -> list[str]:
    """What the sample programs need to see in a sandbox: this Python, the samples and the course library."""
    words = ["--readable", sys.prefix, "--readable", str(SAMPLES), "--readable", str(course_library),
             "--env", f"PYTHONPATH={course_library}"]
    return words if NAMESPACES else [*words, "--isolation", "none"]  # test_grade_hostile.py is skipped then

EXPECTED = {
    "optimal": Verdict.PASS,
    "notoptimal": Verdict.NOT_OPTIMAL,
    "illegal": Verdict.ILLEGAL,
    "wronggoal": Verdict.WRONG_GOAL,
    "nosolution": Verdict.WRONG_GOAL,
    "garbage": Verdict.BAD_FORMAT,
    "nooutput": Verdict.NO_OUTPUT,
    "crash": Verdict.CRASHED,
    "sleep": Verdict.TIMED_OUT,
    "memory": Verdict.OUT_OF_MEMORY,
    "flood": Verdict.BAD_FORMAT,
    "tamper": Verdict.CRASHED,  # the test's copy is read-only in the sandbox: the write fails
}
NAMESPACES = namespaces_work()
if not NAMESPACES:
    EXPECTED["tamper"] = Verdict.CHANGED_INPUT  # without a sandbox the copy is writable, and the change is seen

TEMPLATES = {
    "klotski": f"{PYTHON} {SAMPLES}/hrd.py MODE --algo astar --inputfile {{input}} --outputfile {{output}}",
    "blocksworld": f"{PYTHON} {SAMPLES}/blocksworld.py MODE {{input}} -H H1 -MAX_ITERS 100000",
    "blokus": f"{PYTHON} {SAMPLES}/game.py MODE -p {{pieces}} -f astar -s {{size}} -z {{puzzle}} -x {{start}} {{targets}}",
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(*directories: Path) -> dict[str, str]:
    """Every file under the directories with its hash: any change, new or missing file shows."""
    return {str(path): digest(path) for directory in directories for path in sorted(directory.rglob("*"))
            if path.is_file()}


def programs(domain: str, modes) -> list[str]:
    words = []
    for mode in modes:
        words += ["--program", f"{mode}={TEMPLATES[domain].replace('MODE', mode)}"]
    return words


@pytest.fixture(scope="module")
def graded(tmp_path_factory, sandbox):
    """Every sample of every domain graded once; the reports and the before/after snapshots."""
    root = tmp_path_factory.mktemp("grade")
    tests, work, out, cache = root / "tests", root / "work", root / "out", root / "optima.json"
    for directory in (tests, work, out):
        directory.mkdir()
    (tests / "klotski").mkdir()
    (tests / "klotski" / "testhrd_med4.txt").write_bytes((DATA / "hrd/w23_s24_char/testhrd_med4.txt").read_bytes())
    (tests / "blocksworld").mkdir()
    (tests / "blocksworld" / "probA05.bwp").write_bytes((DATA / "blocksworld/probA05.bwp").read_bytes())
    (tests / "blokus").mkdir()
    blokus = get_domain("blokus")
    cover = blokus.load("small_set.txt", board_size=(6, 6), start=(3, 3), targets=((2, 2), (5, 5), (1, 4)))
    (tests / "blokus" / "cover6.txt").write_text(blokus.write_instance(cover))
    unsolvable = blokus.load("tiny_set.txt", board_size=(2, 6), start=(0, 0), targets=((0, 5), (1, 5)))
    (tests / "blokus" / "unsolvable.txt").write_text(blokus.write_instance(unsolvable))
    before = snapshot(tests, SAMPLES)
    common = [*LIMITS, "--workdir", str(work), "--cache", str(cache), *sandbox]
    statuses = {}
    runs = {
        "klotski": (list(EXPECTED), [str(tests / "klotski")]),
        "blocksworld": (list(EXPECTED), [str(tests / "blocksworld")]),
        "blokus": ([*EXPECTED, "board", "score"], [str(tests / "blokus")]),
    }
    for domain, (modes, files) in runs.items():
        target = out / domain
        statuses[domain] = main(["grade", domain, *programs(domain, modes), *files, *common, "--quiet",
                                 "--out", str(target), "--gradescope", str(target / "gradescope.json"),
                                 "--junit", str(target / "junit.xml")])
    results = {domain: json.loads((out / domain / "results.json").read_text())["results"] for domain in runs}
    return {"root": root, "tests": tests, "work": work, "out": out, "cache": cache, "before": before,
            "after": snapshot(tests, SAMPLES), "results": results, "statuses": statuses}


def verdicts(results, test: str) -> dict[str, str]:
    return {row["program"]: row["verdict"] for row in results if row["test"] == test}


@pytest.mark.parametrize("domain, test", [("klotski", "testhrd_med4.txt"), ("blocksworld", "probA05.bwp"),
                                          ("blokus", "cover6.txt")])
def test_each_sample_gets_its_verdict(graded, domain, test):
    found = verdicts(graded["results"][domain], test)
    expected = {mode: verdict.value for mode, verdict in EXPECTED.items()}
    if domain == "blokus":
        expected.update(board="pass", score="bad format")  # game.py's report: the final board proves the score
    assert found == expected
    assert graded["statuses"][domain] == 1  # some test failed


def test_verdicts_say_why(graded):
    rows = {row["program"]: row for row in graded["results"]["klotski"]}
    assert rows["notoptimal"]["detail"] == "cost 40, optimum 38"
    assert rows["illegal"]["detail"].startswith("step 1 (line 7)")
    assert "before:" in rows["illegal"]["report"] and "after:" in rows["illegal"]["report"]
    assert rows["nosolution"]["detail"] == "claims no solution, but a plan of cost 38 exists"
    assert rows["garbage"]["detail"].startswith("line 1: ")
    assert rows["crash"]["detail"] == "exit status 1"
    assert "RuntimeError: a sample crash" in rows["crash"]["report"]
    assert "6 s of wall time" in rows["sleep"]["detail"]
    assert "MemoryError" in rows["memory"]["report"]
    assert "cut off" in rows["flood"]["detail"]
    assert "Read-only file system" in rows["tamper"]["report"] if NAMESPACES else "copy of the test file" in rows["tamper"]["detail"]
    blokus = {row["program"]: row for row in graded["results"]["blokus"] if row["test"] == "cover6.txt"}
    assert blokus["board"]["detail"] == "optimal, cost 7 (plan rebuilt from the final board)"
    assert "a score line alone (score 7) proves nothing" in blokus["score"]["detail"]


def test_no_solution_passes_on_an_unsolvable_test(graded):
    found = verdicts(graded["results"]["blokus"], "unsolvable.txt")
    assert found["nosolution"] == "pass"
    assert found["optimal"] == "pass"  # the sample's own search finds nothing and says so


def test_nothing_outside_the_temporary_directories_changes(graded):
    assert graded["after"] == graded["before"]  # test files and samples: same hashes, no stray files
    assert not list(SAMPLES.glob("__pycache__"))
    assert list(graded["work"].iterdir()) == []  # every temporary directory removed


def test_gradescope_files_have_the_documented_keys_and_types(graded):
    for domain in ("klotski", "blocksworld", "blokus"):
        document = json.loads((graded["out"] / domain / "gradescope.json").read_text())
        assert isinstance(document["tests"], list) and document["tests"]
        for test in document["tests"]:
            assert set(test) >= {"name", "score", "max_score", "status", "output"}
            assert isinstance(test["name"], str) and isinstance(test["output"], str)
            assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
            assert test["status"] in ("passed", "failed")
            assert 0 <= test["score"] <= test["max_score"]
            assert (test["status"] == "passed") == (test["score"] == test["max_score"] > 0)
        assert document["score"] == sum(test["score"] for test in document["tests"])
    klotski = json.loads((graded["out"] / "klotski" / "gradescope.json").read_text())
    assert [t["name"] for t in klotski["tests"]][:2] == ["optimal: testhrd_med4.txt", "notoptimal: testhrd_med4.txt"]
    assert klotski["score"] == 1


def test_junit_files_validate_against_the_schema(graded):
    xmlschema = pytest.importorskip("xmlschema")
    schema = xmlschema.XMLSchema(str(Path(__file__).resolve().parent / "junit.xsd"))
    for domain in ("klotski", "blocksworld", "blokus"):
        path = graded["out"] / domain / "junit.xml"
        schema.validate(str(path))
        document = schema.to_dict(str(path))
        suites = document["testsuite"]
        failed = sum(1 for row in graded["results"][domain] if not row["passed"])
        assert sum(suite["@failures"] + suite["@errors"] for suite in suites) == failed
        assert all(suite["properties"]["property"][0]["@name"] == "isolation" for suite in suites)


def test_markdown_and_csv_reports(graded):
    report = (graded["out"] / "klotski" / "report.md").read_text()
    assert "## Per program" in report and "## Per test" in report
    assert "| testhrd_med4.txt | 1/12 |" in report
    csv_lines = (graded["out"] / "klotski" / "results.csv").read_text().splitlines()
    assert csv_lines[0].startswith("program,test,verdict,passed") and len(csv_lines) == 13


def test_optima_are_cached_by_file_content(graded, tmp_path):
    cache = json.loads(graded["cache"].read_text())
    assert len(cache["optima"]) == 4  # med4, probA05, cover6, unsolvable
    puzzle = tmp_path / "med4.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_med4.txt").read_bytes())
    (case,) = collect_cases("klotski", [str(puzzle)])
    store = OptimumCache(graded["cache"])
    info, cached = store.get(case)
    assert cached and info.cost == 38  # same content under another name
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_med3.txt").read_bytes())
    (case,) = collect_cases("klotski", [str(puzzle)])
    info, cached = store.get(case)
    assert not cached and info.cost == 40


def test_v1_form_students_directories_and_weights(tmp_path, capsys, sandbox):
    puzzle = tmp_path / "hrd_input1.txt"
    puzzle.write_bytes((DATA / "hrd/f22_numeric/hrd_input1.txt").read_bytes())
    students = tmp_path / "students"
    for name, mode in (("alice", "optimal"), ("bob", "wronggoal")):
        (students / name).mkdir(parents=True)
        (students / name / "hrd.py").write_text(
            f"import runpy, sys\nsys.dont_write_bytecode = True\nsys.path.insert(0, {str(SAMPLES)!r})\n"
            f"sys.argv[1:1] = [{mode!r}]\nrunpy.run_path({str(SAMPLES / 'hrd.py')!r}, run_name='__main__')\n")
    before = snapshot(tmp_path)
    weights = tmp_path / "weights.txt"
    weights.write_text("hrd_input1.txt 5\n")
    before[str(weights)] = digest(weights)
    status = main(["grade", "klotski", "--programs", str(students), "--program",
                   f"{PYTHON} hrd.py {{input}} {{dfs_output}} {{output}}", str(puzzle), *LIMITS, "--no-cache", *sandbox,
                   "--weights", str(weights), "--gradescope", str(tmp_path / "gs.json")])
    printed = capsys.readouterr().out
    assert status == 1 and "1/2 passed" in printed and "alice" in printed and "bob" in printed
    document = json.loads((tmp_path / "gs.json").read_text())
    assert [(t["name"], t["score"], t["max_score"]) for t in document["tests"]] == [
        ("alice: hrd_input1.txt", 5.0, 5.0), ("bob: hrd_input1.txt", 0.0, 5.0)]
    after = snapshot(tmp_path)
    del after[str(tmp_path / "gs.json")]
    assert after == before


def test_dask_executor_on_a_local_cluster(tmp_path, course_library):
    distributed = pytest.importorskip("dask.distributed")
    puzzle = tmp_path / "med4.txt"
    puzzle.write_bytes((DATA / "hrd/w23_s24_char/testhrd_med4.txt").read_bytes())
    cases = collect_cases("klotski", [str(puzzle)])
    optima = {case.name: OptimumCache(None).get(case)[0] for case in cases}
    template = TEMPLATES["klotski"]
    chosen = [parse_program(f"{mode}={template.replace('MODE', mode)}") for mode in ("optimal", "illegal")]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        limits = Limits(timeout=30, memory_mib=1024, isolation=choose_isolation("auto" if NAMESPACES else "none"),
                        readable=(sys.prefix, str(SAMPLES), str(course_library)),
                        env=(("PYTHONPATH", str(course_library)),))
        results = grade(chosen, cases, limits, optima, executor="dask", scheduler=client)
    assert [(r.program, r.verdict) for r in results] == [("optimal", Verdict.PASS), ("illegal", Verdict.ILLEGAL)]


def test_help_shows_an_example_for_each_course(capsys):
    with pytest.raises(SystemExit):
        main(["grade", "klotski", "--help"])
    text = capsys.readouterr().out
    for example in ("hrd.py --algo astar --inputfile {input} --outputfile {output}",
                    "hrd.py {input} {dfs_output} {output}", "blocksworld.py {input} -H H1",
                    "game.py -p {pieces}", "{targets}", "--programs", "--gradescope", "--junit"):
        assert example in text
    for verdict in Verdict:
        assert verdict.value in text


def test_unknown_placeholders_and_tests_are_input_errors(tmp_path, capsys):
    assert main(["grade", "klotski", "--program", "hrd.py {inptu}", "hrd-v2"]) == 2
    assert "unknown placeholder {inptu}" in capsys.readouterr().err
    assert main(["grade", "klotski", "--program", "hrd.py {input}", str(tmp_path / "missing.txt")]) == 2
    assert main(["grade", "klotski", "--program", "hrd.py {input}", "bw-tamu"]) == 2


def test_the_grading_layer_never_imports_the_command_line():
    package = ROOT / "src" / "heurist" / "grade"
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(name.startswith(("heurist.cli", "heurist.render")) for name in names), path
