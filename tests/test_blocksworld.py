"""Blocks World: the .bwp format, the 27 course problems solved optimally, and the heuristics."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heurist.domains.blocksworld import DOMAIN, BlocksWorld, Move, parse_bwp, problem_to_bwp
from heurist.domains.blocksworld.formats import format_bwp, load_bwp
from heurist.domains.blocksworld.generate import random_instances, random_state
from heurist.domains.blocksworld.heuristics import HEURISTICS
from heurist.domains.blocksworld.model import all_states
from heurist.errors import InputError
from heurist.search import Limits, Status, search
from heurist.search.space import exact_distances

DATA = Path(__file__).resolve().parents[1] / "data" / "blocksworld"

OPTIMAL = {
    **{f"probA{n:02d}": n for n in range(3, 12)},
    **dict(
        zip(
            (f"probB{n:02d}" for n in range(3, 21)),
            [3, 4, 5, 6, 7, 8, 8, 9, 9, 9, 13, 13, 14, 15, 16, 12, 14, 15],
        )
    ),
}
"""Optimal plan lengths, proved by BFS, bidirectional BFS and A* (shared/spec/blocksworld.md §4.1)."""


def problem(name: str) -> BlocksWorld:
    return load_bwp(DATA / f"{name}.bwp")


# --- the .bwp format --------------------------------------------------------------------------


def test_reads_probA03_with_its_empty_goal_stack():
    p = problem("probA03")
    assert p.initial_state == ("CE", "AD", "B")
    assert p.goal_state == ("", "ADBC", "E")
    assert (p.stack_count, p.blocks, p.scramble_moves) == (3, "ABCDE", 3)


def test_empty_lines_are_empty_stacks():
    p = problem("probB13")
    assert len(p.goal_state) == 5
    assert p.goal_state.count("") == 3


@pytest.mark.parametrize("name", sorted(OPTIMAL))
def test_course_files_round_trip_byte_for_byte(name):
    text = (DATA / f"{name}.bwp").read_text()
    assert problem_to_bwp(parse_bwp(text, name)) == text


def test_crlf_and_trailing_blanks_are_tolerated():
    text = (DATA / "probA03.bwp").read_text()
    crlf = text.replace("\n", " \r\n")
    assert parse_bwp(crlf).initial_state == parse_bwp(text).initial_state
    assert parse_bwp(crlf).goal_state == ("", "ADBC", "E")


GOOD = "3 5 -1\n>>>>>>>>>>\nCE\nAD\nB\n>>>>>>>>>>\n\nADBC\nE\n>>>>>>>>>>\n"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "empty file"),
        ("\n\n", 1, "empty file"),
        ("3 5\n", 1, "header"),
        ("three 5 -1\n", 1, "header"),
        ("0 5 -1\n", 1, "stacks"),
        (GOOD.replace("3 5 -1", "3 6 -1"), 1, "6 blocks"),
        (GOOD.replace("3 5 -1", "4 5 -1"), 6, "4 stacks"),
        (GOOD.replace("3 5 -1", "2 5 -1"), 5, "separator"),
        (GOOD.replace(">>>>>>>>>>\n", "", 1), 2, "separator"),
        (GOOD.rstrip("\n").rsplit("\n", 1)[0] + "\n", 10, "separator"),
        (GOOD.replace("AD\nB\n", "AD\nC\n", 1), 5, "twice"),
        (GOOD.replace("ADBC", "ADBB"), 8, "twice"),
        (GOOD.replace("ADBC", "ADB"), 7, "missing from the goal"),
        (GOOD.replace("ADBC", "ADBZ"), 8, "not in the start"),
        (GOOD.replace("CE\n", "Ce\n", 1), 3, "uppercase"),
        (GOOD.replace("CE\n", "C1E\n", 1), 3, "'1'"),
        (GOOD.replace("CE\n", "C E\n", 1), 3, "' '"),
        (GOOD + "ABC\n", 11, "after the final separator"),
    ],
)
def test_bad_files_name_the_line_and_the_problem(text, line, words):
    with pytest.raises(InputError) as caught:
        parse_bwp(text, "bad.bwp")
    error = caught.value
    assert (error.source, error.line) == ("bad.bwp", line)
    assert words in error.message


@settings(max_examples=60, deadline=None)
@given(
    stacks=st.integers(3, 8),
    blocks=st.integers(1, 26),
    seed=st.integers(0, 2**32 - 1),
)
def test_writer_and_parser_agree(stacks, blocks, seed):
    rng = random.Random(seed)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:blocks]
    start, goal = random_state(letters, stacks, rng), random_state(letters, stacks, rng)
    parsed = parse_bwp(format_bwp(start, goal))
    assert (parsed.initial_state, parsed.goal_state) == (start, goal)


# --- moves and plans --------------------------------------------------------------------------


def test_successors_move_a_top_block_to_every_other_stack():
    p = BlocksWorld(("AB", "", "C"), ("", "", "CBA"))
    moves = [(move, child) for move, child, cost in p.successors(p.initial_state)]
    assert [move for move, _ in moves] == [
        Move("B", 0, 1), Move("B", 0, 2), Move("C", 2, 0), Move("C", 2, 1)
    ]
    assert dict(moves)[Move("C", 2, 0)] == ("ABC", "", "")


def test_illegal_moves_are_refused():
    p = BlocksWorld(("AB", "", "C"), ("", "", "CBA"))
    for move in (Move("A", 0, 1), Move("B", 0, 0), Move("B", 0, 7), Move("Z", 1, 0)):
        with pytest.raises(ValueError):
            p.apply(p.initial_state, move)


@pytest.mark.parametrize("name", sorted(OPTIMAL))
def test_every_course_problem_is_solved_optimally_with_the_default(name):
    p = problem(name)
    heuristic = DOMAIN.heuristics[DOMAIN.default_heuristic]
    result = search(p, "astar", heuristic)
    assert result.status is Status.SOLVED
    assert result.plan_length == result.cost == OPTIMAL[name]
    assert p.replay(result.actions) == p.goal_state
    assert result.states[0] == p.initial_state
    assert all(p.apply(a, m) == b for a, m, b in zip(result.states, result.actions, result.states[1:]))


@pytest.mark.parametrize("name", ["probA09", "probA11", "probB08", "probB12"])
def test_prefix_heuristic_and_idastar_agree_on_the_optimum(name):
    p = problem(name)
    for algorithm in ("astar", "idastar"):
        result = search(p, algorithm, HEURISTICS["prefix"])
        assert result.plan_length == OPTIMAL[name]


def test_h0_is_breadth_first_on_small_problems():
    result = search(problem("probA07"), "astar", HEURISTICS["h0"])
    assert result.plan_length == 7


# --- heuristics ---------------------------------------------------------------------------------


def test_h6_reproduces_the_worked_examples():
    for name, expected in (("probA03", 4), ("probB11", 11)):
        p = problem(name)
        assert HEURISTICS["h6"](p.initial_state, p) == expected


def test_h6_overestimates_so_it_is_not_admissible():
    p = problem("probA03")
    assert HEURISTICS["h6"](p.initial_state, p) > OPTIMAL["probA03"]


def test_heuristic_values_on_a_hand_checked_state():
    # Start CE / AD / B, goal - / ADBC / E. AD is a correct prefix of stack 1; C, E and B are
    # misplaced. E (goal stack 2) waits for B (now on stack 2); nothing waits for E: no cycle.
    p = problem("probA03")
    start = p.initial_state
    assert HEURISTICS["h1"](start, p) == 3
    assert HEURISTICS["prefix"](start, p) == 3
    assert HEURISTICS["deadlock"](start, p) == 3
    # ACB over a goal ABC (same stack): B and C must both leave and come back.
    q = BlocksWorld(("ACB", "", ""), ("ABC", "", ""))
    assert HEURISTICS["prefix"](q.initial_state, q) == 2
    assert HEURISTICS["deadlock"](q.initial_state, q) == 4
    assert search(q, "bfs").plan_length == 4


def test_a_swap_between_two_stacks_costs_one_extra_move():
    p = BlocksWorld(("A", "B", ""), ("B", "A", ""))
    assert HEURISTICS["prefix"](p.initial_state, p) == 2
    assert HEURISTICS["deadlock"](p.initial_state, p) == 3
    assert search(p, "bfs").plan_length == 3


def test_aliases_name_the_course_heuristics():
    for alias, name in (("H0", "h0"), ("H1", "h1"), ("H6", "h6"), ("Hbest", "deadlock")):
        assert HEURISTICS[alias] is HEURISTICS[name]


@pytest.mark.parametrize(("stack_count", "goal_seed"), [(3, 0), (3, 1), (3, 2), (4, 3)])
def test_admissible_heuristics_never_overestimate_on_a_complete_state_space(stack_count, goal_seed):
    blocks = "ABCDE"
    goal = random_state(blocks, stack_count, random.Random(goal_seed))
    p = BlocksWorld(goal, goal)
    states = list(all_states(blocks, stack_count))
    distance = exact_distances(p)
    assert len(distance) == len(states)  # one connected component with 3 or more stacks
    for name in ("h0", "h1", "prefix", "deadlock"):
        h = HEURISTICS[name]
        values = {state: h(state, p) for state in states}
        assert values[goal] == 0
        over = [s for s in states if values[s] > distance[s]]
        assert not over, f"{name} overestimates at {over[0]}"
        inconsistent = [
            (s, child)
            for s in states
            for _, child, _ in p.successors(s)
            if values[s] > 1 + values[child]
        ]
        assert not inconsistent, f"{name} is inconsistent on {inconsistent[0]}"
    deadlock, prefix, h1 = (HEURISTICS[n] for n in ("deadlock", "prefix", "h1"))
    assert all(deadlock(s, p) >= prefix(s, p) >= h1(s, p) for s in states)


# --- the generator ------------------------------------------------------------------------------


def test_generator_is_reproducible_and_writes_parsable_files():
    first = random_instances(5, 10, seed=4, count=3)
    assert first == random_instances(5, 10, seed=4, count=3)
    assert first != random_instances(5, 10, seed=5, count=3)
    for name, text in first:
        p = parse_bwp(text, name)
        assert (p.stack_count, p.blocks) == (5, "ABCDEFGHIJ")


def test_generator_refuses_fewer_than_three_stacks():
    with pytest.raises(ValueError):
        random_instances(2, 4, seed=0, count=1)


def test_random_states_are_uniform_over_all_states():
    # 3 blocks on 3 stacks: 3! * C(5, 2) = 60 states, each drawn about 1/60 of the time.
    rng = random.Random(11)
    draws = 30_000
    counts: dict = {}
    for _ in range(draws):
        state = random_state("ABC", 3, rng)
        counts[state] = counts.get(state, 0) + 1
    assert set(counts) == set(all_states("ABC", 3))
    expected = draws / 60
    assert all(abs(c - expected) < 0.25 * expected for c in counts.values())


def test_generated_instances_are_solvable():
    for name, text in random_instances(3, 5, seed=1, count=5):
        p = parse_bwp(text, name)
        result = search(p, "astar", HEURISTICS["deadlock"], limits=Limits(max_expansions=10_000))
        assert result.status is Status.SOLVED
        assert result.cost == search(p, "bfs").plan_length
