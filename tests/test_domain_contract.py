"""The domain contract: what every registered domain promises through the ``Domain`` face.

Parametrized over ``heurist.domains.domain_names()``, so that a domain added
later (its own package, an entry point) is held to the same contract without
touching this file. Each domain is tried on a few of its course files (the
``COURSE`` table; a domain without an entry falls back to generated
instances) and on instances from its own generator, written to a temporary
directory. Everything domain-specific comes from the ``Domain`` object.

1. ``load`` -> ``write_instance`` -> ``load`` keeps the start, the goal test
   and the text;
2. every solution writer's output is read back by its reader (and by
   ``read_solution``'s detection) as a legal plan of the same cost, an
   unsolvable result as an "unsolvable" claim; states and actions round-trip
   through their text forms;
3. ``heurist validate`` accepts the plan of every algorithm in every format
   (``heurist solve``'s text and JSON, the course writers) and rejects a
   plan with a step taken out;
4. pictures show real states: the same with the search-only reductions off,
   and ``heurist render`` draws the real start;
5. ``heurist check --generated`` finds the default heuristic admissible;
6. malformed instance and solution files raise ``InputError`` naming file and line;
7. unknown options and values outside an option's choices are ``InputError``.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from heurist.cli.main import main
from heurist.domains import Domain, domain_names, get_domain, parse_words
from heurist.errors import InputError
from heurist.scene import to_svg
from heurist.search import ALGORITHMS, Limits, SearchResult, Status, search
from heurist.search.solutions import replay

DATA = Path(__file__).resolve().parents[1] / "data"

COURSE: dict[str, list[tuple[str, str]]] = {
    # domain: [(file under data/, instance options as command-line words)]
    "klotski": [
        ("hrd/w23_s24_char/testhrd_med1.txt", ""),  # V2 characters; its start is not its own mirror image
        ("hrd/f22_numeric/hrd_input0.txt", ""),  # V1 digits
        ("hrd/f24_w25_goal/easy1.txt", ""),  # V3 with a goal grid
    ],
    "blocksworld": [("blocksworld/probA03.bwp", ""), ("blocksworld/probA05.bwp", "")],
    "blokus": [  # as in heurist.domains.blokus.COURSE_COMMANDS
        ("blokus/tiny_set.txt", "--puzzle fill --board-size 4 7"),
        ("blokus/small_set.txt", '--board-size 6 6 --start 3 3 --targets "[(2,2), (5,5), (1,4)]"'),
    ],
}
"""A few course files per domain; a domain without an entry is tried on generated instances only."""

UNSOLVABLE: dict[str, list[tuple[str, str]]] = {
    "klotski": [("hrd/f24_w25_goal/easy2.txt", "")],
}
"""Course files whose instance has no solution."""

GENERATED = 2
SEED = 7
MAX_EXPANSIONS = 10_000
"""A cap on every search here: an algorithm that reaches it on an instance is skipped there."""

ALGORITHM_NAMES = list(ALGORITHMS)
DOMAIN_NAMES = domain_names()


# ----- instances ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One instance of one domain: its file and the options it is loaded with."""

    domain: Domain
    label: str
    path: Path
    words: tuple[str, ...] = ()

    @property
    def options(self) -> dict[str, Any]:
        return parse_words(self.domain.options, self.words, str(self.path))

    @property
    def real_options(self) -> dict[str, Any]:
        """The options with every search-only reduction switched off."""
        return {**self.options, **{o.name: False for o in self.domain.options if o.search_only}}

    def load(self, **extra: Any) -> Any:
        return self.domain.load(self.path, **{**self.options, **extra})


def _course_ids(name: str, table: dict[str, list[tuple[str, str]]] = COURSE) -> list[str]:
    return [f"{name}:course{index}" for index in range(len(table.get(name, [])))]


def _generated_ids(name: str) -> list[str]:
    return [f"{name}:generated{index}" for index in range(GENERATED)]


CASE_IDS = [case for name in DOMAIN_NAMES for case in _course_ids(name) + _generated_ids(name)]
"""Every instance: the course files, then the generated ones, of every domain."""

CLI_CASE_IDS = [(_course_ids(name) or _generated_ids(name))[0] for name in DOMAIN_NAMES] + [
    _generated_ids(name)[0] for name in DOMAIN_NAMES
]
"""One course file (else a generated instance) and one generated instance per domain, for the commands."""

_CASES: dict[str, Case] = {}
_PROBLEMS: dict[tuple[str, bool], Any] = {}
_RESULTS: dict[tuple[str, str], SearchResult] = {}


def get_case(case_id: str, factory: pytest.TempPathFactory) -> Case:
    """The instance ``DOMAIN:courseN``, ``DOMAIN:generatedN`` or ``DOMAIN:unsolvableN``."""
    if case_id in _CASES:
        return _CASES[case_id]
    name, label = case_id.split(":")
    domain = get_domain(name)
    if label.startswith("generated"):
        if not domain.can_generate:
            pytest.skip(f"the {name} domain has no instance generator")
        directory = factory.mktemp(f"generated-{name}")
        files = domain.generate(seed=SEED, count=GENERATED, **domain.small_instances)
        assert len(files) == GENERATED, f"{name}: generate(count={GENERATED}) gave {len(files)} files"
        for index, (file_name, text) in enumerate(files):
            path = directory / file_name
            path.write_text(text, encoding="utf-8")
            _CASES[f"{name}:generated{index}"] = Case(domain, f"generated{index}", path)
    else:
        table = UNSOLVABLE if label.startswith("unsolvable") else COURSE
        index = int(label.removeprefix("unsolvable").removeprefix("course"))
        file, words = table[name][index]
        _CASES[case_id] = Case(domain, label, DATA / file, tuple(shlex.split(words)))
    return _CASES[case_id]


def problem_of(case: Case, real: bool = False) -> Any:
    """The loaded instance (with the search-only reductions off when ``real``), loaded once."""
    key = (f"{case.domain.name}:{case.path}:{case.words}", real)
    if key not in _PROBLEMS:
        _PROBLEMS[key] = case.domain.load(case.path, **(case.real_options if real else case.options))
    return _PROBLEMS[key]


def heuristic_of(domain: Domain) -> Any:
    return domain.heuristics.resolve(domain.default_heuristic)


def solve(case: Case, algorithm: str = "astar") -> SearchResult:
    """The result of ``algorithm`` with the domain's default heuristic, capped at MAX_EXPANSIONS."""
    key = (f"{case.domain.name}:{case.path}:{case.words}", algorithm)
    if key not in _RESULTS:
        _RESULTS[key] = search(problem_of(case), algorithm, heuristic_of(case.domain),
                               limits=Limits(max_expansions=MAX_EXPANSIONS))
    return _RESULTS[key]


def solved(case: Case, algorithm: str = "astar") -> SearchResult:
    result = solve(case, algorithm)
    if result.status is Status.LIMIT_REACHED:
        pytest.skip(f"{algorithm} reached {MAX_EXPANSIONS} expansions on {case.path.name}")
    assert result.solved, f"{algorithm} found {case.path.name} unsolvable"
    return result


def context_of(case: Case) -> dict[str, Any]:
    """What course writers print besides the plan; every writer ignores what it does not use."""
    return {"heuristic": heuristic_of(case.domain), "source": str(case.path)}


def without_step(result: SearchResult, step: int) -> SearchResult:
    """The result with move ``step`` (1-based) and the state it led to taken out; the cost claimed unchanged."""
    return dataclasses.replace(
        result,
        actions=result.actions[:step - 1] + result.actions[step:],
        states=result.states[:step] + result.states[step + 1:],
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``heurist ARGV`` in this process: exit status, standard output, standard error."""
    capsys.readouterr()
    try:
        status = main(list(argv))
    except SystemExit as stop:  # argparse rejects bad words itself
        status = stop.code if isinstance(stop.code, int) else 2
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """``heurist solve`` colours its boards for a terminal; here its output must be the text format."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)


@pytest.fixture(params=CASE_IDS)
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    return get_case(request.param, tmp_path_factory)


@pytest.fixture(params=CLI_CASE_IDS)
def cli_case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    return get_case(request.param, tmp_path_factory)


def test_every_domain_is_tried_on_course_files_or_generated_instances():
    assert DOMAIN_NAMES, "no domain is registered"
    for name in DOMAIN_NAMES:
        domain = get_domain(name)
        assert domain.name == name
        assert name in COURSE or domain.can_generate, f"{name}: no course file and no generator to test with"
        for file, _ in COURSE.get(name, []) + UNSOLVABLE.get(name, []):
            assert (DATA / file).is_file(), file


# ----- 1. instances round-trip -------------------------------------------------------------------

def test_written_instance_loads_back_as_the_same_puzzle(case: Case, tmp_path: Path):
    domain = case.domain
    problem = problem_of(case)
    text = domain.write_instance(problem)
    copy = tmp_path / f"copy-{case.path.name}"
    copy.write_text(text, encoding="utf-8")
    search_only = {o.name: o.default for o in domain.options if o.search_only}
    reloaded = domain.load(copy, **search_only)  # everything else must be in the file itself

    assert reloaded.initial_state == problem.initial_state
    result = solve(case)
    states = list(result.states) if result.solved else [problem.initial_state]
    states += [child for _, child, _ in domain.plain(problem).successors(problem.initial_state)]
    for state in states:
        assert bool(reloaded.is_goal(state)) == bool(problem.is_goal(state)), domain.format_state(problem, state)
    if result.solved:
        assert reloaded.is_goal(result.states[-1])
    assert domain.write_instance(reloaded) == text


# ----- 2. solution formats in pairs --------------------------------------------------------------

def test_every_writer_is_read_back_by_its_reader(case: Case):
    domain = case.domain
    problem = problem_of(case)
    real = domain.plain(problem)
    result = solved(case)
    names = [fmt.name for fmt in domain.solution_formats]
    assert names[:2] == ["json", "text"] and len(set(names)) == len(names)
    for fmt in domain.solution_formats:
        text = fmt.write(problem, result, **context_of(case))
        for how, solution in [
            ("its reader", fmt.read(text, problem, str(case.path))),
            ("read_solution", domain.read_solution(text, problem, str(case.path))),
        ]:
            where = f"{fmt.name} format read by {how}"
            assert not solution.unsolvable, where
            replayed = replay(real, solution)
            assert replayed.starts_at_instance, where
            assert replayed.legal, f"{where}: step {replayed.illegal_step}: {replayed.reason}"
            assert replayed.ends_at_goal, where
            assert replayed.moves == len(result.actions), where
            assert replayed.cost == result.cost, where
            if solution.stated_cost is not None:
                assert solution.stated_cost == result.cost, where


def unsolvable_case_ids() -> list[str]:
    return [f"{name}:unsolvable{index}" for name in DOMAIN_NAMES for index in range(len(UNSOLVABLE.get(name, [])))]


@pytest.mark.parametrize("case_id", unsolvable_case_ids())
def test_an_unsolvable_course_file_is_written_and_read_as_unsolvable(case_id, tmp_path_factory, tmp_path, capsys):
    case = get_case(case_id, tmp_path_factory)
    domain = case.domain
    problem = problem_of(case)
    result = solve(case)
    assert result.status is Status.UNSOLVABLE
    for fmt in domain.solution_formats:
        text = fmt.write(problem, result, **context_of(case))
        assert fmt.read(text, problem, "claim").unsolvable, fmt.name
        assert domain.read_solution(text, problem, "claim").unsolvable, fmt.name
        claim = tmp_path / f"claim.{fmt.name}"
        claim.write_text(text, encoding="utf-8")
        status, out, _ = run(capsys, "validate", domain.name, str(case.path), str(claim), *case.words)
        assert status == 0, f"{fmt.name}: {out}"


@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_an_unsolvable_result_is_claimed_as_such_and_refuted_on_a_solvable_instance(
        name, tmp_path_factory, tmp_path, capsys):
    case = get_case((_course_ids(name) or _generated_ids(name))[0], tmp_path_factory)
    domain = case.domain
    problem = problem_of(case)
    solved(case)  # the instance has a plan, so a "no solution" claim is false
    nothing = SearchResult(Status.UNSOLVABLE, "astar")
    for fmt in domain.solution_formats:
        text = fmt.write(problem, nothing, **context_of(case))
        assert fmt.read(text, problem, "claim").unsolvable, fmt.name
        assert domain.read_solution(text, problem, "claim").unsolvable, fmt.name
        claim = tmp_path / f"claim.{fmt.name}"
        claim.write_text(text, encoding="utf-8")
        status, out, _ = run(capsys, "validate", name, str(case.path), str(claim), *case.words,
                             "--max-expansions", "100000")
        assert status == 1, f"{fmt.name}: {out}"


def test_states_and_actions_round_trip_through_their_text(case: Case):
    domain = case.domain
    problem = problem_of(case)
    result = solved(case)
    for state in result.states:
        text = domain.format_state(problem, state)
        assert text.strip()
        if domain.reads_states:
            assert domain.parse_state(problem, text.split("\n"), "state", 1) == state, text
    if not domain.reads_states:  # plans are read by their actions
        for action in result.actions:
            text = domain.format_action(problem, action)
            assert domain.parse_action(problem, text, "action", 1) == action, text


# ----- 3. heurist validate -----------------------------------------------------------------------

def solution_files(case: Case, algorithm: str, directory: Path, capsys) -> dict[str, Path]:
    """The plan of ``algorithm`` as ``heurist solve`` prints it (text, json) and as the course writers write it."""
    files = {}
    common = [case.domain.name, str(case.path), *case.words, "--algo", algorithm,
              "--max-expansions", str(MAX_EXPANSIONS)]
    for output in ("text", "json"):
        status, out, err = run(capsys, "solve", *common, "--format", output)
        if status == 3:
            pytest.skip(f"{algorithm} reached {MAX_EXPANSIONS} expansions on {case.path.name}")
        assert status == 0, err
        files[output] = directory / f"{algorithm}.{output}"
        files[output].write_text(out, encoding="utf-8")
    result = solved(case, algorithm)
    for fmt in case.domain.course_formats:
        files[fmt.name] = directory / f"{algorithm}.{fmt.name}"
        files[fmt.name].write_text(fmt.write(problem_of(case), result, **context_of(case)), encoding="utf-8")
    return files


@pytest.mark.parametrize("algorithm", ALGORITHM_NAMES)
def test_validate_accepts_every_algorithms_plan_in_every_format(cli_case: Case, algorithm, tmp_path, capsys):
    case = cli_case
    files = solution_files(case, algorithm, tmp_path, capsys)
    assert set(files) == {fmt.name for fmt in case.domain.solution_formats}
    for name, path in files.items():
        status, out, err = run(capsys, "validate", case.domain.name, str(case.path), str(path), *case.words,
                               "--no-optimality")
        assert status == 0, f"{name}: {out}{err}"
        assert "verdict: valid" in out
    if algorithm == "astar":  # the default heuristic is admissible: the plan is optimal
        status, out, err = run(capsys, "validate", case.domain.name, str(case.path), str(files["json"]),
                               *case.words, "--require-optimal", "--format", "json")
        assert status == 0, out + err
        assert json.loads(out)["verdict"] == "valid and optimal"


@pytest.mark.parametrize("corruption", ["middle step", "last step"])
def test_validate_rejects_a_plan_with_a_step_taken_out(cli_case: Case, corruption, tmp_path, capsys):
    """An optimal plan without one of its steps is illegal, misses the goal, or claims the wrong cost.

    The file itself is well formed, so the verdict is "invalid" (exit 1), not "unreadable" (exit 2).
    """
    case = cli_case
    problem = problem_of(case)
    result = solved(case)
    moves = len(result.actions)
    if moves == 0:
        pytest.skip("the start is a goal: no step to take out")
    broken = without_step(result, max(1, moves // 2) if corruption == "middle step" else moves)
    for fmt in case.domain.solution_formats:
        path = tmp_path / f"broken.{fmt.name}"
        path.write_text(fmt.write(problem, broken, **context_of(case)), encoding="utf-8")
        status, out, err = run(capsys, "validate", case.domain.name, str(case.path), str(path), *case.words,
                               "--no-optimality")
        assert status == 1, f"{fmt.name} without its {corruption}: exit {status}\n{out}{err}"


# ----- 4. pictures show real states --------------------------------------------------------------

def test_pictures_are_the_same_with_search_only_reductions_off(case: Case):
    domain = case.domain
    problem = problem_of(case)
    real = problem_of(case, real=True)
    result = solved(case)
    assert replay(domain.plain(problem), _states_solution(result)).legal
    for index in range(len(result.states)):
        picture = to_svg(domain.draw(problem, result.states, index))
        assert picture == to_svg(domain.draw(real, result.states, index)), f"state {index}"
        assert picture == to_svg(domain.draw(domain.plain(problem), result.states, index)), f"state {index}"


def _states_solution(result: SearchResult):
    from heurist.search.solutions import Solution

    return Solution("plan", "states", states=list(result.states), lines=list(range(len(result.states))))


def test_render_draws_the_real_start(cli_case: Case, tmp_path, capsys):
    case = cli_case
    domain = case.domain
    out = tmp_path / "start.svg"
    status, _, err = run(capsys, "render", domain.name, str(case.path), *case.words, "--out", str(out))
    assert status == 0, err
    real = domain.plain(problem_of(case))
    assert out.read_text(encoding="utf-8") == to_svg(domain.draw(real, [real.initial_state]))
    assert real.initial_state == problem_of(case, real=True).initial_state


# ----- 5. heurist check --------------------------------------------------------------------------

@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_check_finds_the_default_heuristic_admissible_on_generated_instances(name, capsys):
    domain = get_domain(name)
    if not domain.can_generate:
        pytest.skip(f"the {name} domain has no instance generator")
    status, out, err = run(capsys, "check", name, "--generated", str(GENERATED), "--seed", str(SEED),
                           "-H", domain.default_heuristic, "--format", "json")
    assert status == 0, out + err
    report = json.loads(out)
    assert report["holds"] is True and report["violated"] == []
    assert len(report["instances"]) == GENERATED
    for instance in report["instances"]:
        assert "skipped" not in instance, instance
        assert instance["holds"]["admissible"] is True
        assert instance["states"] >= 1


# ----- 6. bad input names file and line ----------------------------------------------------------

@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_a_malformed_instance_file_is_an_input_error_with_its_line(name, tmp_path, capsys):
    domain = get_domain(name)
    path = tmp_path / "garbage.txt"
    path.write_text("@@@ not a puzzle @@@\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        domain.load(path)
    assert caught.value.source == str(path)
    assert caught.value.line == 1
    status, _, err = run(capsys, "solve", name, str(path))
    assert status == 2
    assert err.startswith(f"heurist: {path}:1: ")


def test_a_malformed_solution_file_is_an_input_error_with_its_line(case: Case):
    domain = case.domain
    problem = problem_of(case)
    result = solved(case)
    text = domain.write_solution(problem, result, "text")
    cut_at = next(index for index, line in enumerate(text.split("\n")) if line.startswith("move 1: ")) \
        if result.actions else None
    samples = {"garbage": "@@@ not a solution @@@\n", "empty": "", "blank": "\n\n"}
    if cut_at is not None:  # the text output cut off in the middle of the line of its first move
        lines = text.split("\n")
        samples["truncated"] = "\n".join(lines[:cut_at] + [lines[cut_at][:len("move 1: ") + 3]])
    for what, sample in samples.items():
        with pytest.raises(InputError) as caught:
            domain.read_solution(sample, problem, "plan.txt")
        assert caught.value.source == "plan.txt", what
        assert isinstance(caught.value.line, int) and caught.value.line >= 1, what
        if what == "truncated":
            assert caught.value.line in (cut_at, cut_at + 1), f"truncated at line {cut_at + 1}: {caught.value}"


# ----- 7. options --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_an_unknown_option_is_an_input_error_naming_it(name, tmp_path_factory):
    case = get_case((_course_ids(name) or _generated_ids(name))[0], tmp_path_factory)
    with pytest.raises(InputError) as caught:
        case.domain.load(case.path, bogus_option=1)
    assert "bogus_option" in str(caught.value)
    assert caught.value.source == str(case.path)
    if case.domain.can_generate:
        with pytest.raises(InputError, match="bogus_option"):
            case.domain.generate(seed=1, count=1, bogus_option=1)


def choice_options() -> list[tuple[str, str]]:
    return [(name, option.name) for name in DOMAIN_NAMES for option in get_domain(name).options if option.choices]


@pytest.mark.parametrize(("name", "option"), choice_options())
def test_an_option_with_choices_rejects_another_value(name, option, tmp_path_factory):
    case = get_case((_course_ids(name) or _generated_ids(name))[0], tmp_path_factory)
    declared = next(o for o in case.domain.options if o.name == option)
    with pytest.raises(InputError) as caught:
        case.load(**{option: "no-such-choice"})
    message = str(caught.value)
    assert declared.flag in message and "no-such-choice" in message
    assert all(choice in message for choice in declared.choices), message
    assert caught.value.source == str(case.path)


@pytest.mark.parametrize(("name", "option"), [
    (name, option.name) for name in DOMAIN_NAMES for option in get_domain(name).options if option.nargs == 0
])
def test_a_switch_option_takes_true_or_false_only(name, option, tmp_path_factory):
    case = get_case((_course_ids(name) or _generated_ids(name))[0], tmp_path_factory)
    with pytest.raises(InputError, match=option.replace("_", "-")):
        case.load(**{option: "yes"})


def test_every_domain_s_problem_prints_readably():
    from heurist.domains import all_domains

    examples = {"klotski": ("data/hrd/w23_s24_char/testhrd_easy1.txt", {}),
                "blocksworld": ("data/blocksworld/probA05.bwp", {}),
                "tiles": ("data/tiles/aima-26.txt", {}),
                "blokus": ("small_set.txt", {"board_size": (6, 6)})}
    root = Path(__file__).resolve().parents[1]
    for domain in all_domains():
        if domain.name not in examples:
            continue
        path, options = examples[domain.name]
        problem = domain.load(root / path if "/" in path else path, **options)
        assert " object at 0x" not in repr(problem), repr(problem)
