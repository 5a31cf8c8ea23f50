"""What isolation costs ``heurist grade``: per run against an unisolated run, and a whole class.

Part 1 runs one small command (copy the test to the output file) ``--runs``
times at each isolation level through :func:`heurist.grade.sandbox.run_limited`,
one at a time, and reports the median and 90th percentile wall time of a run
and the isolation's overhead over ``none`` (target: at most 50 ms a run).

Part 2 grades a class: ``--programs`` copies of the sample CSC384 solver
(``tests/grade_samples/hrd.py``, which solves with heurist's A*) on the first
``--tests`` puzzles of the CSC384 suites, ``--jobs`` runs at a time, in the
default (strongest) isolation and, with ``--compare``, without isolation.

    .venv/bin/python benchmarks/grade_overhead.py                    # both parts
    .venv/bin/python benchmarks/grade_overhead.py --runs 100 --programs 0
    .venv/bin/python benchmarks/grade_overhead.py --programs 30 --tests 10 --jobs 2 --compare --json grade.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "tests" / "grade_samples"
sys.path.insert(0, str(ROOT / "src"))

from heurist.grade import Limits, OptimumCache, Verdict, collect_cases, grade, parse_program  # noqa: E402
from heurist.grade.isolation import Isolation, choose_isolation, namespaces_work  # noqa: E402
from heurist.grade.sandbox import RunSpec, run_limited  # noqa: E402

TESTS = [*(f"hrd/w23_s24_char/testhrd_{name}.txt" for name in ("easy1", "med1", "med2", "med3", "med4")),
         *(f"hrd/f24_w25_goal/{name}.txt" for name in ("easy1", "easy2", "easy3", "med1", "med2")),
         *(f"hrd/f22_numeric/hrd_input{number}.txt" for number in range(20))]


def levels() -> list[Isolation]:
    found = [Isolation.NONE]
    if os.geteuid() == 0:
        found.append(Isolation.DEDICATED_UID)
    if namespaces_work():
        found.append(Isolation.NAMESPACES)
    return found


def per_run(runs: int) -> dict[str, dict[str, float]]:
    """Median and 90th percentile wall time of one small run at each level."""
    data = (ROOT / "data" / TESTS[0]).read_bytes()
    figures = {}
    for level in levels():
        times = []
        for _ in range(runs):
            workdir = tempfile.mkdtemp(prefix="heurist-overhead-")
            os.chmod(workdir, 0o755)
            Path(workdir, "test.txt").write_bytes(data)
            spec = RunSpec("cat test.txt > output.txt", "test.txt", data, level, timeout=30, outputs=("output.txt",),
                           env={"PATH": "/usr/bin:/bin"}, workdir=workdir, uid=61000)
            if level is Isolation.DEDICATED_UID:
                os.chown(workdir, 61000, 61000)
                os.chown(Path(workdir, "test.txt"), 61000, 61000)
            started = time.perf_counter()
            outcome = run_limited(spec)
            times.append(time.perf_counter() - started)
            shutil.rmtree(workdir)
            assert outcome.files.get("output.txt") == data, outcome
        times.sort()
        figures[level.value] = {"median_ms": round(1000 * statistics.median(times), 1),
                                "p90_ms": round(1000 * times[int(0.9 * (len(times) - 1))], 1)}
    base = figures[Isolation.NONE.value]["median_ms"]
    for row in figures.values():
        row["overhead_ms"] = round(row["median_ms"] - base, 1)
    return figures


def a_class(programs: int, tests: int, jobs: int, isolation: Isolation) -> dict[str, float | int | str]:
    """``programs`` sample solvers on ``tests`` puzzles: wall time, runs per second, verdicts."""
    with tempfile.TemporaryDirectory(prefix="heurist-class-") as directory:
        library = Path(directory) / "courselib"
        shutil.copytree(ROOT / "src" / "heurist", library / "heurist", ignore=shutil.ignore_patterns("__pycache__"))
        folder = Path(directory) / "hidden"
        folder.mkdir()
        for index, name in enumerate(TESTS[:tests]):
            (folder / f"{index:02d}-{Path(name).name}").write_bytes((ROOT / "data" / name).read_bytes())
        cases = collect_cases("klotski", [str(folder)])
        cache = OptimumCache(None)
        optima = {case.name: cache.get(case)[0] for case in cases}
        template = (f"{sys.executable} {SAMPLES}/hrd.py optimal --algo astar --inputfile {{input}} "
                    "--outputfile {output}")
        chosen = [parse_program(f"student{number:02d}={template}") for number in range(1, programs + 1)]
        limits = Limits(timeout=60, memory_mib=2048, isolation=isolation,
                        readable=(sys.prefix, str(SAMPLES), str(library)), env=(("PYTHONPATH", str(library)),))
        started = time.perf_counter()
        results = grade(chosen, cases, limits, optima, jobs=jobs)
        seconds = time.perf_counter() - started
    walls = sorted(result.wall_time or 0.0 for result in results)
    return {"isolation": isolation.value, "runs": len(results), "wall_s": round(seconds, 1),
            "runs_per_s": round(len(results) / seconds, 2), "run_median_s": round(statistics.median(walls), 3),
            "passed": sum(result.verdict is Verdict.PASS for result in results)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50, help="runs per level in part 1 (0: skip)")
    parser.add_argument("--programs", type=int, default=30, help="programs in part 2 (0: skip)")
    parser.add_argument("--tests", type=int, default=10, help=f"tests in part 2 (at most {len(TESTS)})")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--compare", action="store_true", help="part 2 without isolation too")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, load average {os.getloadavg()[0]:.2f}")
    document: dict = {}
    if args.runs:
        document["per_run"] = per_run(args.runs)
        print(f"\none small run, {args.runs} times per level, one at a time (target: overhead <= 50 ms)")
        print(f"{'isolation':<15} {'median ms':>10} {'p90 ms':>8} {'overhead ms':>12}")
        for level, row in document["per_run"].items():
            print(f"{level:<15} {row['median_ms']:>10} {row['p90_ms']:>8} {row['overhead_ms']:>12}")
    if args.programs:
        chosen = [choose_isolation()] + ([Isolation.NONE] if args.compare else [])
        document["class"] = [a_class(args.programs, args.tests, args.jobs, level) for level in chosen]
        print(f"\na class: {args.programs} programs x {args.tests} tests, --jobs {args.jobs}")
        print(f"{'isolation':<15} {'runs':>5} {'wall s':>8} {'runs/s':>7} {'median run s':>13} {'passed':>7}")
        for row in document["class"]:
            print(f"{row['isolation']:<15} {row['runs']:>5} {row['wall_s']:>8} {row['runs_per_s']:>7} "
                  f"{row['run_median_s']:>13} {row['passed']:>7}")
    if args.json:
        Path(args.json).write_text(json.dumps(document, indent=1) + "\n")


if __name__ == "__main__":
    main()
