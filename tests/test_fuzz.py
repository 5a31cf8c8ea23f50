"""A bounded fuzz of the whole command line, and a validator that cannot be fooled.

The cases come from ``tests/fuzzing.py`` (shared with ``benchmarks/fuzz.py``,
which runs 20,000 of them): real course files with one mutation each, run
as subprocesses and judged by the oracle documented there. Here a fixed
list of cases (seed ``SEED``, indices ``0..CASES-1``) runs two at a time,
so the same cases run on every machine; every one must keep the promise.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzing  # noqa: E402
from heurist.cli.main import main  # noqa: E402

SEED = 14
CASES = 80
TIMEOUT = 20.0

@pytest.fixture(scope="session")
def solutions(tmp_path_factory):
    return fuzzing.make_solutions(tmp_path_factory.mktemp("fuzz-seeds"))


@pytest.fixture(scope="session")
def results(solutions, tmp_path_factory):
    """Every case of the fixed list, run two at a time."""
    base = tmp_path_factory.mktemp("fuzz-cases")
    cases = [fuzzing.make_case(SEED, index, solutions) for index in range(CASES)]
    for case in cases:
        case.timeout = TIMEOUT
    with ThreadPoolExecutor(2) as pool:
        return dict(zip(range(CASES), pool.map(lambda case: fuzzing.run_case(case, base), cases)))


@pytest.mark.parametrize("index", [pytest.param(index, id=f"{SEED}-{index}") for index in range(CASES)])
def test_fuzz_case_keeps_the_promise(results, index):
    result = results[index]
    assert not result.violations, result.report()


def test_the_cases_cover_every_command(solutions):
    cases = [fuzzing.make_case(SEED, index, solutions) for index in range(CASES)]
    commands = {case.argv[0] for case in cases}
    assert commands == set(fuzzing.COMMANDS)
    assert {case.culprit_kind for case in cases} >= {None, "file", "special", "option"}


# ----- the validator ------------------------------------------------------------------------------


def _json_seeds(solutions):
    return [seed for seed in solutions if seed.format == "json"]


@pytest.fixture(scope="module")
def json_seeds(solutions):
    return _json_seeds(solutions)


KINDS = ("swap", "delete", "duplicate", "change", "truncate")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 100), mutations=st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 2**32)),
                                                      min_size=0, max_size=3))
def test_validate_cannot_be_fooled(json_seeds, capsys, which, mutations):
    """A mutated plan is 'valid' exactly when a replay through the domain's successors finds it a solution."""
    seed = json_seeds[which % len(json_seeds)]
    domain, problem = fuzzing._load(seed.domain, seed.instance, seed.words)
    document = json.loads(seed.text)
    for kind, number in mutations:
        document = fuzzing.mutate_plan(document, domain, problem, random.Random(number), kind)
    if not mutations:
        document.pop("cost", None)
    expected, _ = fuzzing.replay_document(domain, problem, document)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "plan.json"
        path.write_text(json.dumps(document, indent=2))
        capsys.readouterr()
        status = main(["validate", seed.domain, str(seed.instance), str(path), *seed.words, "--no-optimality"])
    out = capsys.readouterr().out
    verdict = re.search(r"^verdict: (.*)$", out, re.M)
    assert verdict, out
    if expected is None:
        assert (status, verdict.group(1).startswith("valid")) == (0, True), out
    else:
        assert (status, verdict.group(1).startswith("INVALID")) == (1, True), (expected, out)
