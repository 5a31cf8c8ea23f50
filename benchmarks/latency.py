"""What users wait for: whole commands and the exact-distance builder, against their targets.

Every row runs ``--repeat`` times (5 by default) and reports the median wall
time and the median CPU time (user + system of the child process, or of this
process for the in-process row), next to the target and whether the median
CPU time meets it: on a 2-core machine shared with other work, wall time
grows with the load while CPU time barely does, so a busy machine must not
fake a miss. The load average is printed at the start and beside every row.
Commands run through the installed ``heurist`` console script, start-up
included, exactly as a user types them. A row whose first run
ends at its time limit (a Blocks World problem A* does not finish) is not
repeated: another minute of the same outcome adds nothing.

    .venv/bin/python benchmarks/latency.py                    # every row, median of 5
    .venv/bin/python benchmarks/latency.py --only klotski     # rows whose name starts so
    .venv/bin/python benchmarks/latency.py --repeat 3 --json latency.json

The machine, the Python version and the load average at the start are
printed above the table, so figures from a busy machine can be told apart.

The exact-distance row runs in this process with the compiled builder
(:mod:`heurist.domains.klotski.compiled`, numba): importing numba and loading
its kernels from numba's disk cache (or compiling them, on a machine's first
run) is paid once per process, is timed on its own and printed above the
table, and is not in the row.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
HEURIST = str(Path(sys.executable).with_name("heurist"))

SMALL_KLOTSKI = [
    "f22_numeric/hrd_input0.txt",
    "f22_numeric/hrd_input1.txt",
    "f22_numeric/hrd_input2.txt",
    "f24_w25_goal/easy1.txt",
    "f24_w25_goal/easy2.txt",
    "f24_w25_goal/easy3.txt",
    "f24_w25_goal/med1T.txt",
    "f24_w25_goal/med3.txt",
    "w23_s24_char/testhrd_easy1.txt",
    "w23_s24_char/testhrd_easy1_astar_output_1.txt",
    "w23_s24_char/testhrd_med4.txt",
    "f22_numeric/layouts32_longles/hrd_10.txt",
    "f22_numeric/layouts32_longles/hrd_21.txt",
    "f22_numeric/layouts32_longles/hrd_22.txt",
    "f22_numeric/layouts32_longles/hrd_23.txt",
    "f22_numeric/layouts32_longles/hrd_25.txt",
    "f22_numeric/layouts32_longles/hrd_26.txt",
    "f22_numeric/layouts32_longles/hrd_28.txt",
    "f22_numeric/layouts32_longles/hrd_30.txt",
]
"""Every course Klotski file that A* with the default heuristic solves (or proves
unsolvable) in fewer than 1,000 expansions; the one-move and already-solved boards
among them are what students try first."""

CLASSIC = "hrd/w23_s24_char/testhrd_hard1.txt"
BLOKUS_TARGETS = "[(0,1),(0,9),(5,5), (8,8), (4,9),(9,2)]"
CHALLENGE = DATA / "blocksworld" / "spring21_bwchp"
CHALLENGE_LIMIT = 60.0
PLAN_WEIGHT = 2.5
"""Weighted A* with this weight gives a plan for each 3-stack, 20-block problem that A* cannot finish."""


@dataclass
class Run:
    """One timed run: wall and CPU seconds, and whether it ended at its limit."""

    wall: float
    cpu: float
    limited: bool = False


@dataclass
class Row:
    """A line of the table: what is measured, how, and its target in wall seconds."""

    name: str
    work: str
    target: float
    measure: Callable[[], Run]
    repeats_inside: bool = False
    """True for rows over several files: ``measure`` repeats each file itself."""
    slowest: str = ""
    load: str = ""
    """The load average (1, 5, 15 minutes) when the row finished."""
    runs: list[Run] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(run.wall for run in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(run.cpu for run in self.runs)

    @property
    def limited(self) -> bool:
        return any(run.limited for run in self.runs)

    @property
    def verdict(self) -> str:
        """Judged on the median CPU time (see the module's docstring)."""
        if self.limited:
            return "missed (limit)"
        return "met" if self.cpu <= self.target else f"missed by {self.cpu - self.target:.3f} s"


def run_command(
    arguments: list[str], *, limited_when: Callable[[str], bool] | None = None, cache: bool = True
) -> Run:
    """Run a command to completion; wall time from here, CPU time from the child's rusage.

    ``cache=False`` runs it with ``HEURIST_CACHE=off``: pattern databases are built afresh,
    as on a user's first run of a puzzle. Python keeps compiled modules (``__pycache__``)
    even where ``PYTHONDONTWRITEBYTECODE`` is set here, as an installed package has them:
    compiling heurist's sources again on every run would add about 30 ms to each command.
    """
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    if not cache:
        environment["HEURIST_CACHE"] = "off"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(arguments, capture_output=True, text=True, cwd=ROOT, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    limited = bool(limited_when and limited_when(completed.stdout))
    if completed.returncode not in (0, 1, 3) or (completed.returncode == 3 and not limited):
        raise SystemExit(
            f"latency: {' '.join(arguments)} exited with {completed.returncode}:\n{completed.stderr[-2000:]}"
        )
    return Run(wall, cpu, limited)


def heurist(
    *arguments: str, limited_when: Callable[[str], bool] | None = None, cache: bool = True
) -> Callable[[], Run]:
    return lambda: run_command([HEURIST, *arguments], limited_when=limited_when, cache=cache)


def hrd_astar(path: str, cache: bool = True) -> Callable[[], Run]:
    def measure() -> Run:
        with tempfile.TemporaryDirectory() as scratch:
            return run_command(
                [HEURIST, "hrd", "--algo", "astar", "--inputfile", str(DATA / "hrd" / path),
                 "--outputfile", str(Path(scratch) / "out.txt")], cache=cache,
            )

    return measure


def slowest_of(
    name: str, work: str, target: float, paths: list[str], command: Callable[[str], Callable[[], Run]], repeat: int
) -> Row:
    """A row that times every file ``repeat`` times and reports the slowest file's medians."""

    def measure() -> Run:
        medians = []
        for path in paths:
            runs = [command(path)() for _ in range(repeat)]
            medians.append(
                (statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs), path)
            )
        wall, cpu, row.slowest = max(medians)
        return Run(wall, cpu)

    row = Row(name, work, target, measure, repeats_inside=True)
    return row


def compiled_kernels() -> str:
    """Import numba and load (or compile) the Klotski kernels: what a process pays once, before the row."""
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    from heurist.domains.klotski import compiled

    imported = time.process_time() - start_cpu
    loaded = compiled.warm_up()
    return (f"numba and the compiled Klotski kernels: import {imported:.3f} s CPU, kernels loaded or compiled "
            f"{loaded:.3f} s CPU ({time.perf_counter() - start_wall:.3f} s wall), once per process, "
            "not in the exact-distance row")


def exact_distances_classic() -> Run:
    """Build the classic layout's component with every exact goal distance, in this process."""
    from heurist.domains.klotski import load
    from heurist.domains.klotski.compiled import klotski_compiled_space
    from heurist.search.space import build_state_space

    problem = load(DATA / CLASSIC, metric="step", symmetry=False)
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    space = build_state_space(problem, builder=klotski_compiled_space)
    run = Run(time.perf_counter() - start_wall, time.process_time() - start_cpu)
    if space.size != 25_955:
        raise SystemExit(f"latency: the classic component has {space.size} states, not 25,955")
    return run


def blocksworld_limited(output: str) -> bool:
    return "status: solved" not in output


def challenge(number: int, *extra: str) -> Callable[[], Run]:
    return heurist(
        "solve", "blocksworld", str(CHALLENGE / f"bwchp{number:02d}.bwp"), "--quiet",
        "--time-limit", str(CHALLENGE_LIMIT), *extra, limited_when=blocksworld_limited,
    )


def rows(repeat: int) -> list[Row]:
    def solve_klotski(path: str) -> Callable[[], Run]:
        return heurist("solve", "klotski", str(DATA / "hrd" / path), "--quiet")

    count = len(SMALL_KLOTSKI)
    table = [
        Row("klotski-hrd-easy1", "`heurist hrd --algo astar` on f24_w25_goal/easy1.txt (one move)", 0.15,
            hrd_astar("f24_w25_goal/easy1.txt")),
        slowest_of("klotski-hrd-small", f"`heurist hrd --algo astar`, slowest of the {count} course "
                   "puzzles under 1,000 expansions", 0.15, SMALL_KLOTSKI, hrd_astar, repeat),
        slowest_of("klotski-solve-small", f"`heurist solve klotski`, slowest of the same {count} puzzles",
                   0.15, SMALL_KLOTSKI, solve_klotski, repeat),
        Row("klotski-hrd-easy1-uncached", "the same with `HEURIST_CACHE=off` (pattern databases built "
            "afresh, as on a puzzle's first run)", 0.15, hrd_astar("f24_w25_goal/easy1.txt", cache=False)),
        Row("klotski-solve-classic", "`heurist solve klotski` on the classic layout (A*, pdb)", 0.3,
            heurist("solve", "klotski", str(DATA / CLASSIC), "--quiet")),
        Row("klotski-solve-classic-uncached", "the same with `HEURIST_CACHE=off`", 0.3,
            heurist("solve", "klotski", str(DATA / CLASSIC), "--quiet", cache=False)),
        Row("klotski-bfs-path-classic", "`heurist solve klotski CLASSIC --metric path --algo bfs`", 0.3,
            heurist("solve", "klotski", str(DATA / CLASSIC), "--metric", "path", "--algo", "bfs", "--quiet")),
        Row("klotski-exact-distances-classic", "exact distances of the classic component (25,955 states), "
            "in process, compiled builder", 0.05, exact_distances_classic),
        Row("blokus-mini-contest", "`heurist blokus -s 15 15 -z mini-contest` with six targets, proven optimal",
            3.0, heurist("blokus", "-p", str(DATA / "blokus" / "valid_pieces.txt"), "-s", "15", "15",
                         "-z", "mini-contest", BLOKUS_TARGETS)),
    ]
    for number in range(1, 46):
        table.append(
            Row(f"blocksworld-bwchp{number:02d}", f"`heurist solve blocksworld bwchp{number:02d}.bwp` "
                f"(A*, default heuristic, {CHALLENGE_LIMIT:.0f} CPU s limit)", 10.0, challenge(number))
        )
    for number in range(11, 16):
        table.append(
            Row(f"blocksworld-plan-bwchp{number:02d}", f"`heurist solve blocksworld bwchp{number:02d}.bwp "
                f"--algo wastar --weight {PLAN_WEIGHT}` (a plan, not proven optimal)", 10.0,
                challenge(number, "--algo", "wastar", "--weight", str(PLAN_WEIGHT)))
        )
    return table


def load_average() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def machine() -> str:
    model = "unknown processor"
    with contextlib.suppress(OSError):
        found = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text())
        if found:
            model = found.group(1).strip()
    return (f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}; load average at start {load_average()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per row; the median is reported (default 5)")
    parser.add_argument("--only", nargs="+", metavar="PREFIX", help="rows whose name starts with one of these")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every run to FILE")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    print(machine(), flush=True)
    table = [row for row in rows(args.repeat) if not args.only or row.name.startswith(tuple(args.only))]
    if any(row.measure is exact_distances_classic for row in table):
        print(compiled_kernels(), flush=True)
    print("| work | wall median (s) | CPU median (s) | target (s) | verdict (CPU) | load average |")
    print("|---|---|---|---|---|---|")
    for row in table:
        for _ in range(1 if row.repeats_inside else args.repeat):
            row.runs.append(row.measure())
            if row.runs[-1].limited:
                break
        work = row.work + (f" (slowest: {row.slowest})" if row.slowest else "")
        row.load = load_average()
        print(f"| {work} | {row.wall:.3f} | {row.cpu:.3f} | {row.target:g} | {row.verdict} | {row.load} |",
              flush=True)
    met = sum(row.verdict == "met" for row in table)
    print(f"\n{met} of {len(table)} rows meet their target (on CPU time); load average at the end {load_average()}")
    if args.json:
        args.json.write_text(json.dumps(
            [{"name": row.name, "work": row.work, "target": row.target, "verdict": row.verdict,
              "slowest": row.slowest, "load": row.load, "runs": [vars(run) for run in row.runs]} for row in table], indent=1))


if __name__ == "__main__":
    main()
