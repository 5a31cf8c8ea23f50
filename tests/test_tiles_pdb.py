"""Pattern databases for sliding tiles: ranking, tables, the cache, the checks, and the compiled IDA*."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest

from heurist import cache
from heurist.analysis.checks import run_checks
from heurist.domains.tiles import DOMAIN, HEURISTICS, TilesProblem
from heurist.domains.tiles import pdb as pdb_module
from heurist.domains.tiles.generate import random_walk
from heurist.domains.tiles.pdb import (
    PatternDatabaseHeuristic,
    load_table,
    partition_for,
    rank,
    reflection,
)
from heurist.errors import InputError
from heurist.search import Limits, Status, search
from heurist.search.idastar import iterative_deepening_astar_search
from heurist.search.space import build_state_space

DATA = Path(__file__).resolve().parents[1] / "data" / "tiles"


@pytest.fixture(scope="module")
def space():
    """The whole 8-puzzle component of the hardest instance: 181,440 states with h*."""
    return build_state_space(DOMAIN.load(DATA / "hardest-31.txt"))


def korf(number: int) -> TilesProblem:
    return DOMAIN.load(DATA / "korf100" / f"korf{number:03d}.txt")


def published_length(number: int) -> int:
    first = (DATA / "korf100" / f"korf{number:03d}.txt").read_text().splitlines()[0]
    return int(first.rsplit("optimal: ", 1)[1].split()[0])


# ----- ranking and partitions -----------------------------------------------------------------

def test_the_ranking_is_perfect():
    ranks = [rank(p, 6) for p in itertools.permutations(range(6), 3)]
    assert sorted(ranks) == list(range(math.perm(6, 3)))


def test_partitions_cover_the_tiles_once_and_follow_the_blank():
    for blank in (0, 3, 12, 15):
        for name in ("5-5-5", "6-6-3", "default"):
            groups = partition_for(4, 4, blank, name)
            assert sorted(itertools.chain(*groups)) == [c for c in range(16) if c != blank]
    assert partition_for(4, 4, 0, "6-6-3") == ((1, 2, 4, 5, 8, 9), (3, 6, 7, 10, 11, 15), (12, 13, 14))
    assert partition_for(4, 4, 15, "6-6-3")[2] == (1, 2, 3)  # mirrored into the blank's corner
    assert partition_for(3, 3, 8, "default") == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert reflection(3, 3, 0) == [0, 3, 6, 1, 4, 7, 2, 5, 8]
    assert reflection(3, 4, 0) is None


def test_single_tile_groups_are_manhattan():
    single = PatternDatabaseHeuristic("-".join(["1"] * 15), reflect=False)
    rng = random.Random(1)
    for _ in range(50):
        state = random_walk(4, 4, 80, rng)
        problem = TilesProblem(4, 4, state)
        assert single(state, problem) == HEURISTICS["manhattan"](state, problem)


def test_a_partition_that_does_not_fit_the_board_is_an_input_error():
    with pytest.raises(InputError, match="5-5-5"):
        search(DOMAIN.load(DATA / "aima-26.txt"), "astar", HEURISTICS["pdb-5-5-5"])


# ----- admissible and consistent ------------------------------------------------------------------

@pytest.mark.parametrize(("partition", "reflect"), [("default", True), ("3-3-2", False), ("8", False)])
def test_pattern_databases_are_admissible_and_consistent_over_the_whole_8_puzzle(space, partition, reflect):
    heuristic = HEURISTICS["pdb"] if (partition, reflect) == ("default", True) else \
        PatternDatabaseHeuristic(partition, reflect=reflect)
    report = run_checks(space, heuristic, partition, HEURISTICS["manhattan"], "manhattan")
    assert report.admissible, report.admissibility_witness
    assert report.consistent, report.consistency_witness
    assert report.goal_aware and report.safe
    assert report.dominance.dominates, report.dominance.witness  # each group counts its tiles' distances
    if partition == "8":  # one group of every tile: the exact distance
        assert report.dominance.above > 0


def test_a_board_with_another_goal_and_shape_is_checked_too():
    problem = TilesProblem(2, 4, (7, 6, 5, 4, 3, 2, 1, 0), (0, 1, 2, 3, 4, 5, 6, 7))
    whole = build_state_space(problem)
    report = run_checks(whole, HEURISTICS["pdb"], "pdb", HEURISTICS["manhattan"], "manhattan")
    assert report.admissible and report.consistent and report.dominance.dominates


def korf_walk(steps: int, rng: random.Random) -> TilesProblem:
    """A 15-puzzle at most ``steps`` moves from Korf's goal (the blank first): a random walk that never turns back."""
    goal = tuple(range(16))
    problem = TilesProblem(4, 4, goal, goal)
    state = previous = goal
    for _ in range(steps):  # never straight back
        state, previous = rng.choice([c for _, c, _ in problem.successors(state) if c != previous]), state
    return TilesProblem(4, 4, state, goal)


def test_the_15_puzzle_databases_are_admissible_and_consistent_on_sampled_states():
    """5-5-5 on states from random walks: h <= h* (A* with linear conflict), and |h(s) - h(t)| <= 1 per move."""
    heuristic = HEURISTICS["pdb-5-5-5"]
    rng = random.Random(5)
    goal = korf_walk(0, rng)
    assert heuristic(goal.start, goal) == 0
    for steps in (12, 20, 26, 30):
        problem = korf_walk(steps, rng)
        exact = search(problem, "astar", HEURISTICS["linear-conflict"]).cost
        assert heuristic(problem.start, problem) <= exact
    for _ in range(200):
        problem = korf_walk(80, rng)
        value = heuristic(problem.start, problem)
        for _, child, step in problem.successors(problem.start):
            assert abs(heuristic(child, problem) - value) <= step


# ----- the cache ----------------------------------------------------------------------------

def test_a_table_is_read_back_from_the_cache(monkeypatch):
    built = load_table(3, 3, 8, (0, 1, 2))

    def fail(*args):
        raise AssertionError("built again")

    monkeypatch.setattr(pdb_module, "build_table", fail)
    assert load_table(3, 3, 8, (0, 1, 2)).tobytes() == built.tobytes()


@pytest.mark.parametrize("damage", ["truncate", "flip", "short"])
def test_a_damaged_or_misshapen_table_is_rebuilt(damage):
    group = (1, 2, 4)
    good = load_table(3, 3, 0, group).tobytes()
    key = ("tiles pattern database", pdb_module.PDB_VERSION, 3, 3, 0, group)
    path = cache._path(pdb_module._CACHE_KIND, key)
    if damage == "short":  # a well-formed file under the right key whose table has the wrong length
        cache.store(pdb_module._CACHE_KIND, key, good[:-1])
    else:
        data = bytearray(path.read_bytes())
        if damage == "truncate":
            data = data[: len(data) // 2]
        else:
            data[-10] ^= 0xFF
        path.write_bytes(bytes(data))
    assert cache.load(pdb_module._CACHE_KIND, key, lambda v: isinstance(v, bytes) and len(v) == len(good)) \
        is cache.MISSING
    assert load_table(3, 3, 0, group).tobytes() == good


# ----- the compiled IDA* -------------------------------------------------------------------

def _same(first, second) -> bool:
    one, two = first.statistics.as_dict(), second.statistics.as_dict()
    for name in ("search_time", "total_time", "memory"):
        one.pop(name), two.pop(name)
    return (first.status, first.actions, first.states, first.cost, one) == \
        (second.status, second.actions, second.states, second.cost, two)


@pytest.mark.parametrize("name", ["aima-26.txt", "hardest-31.txt"])
def test_the_compiled_idastar_gives_the_generic_result(name):
    problem = DOMAIN.load(DATA / name)
    heuristic = HEURISTICS["pdb"]
    compiled = search(problem, "idastar", heuristic)
    assert hasattr(compiled, "iterations")  # the compiled search ran
    assert _same(compiled, iterative_deepening_astar_search(problem, heuristic))
    assert compiled.cost == {"aima-26.txt": 26, "hardest-31.txt": 31}[name]


def test_the_compiled_idastar_matches_on_a_15_puzzle_and_is_deterministic():
    problem = korf_walk(44, random.Random(8))
    heuristic = HEURISTICS["pdb-5-5-5"]
    first = search(problem, "idastar", heuristic)
    assert _same(first, search(problem, "idastar", heuristic))
    assert _same(first, iterative_deepening_astar_search(problem, heuristic))


@pytest.mark.parametrize("number", [12, 42, 55, 79, 97])
def test_korf_instances_get_their_published_length(number):
    problem = korf(number)
    heuristic = HEURISTICS["pdb-5-5-5"]
    result = search(problem, "idastar", heuristic)
    assert result.solved and result.plan_length == published_length(number)
    assert problem.replay(result.actions) == problem.goal
    # Along an optimal plan the exact distance of the i-th state is the length left: h <= h*, |h step| <= 1.
    values = [heuristic(state, problem) for state in result.states]
    assert all(value <= len(values) - 1 - i for i, value in enumerate(values))
    assert all(abs(a - b) <= 1 for a, b in zip(values, values[1:]))


def test_an_expansion_limit_stops_the_compiled_search_where_the_generic_one_stops():
    problem = korf(12)
    heuristic = HEURISTICS["pdb-5-5-5"]
    limits = Limits(max_expansions=500)
    compiled = search(problem, "idastar", heuristic, limits=limits)
    assert compiled.status is Status.LIMIT_REACHED and compiled.limit == "expansions"
    assert compiled.statistics.expansions == 500
    assert _same(compiled, iterative_deepening_astar_search(problem, heuristic, limits=limits))


def test_an_unsolvable_puzzle_is_answered_at_once():
    problem = TilesProblem(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    result = search(problem, "idastar", HEURISTICS["pdb"])
    assert result.status is Status.UNSOLVABLE and result.statistics.expansions == 0


# ----- the default search ------------------------------------------------------------------------

def test_the_domain_chooses_idastar_with_databases_from_16_cells():
    assert DOMAIN.default_search(korf(12)) == ("idastar", "pdb")
    assert DOMAIN.default_search(DOMAIN.load(DATA / "aima-26.txt")) == ("astar", "linear-conflict")


def test_the_command_line_settles_the_defaults(capsys):
    import json

    from heurist.cli.main import main

    assert main(["solve", "tiles", str(DATA / "aima-26.txt"), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["algorithm"], document["heuristic"], document["statistics"]["expansions"]) == \
        ("astar", "linear-conflict", 863)  # the 8-puzzle's default run is unchanged
    assert main(["solve", "tiles", str(DATA / "korf100" / "korf012.txt"), "-a", "idastar", "-H", "pdb-5-5-5",
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["algorithm"], document["heuristic"], document["cost"]) == ("idastar", "pdb-5-5-5", 45)
    assert main(["solve", "tiles", str(DATA / "korf100" / "korf012.txt"), "-a", "idastar", "--max-expansions", "5",
                 "-q"]) == 3  # one of the two named: the usual default (linear conflict) for the other
    assert "initial_h_value: 35" in capsys.readouterr().out
