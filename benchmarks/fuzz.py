"""Fuzz heurist's command line with mutated course files and write the counts to docs/reliability.md.

    python benchmarks/fuzz.py --cases 20000 --seed 1 --jobs 2

Each case is one command line built by ``tests/fuzzing.py`` (``make_case(seed, i)``
for i in 0..N-1: a command, real course files with one mutation, output
paths in a fresh temporary directory), run as a subprocess and judged by
the oracle described there. The table counts cases by command, input
format and outcome; every case outside the promise is listed with its
command line in ``--failures`` (default: fuzz-failures.txt), and
``--write`` puts the table into docs/reliability.md between the
``<!-- fuzz table -->`` markers.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fuzzing  # noqa: E402

REPORT = fuzzing.ROOT / "docs" / "reliability.md"
BEGIN, END = "<!-- fuzz table -->", "<!-- end fuzz table -->"

_SOLUTIONS: list = []
_BASE: Path | None = None


def _init(solutions: list, base: str) -> None:
    global _SOLUTIONS, _BASE
    _SOLUTIONS, _BASE = solutions, Path(base)


def _run(args: tuple[int, int]) -> tuple:
    seed, index = args
    case = fuzzing.make_case(seed, index, _SOLUTIONS)
    result = fuzzing.run_case(case, _BASE)
    return (case.command, case.format, result.outcome, result.violations, round(result.seconds, 2),
            result.report() if result.violations else "")


def table(counts: collections.Counter, cases: int, seed: int, seconds: float, jobs: int) -> str:
    outcomes = [*fuzzing.OK_STATUSES.values(), *fuzzing.VIOLATIONS]
    used = [o for o in outcomes if any(key[2] == o for key in counts)]
    rows = sorted({key[:2] for key in counts})
    lines = [f"{cases} cases, seed {seed}, {jobs} jobs, {seconds:.0f} s wall-clock "
             f"({seconds / max(cases, 1) * 1000:.0f} ms a case).", "",
             "| command | format | " + " | ".join(used) + " |",
             "|---|---|" + "---:|" * len(used)]
    for command, fmt in rows:
        cells = [str(counts.get((command, fmt, o), "")) for o in used]
        lines.append(f"| {command} | {fmt} | " + " | ".join(cells) + " |")
    totals = [str(sum(n for key, n in counts.items() if key[2] == o)) for o in used]
    lines.append("| **total** | | " + " | ".join(totals) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--failures", default="fuzz-failures.txt", help="where to list the cases outside the promise")
    parser.add_argument("--write", action="store_true", help="put the table into docs/reliability.md")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="heurist-fuzz-"))
    solutions = fuzzing.make_solutions(base / "seeds")
    counts: collections.Counter = collections.Counter()
    failures = []
    started = time.monotonic()
    with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(solutions, str(base))) as pool:
        work = [(args.seed, i) for i in range(args.cases)]
        for done, (command, fmt, outcome, violations, _, report) in enumerate(pool.map(_run, work, chunksize=4), 1):
            counts[command, fmt, outcome] += 1
            if violations:
                failures.append(report)
            if done % 100 == 0:
                print(f"{done}/{args.cases} cases, {len(failures)} outside the promise, "
                      f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    seconds = time.monotonic() - started
    text = table(counts, args.cases, args.seed, seconds, args.jobs)
    print(text)
    Path(args.failures).write_text("\n".join(failures) + "\n")
    print(f"{len(failures)} cases outside the promise, listed in {args.failures}", file=sys.stderr)
    if args.write:
        report = REPORT.read_text()
        head, rest = report.split(BEGIN, 1)
        report = head + BEGIN + "\n" + text + "\n" + END + rest.split(END, 1)[1]
        REPORT.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
