"""The library's face: the package carries its data, solution files say which instance they solve,
domains declare their suites, and the Python API explains itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from heurist.bench.suites import all_suites, suite_instances
from heurist.cli.main import main
from heurist.domains import all_domains, get_domain, parse_words
from heurist.domains.formats import RECORD_PREFIX, InstanceRecord, instance_record, read_record
from heurist.domains.suites import course_data_directory

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
MED2 = str(DATA / "hrd/w23_s24_char/testhrd_med2.txt")
MED1 = str(DATA / "hrd/w23_s24_char/testhrd_med1.txt")
COVER_6X6 = ["--board-size", "6", "6", "--start", "3", "3", "--targets", "[(2,2), (5,5), (1,4)]"]


def run(capsys, *words: str) -> tuple[int, str, str]:
    status = main(list(words))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# ----- the package carries its data -------------------------------------------------------------

def test_the_course_data_ships_inside_the_package():
    data = course_data_directory()
    assert data.parent.name == "heurist" and (data / "hrd/w23_s24_char/testhrd_hard1.txt").is_file()
    assert DATA.resolve() == data.resolve()  # the checkout's data/ is the same files


def test_suites_are_read_from_the_package_by_default():
    counts = {name: len(suite_instances(name)) for name in all_suites()}
    assert counts["hrd-v2"] == 7 and counts["bw-challenge"] == 45 and counts["blokus-course"] == 10


def test_every_suite_is_declared_by_its_domain():
    declared = {suite.name: domain.name for domain in all_domains() for suite in domain.suites}
    assert declared == {name: suite.domain for name, suite in all_suites().items()}


def test_data_copy_gives_the_files_the_examples_name(tmp_path, capsys):
    target = tmp_path / "data"
    status, out, _ = run(capsys, "data", "--copy", str(target))
    assert status == 0 and out.startswith("copied ")
    copied = target / "hrd/w23_s24_char/testhrd_hard1.txt"
    assert copied.read_bytes() == (DATA / "hrd/w23_s24_char/testhrd_hard1.txt").read_bytes()
    status, _, err = run(capsys, "data", "--copy", str(target))
    assert status == 2 and "not empty" in err


def test_data_copy_refuses_a_link(tmp_path, capsys):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    status, _, err = run(capsys, "data", "--copy", str(tmp_path / "link"))
    assert status == 2 and "not a directory" in err and not any((tmp_path / "elsewhere").iterdir())


# ----- solution files say which instance they solve ---------------------------------------------

def _solve(capsys, tmp_path: Path, name: str, *words: str) -> Path:
    status, out, _ = run(capsys, "solve", *words)
    assert status == 0
    path = tmp_path / name
    path.write_text(out)
    return path


@pytest.mark.parametrize("format", ["json", "text"])
def test_validate_uses_the_recorded_options(format, tmp_path, capsys):
    plan = _solve(capsys, tmp_path, f"k.{format}", "klotski", MED2, "--metric", "slide", "--format", format)
    status, out, _ = run(capsys, "validate", "klotski", MED2, str(plan))
    assert status == 0 and "valid and optimal" in out and "cost: 42" in out
    status, _, _ = run(capsys, "validate", "klotski", MED2, str(plan), "--metric", "slide")
    assert status == 0


@pytest.mark.parametrize("format", ["json", "text"])
def test_conflicting_options_and_another_instance_are_refused(format, tmp_path, capsys):
    plan = _solve(capsys, tmp_path, f"k.{format}", "klotski", MED2, "--metric", "slide", "--format", format)
    status, out, err = run(capsys, "validate", "klotski", MED2, str(plan), "--metric", "path")
    assert status == 2 and not out
    assert err.count("\n") == 1 and "written for --metric slide, not --metric path" in err
    status, _, err = run(capsys, "validate", "klotski", MED1, str(plan))
    assert status == 2 and "another instance's solution" in err and "testhrd_med2.txt" in err
    status, _, err = run(capsys, "render", "klotski", MED1, "--plan", str(plan), "--out", str(tmp_path / "x.svg"))
    assert status == 2 and "another instance's solution" in err and not (tmp_path / "x.svg").exists()


def test_another_domains_solution_is_refused(tmp_path, capsys):
    plan = _solve(capsys, tmp_path, "t.txt", "tiles", str(DATA / "tiles/aima-26.txt"))
    status, _, err = run(capsys, "validate", "klotski", MED2, str(plan))
    assert status == 2 and "a tiles solution, not a klotski one" in err


def test_a_blokus_plan_is_judged_on_the_board_it_was_made_for(tmp_path, capsys):
    plan = _solve(capsys, tmp_path, "b.json", "blokus", "small_set.txt", *COVER_6X6, "--format", "json")
    status, out, _ = run(capsys, "validate", "blokus", "small_set.txt", str(plan))
    assert status == 0 and "valid and optimal" in out
    status, _, err = run(capsys, "validate", "blokus", "small_set.txt", str(plan), "--board-size", "20", "20")
    assert status == 2 and "written for --board-size 6 6" in err
    status, _, _ = run(capsys, "render", "blokus", "small_set.txt", "--plan", str(plan), "--out",
                       str(tmp_path / "b.svg"))
    assert status == 0 and "<svg" in (tmp_path / "b.svg").read_text()


def test_the_record_is_the_text_formats_first_line_and_the_json_keys(tmp_path, capsys):
    text = _solve(capsys, tmp_path, "k.txt", "klotski", MED2, "--metric", "slide").read_text()
    document = json.loads(_solve(capsys, tmp_path, "k.json", "klotski", MED2, "--metric", "slide",
                                 "--format", "json").read_text())
    first = text.splitlines()[0]
    assert first.startswith(RECORD_PREFIX)
    header = json.loads(first[len(RECORD_PREFIX):])
    assert {key: document[key] for key in header} == header
    assert header["options"] == ["--metric", "slide"] and header["instance_hash"].startswith("sha256:")
    assert read_record(text, "k.txt") == read_record(json.dumps(document), "k.json")


def test_a_reformatted_copy_of_the_instance_matches(tmp_path, capsys):
    plan = _solve(capsys, tmp_path, "k.txt", "klotski", MED2)
    copy = tmp_path / "copy.txt"
    copy.write_text("\n" + Path(MED2).read_text().replace("\n", "\r\n"))
    status, _, _ = run(capsys, "validate", "klotski", str(copy), str(plan))
    assert status == 0


@pytest.mark.parametrize("header", [
    RECORD_PREFIX + "[1, 2]", RECORD_PREFIX + "{not json", RECORD_PREFIX + '{"domain": 7}',
    RECORD_PREFIX + '{"domain": "klotski", "options": [1]}',
    RECORD_PREFIX + '{"domain": "klotski", "options": ["--no-such-option"]}',
])
def test_a_damaged_record_is_bad_input(header, tmp_path, capsys):
    plan = _solve(capsys, tmp_path, "k.txt", "klotski", MED2)
    damaged = tmp_path / "damaged.txt"
    damaged.write_text(header + "\n" + plan.read_text().split("\n", 1)[1])
    status, out, err = run(capsys, "validate", "klotski", MED2, str(damaged))
    assert status == 2 and not out and err.startswith(f"heurist: {damaged}:1: ") and err.count("\n") == 1


def test_every_option_value_survives_the_round_trip_through_words():
    cases = {
        "klotski": {"metric": "slide", "symmetry": False},
        "blokus": {"puzzle": "cover", "board_size": (6, 6), "start": (3, 3), "targets": ((2, 2), (5, 5)),
                   "legacy_board": True},
    }
    for name, values in cases.items():
        domain = get_domain(name)
        by_name = {option.name: option for option in domain.options}
        words = [word for option, value in values.items() for word in by_name[option].words(value)]
        assert parse_words(domain.options, words) == {key: by_name[key].check(value) for key, value in values.items()}


def test_the_api_writes_a_record_too():
    domain = get_domain("tiles")
    problem = domain.load(DATA / "tiles/aima-26.txt")
    from heurist.search import search

    result = search(problem, "astar", domain.heuristics["manhattan"])
    record = read_record(domain.write_solution(problem, result, "text"), "plan.txt")
    assert record == instance_record(domain, problem)
    assert isinstance(record, InstanceRecord) and record.domain == "tiles"


# ----- the Python API ---------------------------------------------------------------------------

def test_search_takes_heuristics_and_algorithms_by_name_or_function():
    import heurist
    from heurist.search import astar_search, search

    problem = heurist.load("tiles", DATA / "tiles/aima-26.txt")
    by_name = search(problem, "astar", "manhattan")
    by_function = search(problem, astar_search, problem.heuristics["manhattan"])
    assert (by_name.cost, by_name.statistics.expansions) == (by_function.cost, by_function.statistics.expansions)
    assert by_function.algorithm == "astar"
    default = search(problem, "astar")
    named_default = search(problem, "astar", problem.default_heuristic)
    assert default.statistics.expansions == named_default.statistics.expansions
    assert problem.default_heuristic == get_domain("tiles").default_heuristic != "zero"
    with pytest.raises(ValueError, match="unknown heuristic 'nope' for tiles"):
        search(problem, "astar", "nope")
    with pytest.raises(ValueError, match="unknown algorithm"):
        search(problem, "nope")


def test_a_result_draws_its_plan():
    import heurist
    from heurist.search import search

    problem = heurist.load("klotski", DATA / "hrd/w23_s24_char/testhrd_easy1.txt")
    result = search(problem, "astar", "manhattan")
    pictures = result.pictures()
    assert len(pictures) == len(result.states) == len(result.actions) + 1
    assert pictures[0].svg() == problem.picture().svg()  # the start, drawn as the problem draws itself
    assert result._repr_svg_() == pictures[-1].svg() != pictures[0].svg()
    assert repr(result).startswith("<SearchResult astar: solved, cost 1, 1 move,")


def test_load_by_name_is_the_domains_load():
    import heurist

    path = DATA / "hrd/w23_s24_char/testhrd_med2.txt"
    by_name = heurist.load("klotski", path, metric="slide")
    assert repr(by_name) == repr(get_domain("klotski").load(path, metric="slide"))
    with pytest.raises(ValueError, match="unknown domain 'chess'"):
        heurist.load("chess", path)


# ----- the domain contract ----------------------------------------------------------------------

def _complete_members() -> dict:
    from heurist.search import HeuristicRegistry

    return {
        "name": "toy", "summary": "a toy", "heuristics": HeuristicRegistry("toy"),
        "load": lambda self, path, **options: None, "write_instance": lambda self, problem: "",
        "format_state": lambda self, problem, state: str(state),
        "parse_state": lambda self, problem, lines, source, line: lines[0],
        "draw": lambda self, problem, states, index=-1, *, flip=False: None,
    }


def test_a_complete_domain_is_accepted_with_its_capabilities():
    from heurist.domains import Domain

    toy = type("ToyDomain", (Domain,), _complete_members())()
    assert toy.reads_states and not toy.can_generate and not toy.exports_pddl


@pytest.mark.parametrize("missing, message", [
    ("load", "abstract"), ("draw", "abstract"), ("format_state", "abstract"),
    ("name", "lacks name"), ("heuristics", "lacks heuristics"),
    ("parse_state", "lacks parse_state or parse_action"),
])
def test_an_incomplete_domain_fails_when_it_is_defined(missing, message):
    from heurist.domains import Domain
    from heurist.domains.base import DomainContractError

    members = _complete_members()
    del members[missing]
    if message == "abstract":  # Python's own check, when the class is instantiated
        with pytest.raises(TypeError, match=f"abstract method.*{missing}"):
            type("ToyDomain", (Domain,), members)()
        return
    with pytest.raises(DomainContractError, match=f"ToyDomain is not a complete domain: it {message}"):
        type("ToyDomain", (Domain,), members)


def test_a_domain_may_not_override_a_service():
    from heurist.domains import Domain
    from heurist.domains.base import DomainContractError

    members = {**_complete_members(), "read_solution": lambda self, text, problem, source: None}
    with pytest.raises(DomainContractError, match="overrides read_solution"):
        type("ToyDomain", (Domain,), members)


def test_the_built_in_domains_are_the_entry_points_pyproject_declares():
    import tomllib

    from heurist.domains import registry

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["heurist.domains"]
    assert declared == {name: f"heurist.domains.{name}:DOMAIN" for name in registry.BUILT_IN}


def test_the_domains_declare_their_pddl_export():
    assert [domain.name for domain in all_domains() if domain.exports_pddl] == ["blocksworld"]
    files = get_domain("blocksworld").export_pddl(DATA / "blocksworld/probA05.bwp")
    assert set(files) == {"domain.pddl", "probA05.pddl"} and "(:goal" in files["probA05.pddl"]


def test_search_without_algorithm_or_heuristic_is_the_domains_choice():
    import heurist
    from heurist.search import search

    eight = heurist.load("tiles", DATA / "tiles/aima-26.txt")
    assert eight.default_search() == ("astar", "linear-conflict")
    assert search(eight).algorithm == "astar"
    assert search(eight, "idastar").algorithm == "idastar"  # naming one keeps the other's usual default
    assert search(eight, heuristic="manhattan").algorithm == "astar"


def test_drawing_a_fifteen_puzzle_builds_no_pattern_database(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HEURIST_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "start.html"
    status, _, _ = run(capsys, "render", "tiles", str(DATA / "tiles/fifteen-46.txt"), "--out", str(out))
    assert status == 0 and "<html" in out.read_text().lower()
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*"))
