"""heurist bench: suites, the grid end to end, resume, failing runs, planners and the Dask executor."""

from __future__ import annotations

import ast
import csv
import json
import shutil
import signal
from pathlib import Path

import pytest

from heurist.bench.grid import RUNS_FILE, build_grid, run_grid
from heurist.bench.planners import (
    check_planners,
    fast_downward_script,
    parse_fast_downward,
    parse_pyperplan,
    pyperplan_available,
)
from heurist.bench.report import csv_text, json_text
from heurist.bench.runs import execute
from heurist.bench.schema import Config, RunStatus, Settings, Task
from heurist.bench.suites import GeneratedSpec, Instance, all_suites, suite_instances
from heurist.cli.main import main
from heurist.domains import get_domain
from heurist.errors import InputError
from heurist.search import Status

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
BENCH = ROOT / "src" / "heurist" / "bench"
TIMES = ("search_time", "total_time", "wall_time", "memory")


def small_data(tmp_path: Path) -> Path:
    """A data directory whose bw-tamu suite holds two small course problems."""
    data = tmp_path / "data"
    (data / "blocksworld").mkdir(parents=True)
    for name in ("probA03.bwp", "probA04.bwp"):
        shutil.copy(DATA / "blocksworld" / name, data / "blocksworld" / name)
    return data


def test_course_suites_are_found_in_natural_order_and_every_instance_loads():
    counts = {name: len(suite_instances(name, DATA)) for name in all_suites()}
    assert counts == {
        "hrd-v1": 7, "hrd-v2": 7, "hrd-v3": 9, "hrd-layouts32": 32,
        "bw-tamu": 27, "bw-testcases": 4, "bw-challenge": 45, "blokus-course": 10,
    }
    layouts = [instance.name for instance in suite_instances("hrd-layouts32", DATA)]
    assert layouts[:3] == ["hrd_0.txt", "hrd_1.txt", "hrd_2.txt"] and layouts[-1] == "hrd_31.txt"
    for name in ("hrd-v1", "hrd-v2", "hrd-v3"):  # course outputs are not puzzles
        assert not any("output" in i.name or "solution" in i.name for i in suite_instances(name, DATA))
    for name in ("hrd-v1", "hrd-v2", "bw-testcases", "blokus-course"):
        for instance in suite_instances(name, DATA):
            problem = get_domain(instance.domain).load(instance.path, **instance.options(get_domain(instance.domain)))
            assert problem.initial_state is not None


def test_blokus_course_instances_carry_the_reference_options():
    instances = {instance.name: instance for instance in suite_instances("blokus-course", DATA)}
    options = instances["cover-10x10-small"].options(get_domain("blokus"))
    assert tuple(options["board_size"]) == (10, 10) and tuple(options["start"]) == (3, 3)
    problem = get_domain("blokus").load(instances["cover-10x10-small"].path, **options)
    assert type(problem).__name__ == "CoverProblem"


def test_missing_data_and_unknown_suites_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="data directory not found"):
        suite_instances("bw-tamu", tmp_path / "nowhere")
    with pytest.raises(InputError, match="no folder"):
        suite_instances("hrd-v2", tmp_path)
    with pytest.raises(InputError, match="unknown suite"):
        suite_instances("bw-nope", DATA)


def test_generated_spec_is_reproducible_and_checks_its_options(tmp_path):
    spec = GeneratedSpec.parse("blocksworld:3:7:--blocks 4 --stacks 3")
    first = spec.write(tmp_path / "a")
    second = spec.write(tmp_path / "b")
    assert len(first) == 3
    assert [Path(i.path).read_text() for i in first] == [Path(i.path).read_text() for i in second]
    for text in ("blocksworld:3", "blocksworld:x:1", "blocksworld:0:1", "nodomain:1:1", "blocksworld:1:1:--colour 3"):
        with pytest.raises(InputError):
            GeneratedSpec.parse(text)


def test_grid_uses_each_domains_heuristics_once_and_uninformed_algorithms_once():
    instances = suite_instances("bw-testcases", DATA)[:1] + suite_instances("blokus-course", DATA)[:1]
    tasks = build_grid(instances, ["astar", "bfs"], ["deadlock", "reach", "H3"])
    assert [task.config.name for task in tasks] == ["astar-deadlock", "bfs", "astar-reach", "bfs"]
    assert [task.index for task in tasks] == list(range(4))
    with pytest.raises(InputError, match="no benchmarked domain"):
        build_grid(instances, ["astar"], ["pdb"])


def test_heuristics_of_your_own_run_beside_the_built_in_ones(tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(  # a move changes two stacks: half the stacks off their goal (rounded up) is admissible
        "def misplaced(state, problem):\n    return (sum(a != b for a, b in zip(state, problem.goal_state)) + 1) // 2\n"
        "def broken(state, problem):\n    return 1 / 0\n"
    )
    data = small_data(tmp_path)
    instances = suite_instances("bw-tamu", data)
    names = ["deadlock", f"{mine}:misplaced", f"{mine}:broken"]
    tasks = build_grid(instances, ["astar"], names)
    assert [task.config.name for task in tasks[:3]] == [f"astar-{name}" for name in names]
    rows = run_grid(tasks, Settings(), tmp_path / "out", jobs=2)
    by_config = {(row["problem"], row["heuristic"]): row for row in rows}
    for problem in ("probA03.bwp", "probA04.bwp"):
        assert by_config[problem, f"{mine}:misplaced"]["status"] == "solved"
        assert by_config[problem, f"{mine}:misplaced"]["cost"] == by_config[problem, "deadlock"]["cost"]
        failed = by_config[problem, f"{mine}:broken"]
        assert failed["status"] == "crashed" and f"{mine}:4: the heuristic 'broken' raised ZeroDivisionError" in failed["error"]
    with pytest.raises(InputError, match="no such heuristic file"):
        build_grid(instances, ["astar"], [f"{tmp_path / 'missing.py'}:h"])
    two_domains = instances + suite_instances("hrd-v2", DATA)[:1]
    with pytest.raises(InputError, match="suites of one domain"):
        build_grid(two_domains, ["astar"], [f"{mine}:misplaced"])


def test_tiny_grid_end_to_end_writes_csv_json_markdown_and_plots(tmp_path, capsys):
    out = tmp_path / "out"
    status = main([
        "bench", "bw-tamu", "--data", str(small_data(tmp_path)), "--generated", "blocksworld:2:1:--blocks 4 --stacks 3",
        "--algorithms", "astar,bfs", "--heuristics", "deadlock,h1", "--jobs", "2", "--out", str(out),
        "--max-expansions", "100000", "--quiet",
    ])
    assert status == 0
    assert "12/12 runs solved" in capsys.readouterr().out
    with open(out / "results.csv", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert [(row["problem"], row["config"]) for row in rows[:3]] == [
        ("probA03.bwp", "astar-deadlock"), ("probA03.bwp", "astar-h1"), ("probA03.bwp", "bfs"),
    ]
    assert {row["suite"] for row in rows} == {"bw-tamu", "gen-blocksworld-2-1"}
    # Every configuration is optimal here, so each problem has one cost throughout.
    costs = {}
    for row in rows:
        assert row["status"] == "solved" and row["coverage"] == "1"
        costs.setdefault(row["problem"], set()).add(row["cost"])
    assert all(len(values) == 1 for values in costs.values())
    assert costs["probA03.bwp"] == {"3"}
    document = json.loads((out / "results.json").read_text())
    assert document["max_expansions"] == 100000 and len(document["runs"]) == 12
    assert document["runs"][0]["expansions"] == int(rows[0]["expansions"])
    report = (out / "report.md").read_text()
    assert "| problem | solution length | iterations | max queue size | time (s) |" in report
    assert "| astar-deadlock | 2/2 |" in report
    assert "### bw-tamu: bfs" in report
    for name in ("expansions.png", "coverage.png"):
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 5000


def test_resume_runs_only_what_is_missing(tmp_path):
    instances = suite_instances("bw-tamu", small_data(tmp_path))
    tasks = build_grid(instances, ["astar"], ["deadlock", "h1", "prefix"])
    settings = Settings(max_expansions=50_000)
    out = tmp_path / "out"
    first = run_grid(tasks, settings, out, jobs=2)
    lines = (out / RUNS_FILE).read_text().splitlines()
    # An interruption: two runs never recorded, the last one cut off mid-line.
    (out / RUNS_FILE).write_text("\n".join(lines[:-2]) + "\n" + lines[-2][:40])
    rerun = []
    second = run_grid(tasks, settings, out, resume=True, jobs=2, progress=lambda task, row: rerun.append(task.key))
    assert len(rerun) == 2
    assert strip_times(second) == strip_times(first)
    assert len((out / RUNS_FILE).read_text().splitlines()) == len(tasks) + 1  # the cut line stays, ignored
    with pytest.raises(InputError, match="other limits"):
        run_grid(tasks, Settings(max_expansions=10), out, resume=True)


def test_crashing_and_hanging_runs_are_recorded_and_the_bench_goes_on(tmp_path):
    data = small_data(tmp_path)
    (data / "blocksworld" / "probA05.bwp").write_text("3 5 3\n>>>>>>>>>>\nnot a state\n")
    instances = suite_instances("bw-tamu", data)
    tasks = build_grid(instances, ["astar"], ["deadlock"])
    rows = run_grid(tasks, Settings(), tmp_path / "out", jobs=2)
    assert [row["status"] for row in rows] == ["solved", "solved", "crashed"]
    assert "probA05.bwp" in rows[2]["error"] and rows[2]["coverage"] == 0
    # A run that would take long is killed at the wall-clock limit.
    slow = Task(0, Instance("bw-tamu", "blocksworld", "probB20.bwp", str(DATA / "blocksworld" / "probB20.bwp")),
                Config("astar", "h0"))
    row = execute(slow, Settings(kill_after=0.5))
    assert row["status"] == "killed" and row["coverage"] == 0 and row["wall_time"] < 5


def test_limits_end_runs_cleanly_with_their_statistics(tmp_path):
    slow = Task(0, Instance("bw-tamu", "blocksworld", "probB20.bwp", str(DATA / "blocksworld" / "probB20.bwp")),
                Config("astar", "h0"))
    row = execute(slow, Settings(max_expansions=300, kill_after=60))
    assert (row["status"], row["limit"], row["expansions"]) == ("limit reached", "expansions", 300)
    assert row["max_expansions_limit"] == 300


def strip_times(rows):
    return [{key: value for key, value in row.items() if key not in TIMES} for row in rows]


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "daemonic-processes"])
def test_dask_executor_on_a_local_cluster_gives_the_local_results(tmp_path, processes):
    distributed = pytest.importorskip("dask.distributed")
    instances = suite_instances("bw-tamu", small_data(tmp_path))
    tasks = build_grid(instances, ["astar", "bfs"], ["deadlock", "h0"])
    settings = Settings(max_expansions=100_000, kill_after=120)
    local = run_grid(tasks, settings, tmp_path / "local", jobs=2)
    # Worker processes are daemonic: runs execute inside them rather than in a child of their own.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=processes,
                                  dashboard_address=None) as cluster:
        remote = run_grid(tasks, settings, tmp_path / "dask", executor="dask", scheduler=cluster.scheduler_address)
    assert strip_times(remote) == strip_times(local)
    assert len(remote) == 6 and all(row["status"] == "solved" for row in remote)


FD_LOG = """\
[t=0.015902s, 11544 KB] Initial heuristic value for lmcut: 8
[t=0.075532s, 11544 KB] Plan length: 9 step(s).
[t=0.075532s, 11544 KB] Plan cost: 9
[t=0.075532s, 11544 KB] Expanded 28 state(s).
[t=0.075532s, 11544 KB] Reopened 0 state(s).
[t=0.075532s, 11544 KB] Evaluated 282 state(s).
[t=0.075532s, 11544 KB] Evaluations: 282
[t=0.075532s, 11544 KB] Generated 424 state(s).
[t=0.075532s, 11544 KB] Dead ends: 0 state(s).
[t=0.075532s, 11544 KB] Expanded until last jump: 2 state(s).
[t=0.075532s, 11544 KB] Search time: 0.059630s
[t=0.075532s, 11544 KB] Total time: 0.075532s
Peak memory: 11544 KB
"""

PYPERPLAN_LOG = """\
2026-11-22 02:32:11,231 INFO     Initial h value: 6.000000
2026-11-22 02:33:18,049 INFO     124 Nodes expanded
2026-11-22 02:33:18,050 INFO     Search time: 3.9e+01
2026-11-22 02:33:18,051 INFO     Plan length: 9
"""


def test_planner_logs_and_exit_codes_are_read_as_lab_attributes():
    row = parse_fast_downward(FD_LOG, 0)
    assert row["status"] == "solved" and row["cost"] == 9 and row["plan_length"] == 9
    assert (row["expansions"], row["generated"], row["evaluated"], row["expansions_until_last_jump"]) == (28, 424, 282, 2)
    assert row["search_time"] == pytest.approx(0.05963) and row["memory"] == 11544
    assert parse_fast_downward("", 11)["status"] == "unsolvable"
    assert parse_fast_downward("", 23)["limit"] == "time"
    assert parse_fast_downward("", 22)["limit"] == "memory"
    assert parse_fast_downward("", 12)["status"] == "unsolved"
    assert parse_fast_downward("INFO     Planner time: 2.04s\n", 232)["limit"] == "time"  # translator at the CPU limit
    crashed = parse_fast_downward("translate exit code: 31\nINFO     Planner time: 0.1s\n", 31)
    assert crashed["status"] == "crashed" and "translate exit code: 31" in crashed["error"]
    row = parse_pyperplan(PYPERPLAN_LOG, 0)
    assert (row["status"], row["cost"], row["expansions"], row["search_time"]) == ("solved", 9, 124, 39.0)
    assert parse_pyperplan("INFO     No solution could be found\n", 0)["status"] == "unsolvable"
    assert parse_pyperplan("INFO     Search start: p\n", -signal.SIGXCPU)["limit"] == "time"


def test_missing_planners_fail_with_the_install_hint(monkeypatch):
    import heurist.bench.planners as planners

    monkeypatch.setattr(planners, "fast_downward_script", lambda: None)
    with pytest.raises(InputError, match=r"pip install 'heurist\[planners\]'"):
        check_planners(["fd-lmcut"], {"blocksworld"})
    with pytest.raises(InputError, match="unknown planner"):
        check_planners(["fd-magic"], {"blocksworld"})


@pytest.mark.skipif(fast_downward_script() is None or not pyperplan_available(), reason="planners not installed")
def test_planners_find_the_optimal_cost_of_a_course_problem(tmp_path):
    instance = Instance("bw-tamu", "blocksworld", "probA04.bwp", str(DATA / "blocksworld" / "probA04.bwp"))
    settings = Settings(time_limit=60, kill_after=120)
    ours = execute(Task(0, instance, Config("astar", "deadlock")), settings)
    for planner in ("fd-lmcut", "fd-blind", "pyperplan-lmcut"):
        row = execute(Task(0, instance, Config("-", planner=planner)), settings)
        assert row["status"] == "solved" and row["cost"] == ours["cost"] == 4, row
        assert row["expansions"] > 0 and row["system"] in ("fd", "pyperplan")
    # pyperplan has no limits of its own: the bench stops it after a second of CPU time.
    hard = Instance("bw-tamu", "blocksworld", "probB20.bwp", str(DATA / "blocksworld" / "probB20.bwp"))
    row = execute(Task(0, hard, Config("-", planner="pyperplan-lmcut")), Settings(time_limit=1, kill_after=60))
    assert (row["status"], row["limit"]) == ("limit reached", "time")


def test_bad_bench_options_are_one_line_input_errors(capsys):
    assert main(["bench", "bw-nope"]) == 2
    assert main(["bench", "bw-tamu", "--algorithms", "astar,magic"]) == 2
    assert main(["bench", "--generated", "blocksworld:two:1"]) == 2
    assert main(["bench", "bw-tamu", "--executor", "dask"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 4 and all(line.startswith("heurist: ") for line in errors)


def test_list_names_every_suite_with_its_size_and_the_planners(capsys):
    assert main(["bench", "--list"]) == 0
    text = capsys.readouterr().out
    assert "bw-challenge" in text and "45 problems" in text and "32 problems" in text
    assert "fd-lmcut" in text and "pyperplan-lmcut" in text


def test_bench_command_on_a_dask_scheduler_writes_the_local_results(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    data = small_data(tmp_path)
    common = ["bench", "bw-tamu", "--data", str(data), "--heuristics", "deadlock,prefix", "--quiet"]
    assert main([*common, "--out", str(tmp_path / "local")]) == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        assert main([*common, "--out", str(tmp_path / "dask"), "--executor", "dask",
                     "--scheduler", cluster.scheduler_address]) == 0

    def rows(name):
        with open(tmp_path / name / "results.csv", newline="") as stream:
            return strip_times(list(csv.DictReader(stream)))

    assert rows("dask") == rows("local") and len(rows("local")) == 4


def test_row_statuses_are_run_status_values_written_as_plain_strings(tmp_path):
    assert {status.value for status in Status} <= {status.value for status in RunStatus}
    instance = Instance("bw-tamu", "blocksworld", "probA03.bwp", str(DATA / "blocksworld" / "probA03.bwp"))
    hard = Instance("bw-tamu", "blocksworld", "probB20.bwp", str(DATA / "blocksworld" / "probB20.bwp"))
    missing = Instance("bw-tamu", "blocksworld", "none.bwp", str(tmp_path / "none.bwp"))
    rows = [
        execute(Task(0, instance, Config("astar", "deadlock")), Settings()),
        execute(Task(1, hard, Config("astar", "h0")), Settings(max_expansions=10, kill_after=60)),
        execute(Task(2, missing, Config("astar", "deadlock")), Settings()),
    ]
    assert [row["status"] for row in rows] == [RunStatus.SOLVED, RunStatus.LIMIT_REACHED, RunStatus.CRASHED]
    parsed = [parse_fast_downward(FD_LOG, code) for code in (0, 11, 12, 22, 31)]
    parsed += [parse_pyperplan(PYPERPLAN_LOG, 0), parse_pyperplan("", 1)]
    values = {status.value for status in RunStatus}
    for row in rows + parsed:  # plain strings: json, csv and a resumed runs.jsonl see the same text
        assert type(row["status"]) is str and row["status"] in values, row
    assert "RunStatus" not in csv_text(rows) + json_text(rows, {})
    assert [json.loads(json.dumps(row))["status"] for row in rows] == ["solved", "limit reached", "crashed"]


def test_status_literals_are_written_only_in_the_schema():
    values = {status.value for status in RunStatus}
    for path in [*BENCH.glob("*.py"), ROOT / "src" / "heurist" / "cli" / "bench.py"]:
        if path.name == "schema.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in values:
                pytest.fail(f"{path.name}:{node.lineno}: status {node.value!r} spelt out; use RunStatus")


def bench_imports() -> dict[str, set[str]]:
    """The bench modules each bench module imports, anywhere in it (TYPE_CHECKING blocks and
    functions included); ``__init__`` stands for the package when it is imported by name."""
    modules = {path.stem for path in BENCH.glob("*.py")}

    def local(name: str) -> str | None:
        if name == "heurist.bench":
            return "__init__"
        parts = name.split(".")
        return parts[2] if parts[:2] == ["heurist", "bench"] and parts[2] in modules else None

    graph: dict[str, set[str]] = {}
    for path in BENCH.glob("*.py"):
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets |= {local(alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: only one level up stays in the package
                    base = "heurist.bench" + (f".{base}" if base else "") if node.level == 1 else "heurist"
                targets.add(local(base))
                targets |= {local(f"{base}.{alias.name}") for alias in node.names}
        graph[path.stem] = targets - {None, path.stem}
    return graph


def test_bench_modules_form_no_import_cycle():
    graph = bench_imports()
    assert graph["schema"] <= {"suites"} and "runs" not in graph["planners"]

    def visit(module: str, path: list[str]) -> None:
        for target in sorted(graph[module]):
            assert target not in path, "import cycle: " + " -> ".join([*path, target])
            visit(target, [*path, target])

    for module in graph:
        visit(module, [module])
