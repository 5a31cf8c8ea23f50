"""Klotski against the dnomd343/klotski C++ core, side by side in one run, on CPU time.

Builds the C++ core (py-klotski 0.0.2's sources) and the anchor bench program
(``klotski_bench.cc``, from the anchors folder beside the repository) in a
cache directory outside the repository, following the anchors' recipe: a
virtual environment with ziglang and cmake, zig's clang as the compiler
(Debian 12's GCC lacks ``<format>``). Each step is skipped when its output
is already there. When a step fails (no network for pip, no anchors folder)
the C++ side is skipped with the reason, and heurist's side still runs.

The bench program times each task with ``std::chrono::steady_clock`` (best of
7). It is compiled twice from the same source: as it is (wall time), and with
a forced-include header that makes ``steady_clock`` read the process's CPU
clock (``CLOCK_PROCESS_CPUTIME_ID``), so that both sides are compared on CPU
time, as heurist's side is measured (``time.process_time``, best of 7).

The work, on the classic layout (CommonCode 0x1A9BF0C00, ``testhrd_hard1``):

* path-metric solve: a breadth-first search where one move takes a piece to
  any cell it can reach (81 moves), plan included. heurist's side is
  :func:`heurist.domains.klotski.compiled.breadth_first_search`, with the
  mirror reduction (the command line's default) and without it (the same
  states the C++ core visits), and the interpreted engine
  (``heurist.search.search(problem, "bfs")``, what ``heurist solve`` runs);
* exact distances: the whole component (25,955 states) with its layers. The
  C++ core's ``build_all`` numbers the states by distance from the start;
  heurist builds the component with every edge and then every state's exact
  distance to the goal (``build_state_space`` with the compiled builder),
  under the step metric (the latency row) and the path metric.

numba's import, and compiling or loading the kernels, are paid once per
process and are reported on their own lines, not in the ratios.

    .venv/bin/python benchmarks/klotski_cpp.py
    .venv/bin/python benchmarks/klotski_cpp.py --cache /tmp/klotski-cpp --cold
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the same machine line as the latency table (benchmarks/ is on sys.path when run as a script)
from latency import machine

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "data" / "hrd" / "w23_s24_char" / "testhrd_hard1.txt"
ANCHORS = Path(os.environ.get("HEURIST_ANCHORS", ROOT.parent / "shared" / "anchors"))
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "heurist-bench" / "klotski-cpp"
PY_KLOTSKI = "py-klotski-0.0.2"
TARGET_RATIO = 5.0
REPEAT = 7

CPU_CLOCK_HEADER = """\
// Forced-include header: the bench's std::chrono::steady_clock reads the process's CPU clock.
#include <chrono>
#include <ctime>
namespace std::chrono {
struct process_cpu_clock_for_bench {
    using duration = std::chrono::nanoseconds;
    using rep = duration::rep;
    using period = duration::period;
    using time_point = std::chrono::time_point<process_cpu_clock_for_bench>;
    static constexpr bool is_steady = true;
    static time_point now() noexcept {
        timespec ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return time_point(duration(static_cast<rep>(ts.tv_sec) * 1000000000 + ts.tv_nsec));
    }
};
}
#define steady_clock process_cpu_clock_for_bench
"""


class Skip(Exception):
    """The C++ side cannot be built or run here; the message says why."""


def step(description: str, command: list[str], cwd: Path, log: Path, env: dict | None = None) -> None:
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(command)}\n")
        out.flush()
        try:
            completed = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                       timeout=1800)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise Skip(f"{description} failed ({error}); see {log}") from None
    if completed.returncode != 0:
        raise Skip(f"{description} failed (exit {completed.returncode}); see {log}")


def build(cache: Path) -> tuple[Path, Path]:
    """The bench program, as it is and with the CPU clock: built once, then taken from ``cache``."""
    source = ANCHORS / "klotski_bench.cc"
    if not source.is_file():
        raise Skip(f"no bench source at {source} (set HEURIST_ANCHORS to the anchors folder)")
    cache.mkdir(parents=True, exist_ok=True)
    log = cache / "build.log"
    wall_binary, cpu_binary = cache / "klotski_bench", cache / "klotski_bench_cpu"
    if wall_binary.exists() and cpu_binary.exists():
        return wall_binary, cpu_binary
    venv = cache / "V"
    python = venv / "bin" / "python"
    if not python.exists():
        step("creating the build environment", [sys.executable, "-m", "venv", str(venv)], cache, log)
    if not (venv / "bin" / "cmake").exists():
        step("installing ziglang and cmake (needs the network)",
             [str(python), "-m", "pip", "install", "--quiet", "ziglang", "cmake"], cache, log)
    for name, tool in (("zcc", "cc"), ("zcxx", "c++")):
        wrapper = cache / name
        wrapper.write_text(f'#!/bin/sh\nexec {python} -m ziglang {tool} "$@"\n')
        wrapper.chmod(0o755)
    sources = cache / PY_KLOTSKI
    if not sources.is_dir():
        step("downloading the py-klotski 0.0.2 sources (needs the network)",
             [str(python), "-m", "pip", "download", "--quiet", "py-klotski==0.0.2", "--no-deps",
              "--no-binary", "py-klotski"], cache, log)
        step("unpacking the sources", ["tar", "xzf", f"{PY_KLOTSKI}.tar.gz"], cache, log)
    build_dir = cache / "build"
    library = build_dir / "src" / "core" / "libklotski_core.a"
    environment = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    if not library.exists():
        build_dir.mkdir(exist_ok=True)
        step("configuring the C++ core", [
            str(venv / "bin" / "cmake"), str(sources), "-DKLSK_ENABLE_LTO=OFF", "-DKLSK_PYTHON_FFI=OFF",
            "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_C_COMPILER={cache / 'zcc'}",
            f"-DCMAKE_CXX_COMPILER={cache / 'zcxx'}", "-DCMAKE_CXX_FLAGS=-include cstdlib",
        ], build_dir, log, environment)
        step("building the C++ core", ["make", "-j2"], build_dir, log, environment)
    header = cache / "cpu_clock.h"
    header.write_text(CPU_CLOCK_HEADER)
    common = [str(cache / "zcxx"), "-std=c++23", "-O3", "-include", "cstdlib",
              "-I", str(sources / "src" / "core"), "-I", str(sources / "third_party" / "parallel-hashmap")]
    step("compiling the bench program", [*common, str(source), str(library), "-o", str(wall_binary)],
         cache, log, environment)
    step("compiling the bench program with the CPU clock",
         [*common, "-include", str(header), str(source), str(library), "-o", str(cpu_binary)],
         cache, log, environment)
    return wall_binary, cpu_binary


def run_bench(binary: Path) -> dict[str, tuple[int, float]]:
    """{'solve': (steps, seconds), 'build_all': (states, seconds)} from the bench program's output."""
    try:
        output = subprocess.run([str(binary)], capture_output=True, text=True, timeout=600, check=True).stdout
    except (OSError, subprocess.SubprocessError) as error:
        raise Skip(f"running {binary} failed ({error})") from None
    solve = re.search(r"classic solve: (\d+) steps in ([\d.]+) s", output)
    build_all = re.search(r"classic build_all .*?: (\d+) states in ([\d.]+) s", output)
    if not solve or not build_all:
        raise Skip(f"{binary} printed something unexpected:\n{output}")
    return {"solve": (int(solve.group(1)), float(solve.group(2))),
            "build_all": (int(build_all.group(1)), float(build_all.group(2)))}


def best_cpu(function, repeat: int = REPEAT):
    """(best CPU seconds of ``repeat`` runs, the last result)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.process_time()
        result = function()
        best = min(best, time.process_time() - started)
    return best, result


def cold_compile_seconds() -> float | None:
    """CPU seconds to compile every kernel from scratch, in a child process with an empty numba cache."""
    with tempfile.TemporaryDirectory() as scratch:
        code = ("import time; t = time.process_time(); import numba; "
                "from heurist.domains.klotski import compiled; s = compiled.warm_up(); print(s)")
        completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                   env=dict(os.environ, NUMBA_CACHE_DIR=scratch), timeout=600)
    with contextlib.suppress(ValueError):
        return float(completed.stdout.strip().splitlines()[-1])
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"build directory (default: {CACHE})")
    parser.add_argument("--cold", action="store_true",
                        help="also time compiling the kernels from scratch (a child process, empty numba cache)")
    args = parser.parse_args()
    print(machine(), flush=True)

    cpp: dict[str, tuple[int, float]] | None = None
    cpp_wall: dict[str, tuple[int, float]] | None = None
    try:
        wall_binary, cpu_binary = build(args.cache)
        cpp_wall, cpp = run_bench(wall_binary), run_bench(cpu_binary)
    except Skip as skip:
        print(f"klotski_cpp: the C++ side is skipped: {skip}")

    started = time.process_time()
    import numba  # noqa: F401  (timed on its own: paid once per process)

    import_seconds = time.process_time() - started
    from heurist.domains.klotski import compiled, load
    from heurist.search import search
    from heurist.search.space import build_state_space

    warm = compiled.warm_up()
    print(f"numba import {import_seconds:.3f} s CPU; kernels loaded from numba's disk cache (or compiled) "
          f"in {warm:.3f} s CPU; both paid once per process and left out below")
    if args.cold:
        cold = cold_compile_seconds()
        print(f"compiling every kernel from scratch (empty cache): "
              f"{'failed' if cold is None else f'{cold:.2f} s CPU'}")

    def solve(symmetry: bool, interpreted: bool = False):
        def run():
            problem = load(CLASSIC, metric="path", symmetry=symmetry)
            return search(problem, "bfs") if interpreted else compiled.breadth_first_search(problem)
        return run

    def distances(metric: str):
        problem = load(CLASSIC, metric=metric, symmetry=False)
        return lambda: build_state_space(problem, builder=compiled.klotski_compiled_space)

    rows = []
    for label, function, anchor, judged in (
        ("path-metric solve, compiled BFS, mirror reduction on (default)", solve(True), "solve", True),
        ("path-metric solve, compiled BFS, mirror reduction off", solve(False), "solve", True),
        ("path-metric solve, interpreted engine (what `heurist solve --algo bfs` runs), mirror reduction on",
         solve(True, interpreted=True), "solve", False),
        ("exact distances of the component, step metric (the latency row)", distances("step"), "build_all", True),
        ("exact distances of the component, path metric", distances("path"), "build_all", True),
    ):
        seconds, result = best_cpu(function)
        count = result.cost if anchor == "solve" else result.size
        rows.append((label, anchor, seconds, count, judged))

    print(f"\nClassic layout, best of {REPEAT}, CPU seconds; target: heurist within {TARGET_RATIO:g}x of the "
          "C++ core on each task\n")
    print("| task | C++ core CPU (s) | C++ core wall (s) | heurist CPU (s) | ratio | verdict |")
    print("|---|---:|---:|---:|---:|---|")
    for label, anchor, seconds, count, judged in rows:
        what = f"{count} moves" if anchor == "solve" else f"{count:,} states"
        if cpp is None or cpp_wall is None:
            print(f"| {label} ({what}) | - | - | {seconds:.4f} | - | C++ side skipped |")
            continue
        cpp_count, cpp_seconds = cpp[anchor]
        if cpp_count != count:
            print(f"| {label} | the C++ core reports {cpp_count:,}, heurist {count:,}: not the same task |")
            continue
        ratio = seconds / cpp_seconds
        verdict = "met" if ratio <= TARGET_RATIO else f"missed: {ratio / TARGET_RATIO:.2f}x the target"
        if not judged:
            verdict = "for reference"
        print(f"| {label} ({what}) | {cpp_seconds:.4f} | {cpp_wall[anchor][1]:.4f} | {seconds:.4f} "
              f"| {ratio:.1f}x | {verdict} |")
    print(f"\nload average at the end {', '.join(f'{value:.2f}' for value in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
