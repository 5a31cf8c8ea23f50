"""The PDDL export of Blocks World: its content, and the same optimum from a real planner.

The planner check runs with the planners of the ``planners`` extra
(``pip install 'heurist[planners]'``, which ``make test`` installs) and is
skipped when neither is installed. HEURIST_FAST_DOWNWARD (a command running
``fast-downward.py``) or HEURIST_PYPERPLAN (a ``pyperplan`` command) point it
at other installations.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from heurist.bench.planners import fast_downward_script
from heurist.domains.blocksworld import BlocksWorld, load_bwp
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.domains.blocksworld.pddl import DOMAIN_PDDL, export_pddl, problem_pddl
from heurist.search import search

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld"


def facts(text: str, section: str) -> set[str]:
    body = text.split(f"(:{section}", 1)[1]
    return set(re.findall(r"\((?:on|clear|diff) [^()]*\)", body.split("(:", 1)[0]))


def test_problem_lists_every_support_and_every_clear_top():
    p = BlocksWorld(("CE", "", "AB"), ("", "ABCE", ""), name="tiny")
    text = problem_pddl(p)
    assert "(:objects a b c e - block\n            s0 s1 s2 - slot)" in text
    init = facts(text, "init")
    assert {f for f in init if f.startswith("(on")} == {"(on c s0)", "(on e c)", "(on a s2)", "(on b a)"}
    assert {f for f in init if f.startswith("(clear")} == {"(clear e)", "(clear s1)", "(clear b)"}
    assert len([f for f in init if f.startswith("(diff")]) == 4 * 3
    assert facts(text, "goal") == {"(on a s1)", "(on b a)", "(on c b)", "(on e c)"}


def test_domain_is_plain_strips_with_typing():
    assert "(:requirements :strips :typing)" in DOMAIN_PDDL
    assert "=" not in DOMAIN_PDDL and "(not (clear ?b))" not in DOMAIN_PDDL.split(":effect")[0]


def test_export_names_the_problem_after_the_file():
    files = export_pddl(DATA / "probB20.bwp")
    assert list(files) == ["domain.pddl", "probB20.pddl"]
    assert files["probB20.pddl"].startswith("(define (problem probB20)")


def planner_commands() -> list[tuple[str, list[str]]]:
    """The planners to compare with: from the environment, else the installed ``planners`` extra."""
    commands = []
    fast_downward = os.environ.get("HEURIST_FAST_DOWNWARD")
    if fast_downward:
        commands.append(("fast-downward", shlex.split(fast_downward)))
    elif fast_downward_script() is not None:
        commands.append(("fast-downward", [sys.executable, str(fast_downward_script())]))
    pyperplan = os.environ.get("HEURIST_PYPERPLAN")
    if pyperplan:
        commands.append(("pyperplan", shlex.split(pyperplan)))
    elif importlib.util.find_spec("pyperplan") is not None:
        commands.append(("pyperplan", [sys.executable, "-m", "pyperplan"]))
    return commands


def planner_cost(kind: str, command: list[str], directory: Path, problem_file: str) -> int:
    """Run a planner optimally on domain.pddl + ``problem_file``; return its plan's length."""
    if kind == "fast-downward":
        arguments = ["--plan-file", "plan.txt", "domain.pddl", problem_file, "--search", "astar(lmcut())"]
        plan = directory / "plan.txt"
    else:
        arguments = ["-s", "astar", "-H", "lmcut", "domain.pddl", problem_file]
        plan = directory / f"{problem_file}.soln"
    done = subprocess.run(
        command + arguments, cwd=directory, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return sum(1 for line in plan.read_text().splitlines() if line.strip().startswith("("))


@pytest.mark.parametrize("name", ["probA05", "probA11", "probB04", "probB06"])
def test_a_planner_finds_the_same_optimal_cost(tmp_path, name):
    commands = planner_commands()
    if not commands:
        pytest.skip("no planner installed: pip install 'heurist[planners]'")
    for file_name, text in export_pddl(DATA / f"{name}.bwp").items():
        (tmp_path / file_name).write_text(text)
    problem = load_bwp(DATA / f"{name}.bwp")
    ours = search(problem, "astar", HEURISTICS["deadlock"]).cost
    for kind, command in commands:
        run_directory = tmp_path / kind
        run_directory.mkdir()
        for file_name in ("domain.pddl", f"{name}.pddl"):
            shutil.copy(tmp_path / file_name, run_directory / file_name)
        assert planner_cost(kind, command, run_directory, f"{name}.pddl") == ours, kind
