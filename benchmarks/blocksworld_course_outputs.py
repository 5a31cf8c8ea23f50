"""Blocks World: are the course command's outputs unchanged since an earlier commit?

Runs ``heurist blocksworld FILE -H HEURISTIC`` on every course problem
(data/blocksworld/probA*, probB*) twice, once with the sources of REVISION
(exported with ``git archive`` into a temporary directory) and once with the
working tree, and compares standard output, standard error and exit status
byte for byte, ignoring only lines that report times or memory. Prints one
line per run that differs (with a diff) and a summary; exits 1 if any differ.

    .venv/bin/python benchmarks/blocksworld_course_outputs.py --against HEAD~3
    .venv/bin/python benchmarks/blocksworld_course_outputs.py --against main --heuristics deadlock prefix h6
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "blocksworld"
RUN = "import sys; from heurist.cli.main import main; sys.exit(main())"
TIMING = re.compile(r"\b(time|seconds|memory|MiB)\b", re.IGNORECASE)


def export_sources(revision: str, into: Path) -> Path:
    """Write ``src/`` as it was at ``revision`` under ``into``; return the new ``src`` directory."""
    archive = subprocess.run(["git", "archive", revision, "src"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def run(sources: Path, arguments: list[str]) -> tuple[int, str]:
    environment = dict(os.environ, PYTHONPATH=str(sources))
    done = subprocess.run([sys.executable, "-c", RUN, *arguments], cwd=ROOT, env=environment, capture_output=True)
    text = done.stdout.decode() + "\n--- stderr ---\n" + done.stderr.decode()
    kept = [line for line in text.splitlines() if not TIMING.search(line)]
    return done.returncode, "\n".join(kept)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="git revision to compare with (default: HEAD)")
    parser.add_argument("--heuristics", nargs="+", default=["deadlock"], help="values for -H (default: deadlock)")
    parser.add_argument("--max-iters", type=int, help="passed as -MAX_ITERS (default: the command's own)")
    args = parser.parse_args()
    files = sorted(DATA.glob("probA*.bwp")) + sorted(DATA.glob("probB*.bwp"))
    differing = 0
    with tempfile.TemporaryDirectory() as temporary:
        old_sources = export_sources(args.against, Path(temporary))
        for heuristic in args.heuristics:
            for path in files:
                arguments = ["blocksworld", str(path.relative_to(ROOT)), "-H", heuristic]
                if args.max_iters is not None:
                    arguments += ["-MAX_ITERS", str(args.max_iters)]
                old, new = run(old_sources, arguments), run(ROOT / "src", arguments)
                if old != new:
                    differing += 1
                    print(f"DIFFERS: heurist {' '.join(arguments)} (exit {old[0]} -> {new[0]})")
                    sys.stdout.writelines(
                        line + "\n"
                        for line in difflib.unified_diff(old[1].splitlines(), new[1].splitlines(), "old", "new", lineterm="")
                    )
    print(f"{len(files) * len(args.heuristics) - differing} of {len(files) * len(args.heuristics)} outputs identical "
          f"to {args.against} (time and memory lines ignored)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
