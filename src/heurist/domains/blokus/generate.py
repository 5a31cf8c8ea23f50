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

import argparse
import random
from collections.abc import Iterator

from heurist.domains.blokus.board import Board
from heurist.domains.blokus.model import CoverProblem
from heurist.domains.blokus.pieces import INSTANCE_HEADER, format_pieces, load_pieces
from heurist.errors import InputError


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pieces", "-p", default="small_set.txt", metavar="FILE",
        help="piece file, by path or bundled name (default: %(default)s)",
    )
    parser.add_argument(
        "--board-size", "-s", nargs=2, type=int, default=(10, 10), metavar=("ROWS", "COLS"),
        help="board size (default: 10 10)",
    )
    parser.add_argument(
        "--start", "-x", nargs=2, type=int, metavar=("ROW", "COL"),
        help="start square (default: random)",
    )
    parser.add_argument("--targets", "-t", type=int, default=3, help="number of targets (default: 3)")
    parser.add_argument("--legacy-board", action="store_true", help="use the pre-2020 move generator")


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


def generate(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    rng = random.Random(args.seed)
    rows, cols = args.board_size
    for number in range(args.count):
        text, start, targets = generate_instance(
            args.pieces, rows, cols, args.start, args.targets, rng, legacy=args.legacy_board
        )
        lines = text.rstrip("\n").split("\n")
        section = [
            "",
            INSTANCE_HEADER,
            f"# seed {args.seed}, instance {number + 1}; generated from {args.pieces}",
            "puzzle: cover",
            f"board: {rows} {cols}",
            f"start: {start[0]} {start[1]}",
            "targets: [" + ", ".join(f"({r}, {c})" for r, c in targets) + "]",
        ]
        name = f"blokus_{rows}x{cols}_seed{args.seed}_{number + 1:03d}.txt"
        yield name, "\n".join(lines + section) + "\n"
