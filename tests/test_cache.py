"""The cache of tables between runs: on, off, corrupt files, and the same heuristic values either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from heurist import cache
from heurist.domains.klotski import heuristics, load
from heurist.domains.klotski.board import BIG, HORIZONTAL, SINGLE, VERTICAL

DATA = Path(__file__).resolve().parents[1] / "data" / "hrd"
ABSTRACTIONS = (((BIG, VERTICAL, HORIZONTAL), (BIG, VERTICAL, HORIZONTAL)), ((BIG, SINGLE), (SINGLE,)))


@pytest.fixture
def cache_directory(tmp_path, monkeypatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(directory))
    return directory


def cached_files(directory: Path) -> list[Path]:
    return sorted(path for path in directory.rglob("*") if path.is_file())


def test_a_stored_value_is_read_back_under_its_key_only(cache_directory):
    value = ({1 << 70: 3, 5: 0}, 2)
    cache.store("test", ("key", 1), value)
    assert cache.load("test", ("key", 1)) == value
    assert cache.load("test", ("key", 2)) is cache.MISSING
    assert cache.load("other", ("key", 1)) is cache.MISSING
    assert [path.suffix for path in cached_files(cache_directory)] == [".bin"]  # no temporary file left


@pytest.mark.parametrize("setting", ["off", "OFF", "0", "no", "false"])
def test_the_cache_can_be_turned_off(monkeypatch, tmp_path, setting):
    monkeypatch.setenv(cache.CACHE_VARIABLE, setting)
    monkeypatch.chdir(tmp_path)
    assert cache.cache_directory() is None
    cache.store("test", ("key",), 1)
    assert cache.load("test", ("key",)) is cache.MISSING
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("xdg", [None, "", "/tmp/somewhere"])
def test_the_default_directory_is_the_users_cache(monkeypatch, xdg):
    import platformdirs

    monkeypatch.setenv(cache.CACHE_VARIABLE, "on")
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert cache.cache_directory() == Path(platformdirs.user_cache_dir("heurist"))


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "other key"])
def test_a_damaged_file_is_ignored(cache_directory, damage):
    cache.store("test", ("key",), {1: 2, 3: 4})
    (path,) = cached_files(cache_directory)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        path.write_bytes(data[:-3] + bytes([data[-3] ^ 0x40]) + data[-2:])
    elif damage == "garbage":
        path.write_bytes(b"\x00\xff" * 100)
    elif damage == "empty":
        path.write_bytes(b"")
    else:  # a valid file of another key under this key's name (a hash collision)
        cache.store("test", ("another",), {1: 2})
        other = next(p for p in cached_files(cache_directory) if p != path)
        path.write_bytes(other.read_bytes())
    assert cache.load("test", ("key",)) is cache.MISSING
    cache.store("test", ("key",), {1: 2, 3: 4})
    assert cache.load("test", ("key",)) == {1: 2, 3: 4}


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(blocker / "cache"))
    cache.store("test", ("key",), 1)
    assert cache.load("test", ("key",)) is cache.MISSING


def tables(path: Path, metric: str = "step") -> list:
    problem = load(path, metric=metric)
    result = []
    for kept, counted in ABSTRACTIONS:
        try:
            database = heuristics.PatternDatabase(problem, kept, counted)
        except OverflowError:
            result.append(None)
        else:
            result.append((database.distance, database.size))
    return result


@pytest.mark.parametrize("name, metric", [
    ("w23_s24_char/testhrd_med4.txt", "step"),
    ("f24_w25_goal/easy3.txt", "step"),
    ("f24_w25_goal/med1T.txt", "slide"),
])
def test_pattern_databases_are_the_same_with_and_without_the_cache(cache_directory, monkeypatch, name, metric):
    path = DATA / name
    built = tables(path, metric)  # cold: built and stored
    assert len(cached_files(cache_directory)) == 2
    assert tables(path, metric) == built  # warm: read back
    monkeypatch.setenv(cache.CACHE_VARIABLE, "off")
    assert tables(path, metric) == built


def test_a_corrupt_pattern_database_file_is_rebuilt(cache_directory):
    path = DATA / "w23_s24_char" / "testhrd_med4.txt"
    built = tables(path)
    for file in cached_files(cache_directory):
        file.write_bytes(file.read_bytes()[:100])
    assert tables(path) == built
    assert tables(path) == built


def test_an_abstract_space_too_large_is_remembered(cache_directory, monkeypatch):
    monkeypatch.setattr(heuristics, "PDB_MAX_STATES", 1000)
    path = DATA / "w23_s24_char" / "testhrd_med4.txt"
    first = tables(path)
    assert first[1] is None  # the 1x1 pieces' abstraction has more than 1,000 states
    assert tables(path) == first


def test_search_results_are_the_same_with_and_without_the_cache(cache_directory, monkeypatch):
    from heurist.search import search

    path = DATA / "f24_w25_goal" / "easy3.txt"
    results = []
    for setting in ("off", str(cache_directory), str(cache_directory)):
        monkeypatch.setenv(cache.CACHE_VARIABLE, setting)
        problem = load(path)
        values = [heuristics.pdb(state, problem) for state in (problem.initial_state, problem.goal_state)]
        result = search(problem, "astar", heuristics.HEURISTICS["pdb"])
        results.append((values, result.states, result.statistics.expansions))
    assert results[0] == results[1] == results[2]
