"""Random cover instances, solvable by construction.

A random playout from the start square places pieces (each legal move
equally likely, from a seeded generator) until no move is left or enough of
the board is covered; the targets are then drawn from the squares the
playout covered, so the playout itself is a witness that the instance is
solvable. The instance is written as the piece file followed by an instance
section (see :func:`heurist.domains.blokus.pieces.parse_instance`), which the
course's loader ignores.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from heurist.domains.blokus.board import Board
from heurist.domains.blokus.model import CoverProblem
from heurist.domains.blokus.pieces import format_instance, format_pieces, load_pieces
from heurist.errors import InputError


def generate_instance(
    pieces_name: str, rows: int, cols: int, start: tuple[int, int] | None, targets: int,
    rng: random.Random, *, legacy: bool = False,
) -> tuple[str, tuple[int, int], list[tuple[int, int]]]:
    """Piece-file text, the start and the targets of one random solvable cover instance."""
    if rows <= 0 or cols <= 0:
        raise InputError("the board needs at least one row and one column", "--board-size")
    if targets < 1:
        raise InputError("must be at least 1", "--targets")
    pieces = load_pieces(pieces_name)
    board = Board(rows, cols, pieces, legacy=legacy)
    if start is None:
        start = (rng.randrange(rows), rng.randrange(cols))
    problem = CoverProblem(board, tuple(start), (tuple(start),))
    state = problem.initial_state
    while True:
        moves = problem.legal_moves(state)
        if not moves:
            break
        state = problem.apply(state, rng.choice(moves))
    covered = board.cells_of(state[0])
    if len(covered) < targets:
        raise InputError(
            f"a random playout covered only {len(covered)} squares; ask for fewer targets or a larger board",
            "--targets",
        )
    chosen = sorted(rng.sample(covered, targets))
    return format_pieces(pieces), tuple(start), chosen


def generate_files(
    seed: int, count: int, *, pieces: str = "small_set.txt", board_size: tuple[int, int] = (10, 10),
    start: tuple[int, int] | None = None, targets: int = 3, legacy_board: bool = False,
) -> Iterator[tuple[str, str]]:
    """``count`` random cover instances from ``seed`` as (file name, piece file with instance section)."""
    rng = random.Random(seed)
    rows, cols = board_size
    piece_set = None
    for number in range(count):
        _, chosen_start, chosen = generate_instance(pieces, rows, cols, start, targets, rng, legacy=legacy_board)
        piece_set = piece_set or load_pieces(pieces)
        text = format_instance(
            piece_set, "cover", (rows, cols), chosen_start, tuple(chosen),
            comment=f"seed {seed}, instance {number + 1}; generated from {pieces}",
        )
        yield f"blokus_{rows}x{cols}_seed{seed}_{number + 1:03d}.txt", text
