"""A domain from a package of its own: installed with pip, found through the ``heurist.domains`` entry points.

The package below is all a third party writes: a :class:`~heurist.domains.Domain`
subclass and one entry-point line. ``heurist solve``, ``validate`` and
``render`` then work on it without any change to heurist.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

PYPROJECT = """
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "heurist-counter-domain"
version = "0.1"

[project.entry-points."heurist.domains"]
counter = "counter_domain:DOMAIN"
"""

PACKAGE = '''
"""Counter: reach the number in the file from 0 with +1 (cost 1) and *2 (cost 3)."""

from heurist.domains import Domain, Option, ShowsItself
from heurist.errors import InputError, read_text
from heurist.scene import Scene, Text
from heurist.search import HeuristicRegistry

HEURISTICS = HeuristicRegistry("counter")


@HEURISTICS.register("zero")
def zero(state, problem):
    """Admissible: no cost is negative."""
    return 0


class CounterProblem(ShowsItself):
    domain_name = "counter"

    def __init__(self, goal, doubling_cost):
        self.goal, self.doubling_cost, self.initial_state = goal, doubling_cost, 0

    def is_goal(self, state):
        return state == self.goal

    def successors(self, state):
        if state < self.goal:
            yield "+1", state + 1, 1
        if 0 < state <= self.goal // 2:
            yield "*2", state * 2, self.doubling_cost


class CounterDomain(Domain):
    name = "counter"
    summary = "count from 0 to N with +1 and *2"
    heuristics = HEURISTICS
    default_heuristic = "zero"
    options = (Option("doubling_cost", "what *2 costs (default: 3)", type=int, default=3),)

    def load(self, path, **options):
        values = self.check_options(options, str(path))
        text = read_text(path).strip()
        if not text.isdigit():
            raise InputError("expected a whole number", path, 1)
        return CounterProblem(int(text), values["doubling_cost"])

    def write_instance(self, problem):
        return f"{problem.goal}\\n"

    def format_state(self, problem, state):
        return str(state)

    def parse_state(self, problem, lines, source, line):
        if len(lines) != 1 or not lines[0].strip().isdigit():
            raise InputError("expected one number", source, line)
        return int(lines[0])

    def draw(self, problem, states, index=-1, *, flip=False):
        scene = Scene(120, 40)
        scene.add(Text(60, 20, str(states[index])))
        return scene


DOMAIN = CounterDomain()
'''


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """The package installed with pip into a directory of its own; the environment that sees it."""
    root = tmp_path_factory.mktemp("plugin")
    (root / "pkg" / "counter_domain").mkdir(parents=True)
    (root / "pkg" / "pyproject.toml").write_text(PYPROJECT)
    (root / "pkg" / "counter_domain" / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
               "--no-index", "--target", str(root / "site"), str(root / "pkg")]
    completed = subprocess.run(install, capture_output=True, text=True)
    if completed.returncode != 0:
        pytest.skip(f"pip could not build the package here: {completed.stderr.strip()[-300:]}")
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root / "site"), environment.get("PYTHONPATH")]))
    return environment


def heurist(environment: dict[str, str], *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "heurist.cli.main", *arguments], capture_output=True, text=True,
                          env=environment)


def test_an_installed_domain_is_solved_validated_and_drawn(installed, tmp_path):
    instance = tmp_path / "ten.txt"
    instance.write_text("10\n")
    solved = heurist(installed, "solve", "counter", str(instance), "--algo", "ucs", "--doubling-cost", "1")
    assert solved.returncode == 0, solved.stderr
    assert "cost: 5" in solved.stdout  # 0, 1, 2, 4, 5, 10: five moves of cost 1
    plan = tmp_path / "plan.txt"
    plan.write_text(solved.stdout)
    checked = heurist(installed, "validate", "counter", str(instance), str(plan), "--doubling-cost", "1")
    assert checked.returncode == 0 and "verdict: valid and optimal" in checked.stdout, checked.stdout
    picture = tmp_path / "end.svg"
    drawn = heurist(installed, "render", "counter", str(instance), "--plan", str(plan), "--doubling-cost", "1",
                    "--out", str(picture))
    assert drawn.returncode == 0, drawn.stderr
    assert ">10</text>" in picture.read_text()


def test_an_installed_domain_reports_bad_input_in_one_line(installed, tmp_path):
    instance = tmp_path / "bad.txt"
    instance.write_text("ten\n")
    failed = heurist(installed, "solve", "counter", str(instance))
    assert failed.returncode == 2
    assert failed.stderr.strip() == f"heurist: {instance}:1: expected a whole number"


def test_without_the_package_the_domain_is_unknown(tmp_path):
    instance = tmp_path / "ten.txt"
    instance.write_text("10\n")
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    completed = heurist(environment, "solve", "counter", str(instance))
    assert completed.returncode == 2 and "invalid choice: 'counter'" in completed.stderr
