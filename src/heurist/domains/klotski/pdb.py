"""Building Klotski's pattern database tables: exact goal distances in an abstract space.

An abstract state keeps some shapes (the others are deleted); the moves of
the ``counted`` shapes cost 1 and the others' moves are free. The table of a
pattern database is the 0-1 breadth-first distance to the abstract goals of
every state of the abstract start's component (moves are reversible, so the
search runs from the goals), and the component's size.

:func:`build_table` is what :class:`~heurist.domains.klotski.heuristics.PatternDatabase`
calls. It returns exactly the table of the plain definition (a component
search from the start, then a 0-1 breadth-first search from the goals in it,
both calling the problem's move function), only faster:

* every state is expanded once, into its free and its counted children,
  with a move generator written for the kept shapes only (step metric);
* for a goal board, one search from the goal: when it reaches the start,
  the goal's component is the start's, and the component search is saved;
* for the pattern of the single 2x2 piece and the 1x1 pieces, with only the
  1x1 pieces' moves counted (the second of the ``pdb`` heuristic's two),
  the search runs over sets of states instead of states
  (:func:`_big_and_singles_table`).

Pure Python on purpose: importing numpy (or numba) costs more than these
tables take to build.
"""

from __future__ import annotations

from collections.abc import Callable

from heurist.domains.klotski.board import BIG, HORIZONTAL, SINGLE, VERTICAL, Geometry, iter_bits
from heurist.domains.klotski.model import KlotskiProblem

Expand = Callable[[int, list, list], None]
"""``expand(state, free, counted)`` appends the children of free moves to ``free``, the others to ``counted``."""


def build_table(problem: KlotskiProblem, kept: tuple[int, ...], counted: frozenset[int], start: int,
                goal: int | None, limit: int) -> tuple[dict[int, int], int]:
    """(distance by abstract state, size of the start's component) for abstract ``start`` and ``goal``.

    ``goal`` is the abstract goal board, or None for the exit goal (the 2x2
    piece at ``problem.goal_anchor``). Raises ``OverflowError`` when the
    start's component has more than ``limit`` states.
    """
    geometry = problem.geometry
    if (problem.metric == "step" and set(kept) == {BIG, SINGLE} and counted == {SINGLE}
            and _one_bit(start & geometry.full) and (goal is None or _one_bit(goal & geometry.full))):
        return _big_and_singles_table(geometry, start, goal, problem.goal_anchor, limit)
    if problem.metric == "step":
        expand = _step_expander(geometry, kept, counted)
    else:
        expand = _move_expander(problem.moves, counted)
    if goal is not None:
        found = _distances_from_goal_board(expand, start, goal, limit)
        if found is not None:
            return found
    adjacency = _component(expand, start, limit)
    if goal is None:
        goal_bit = 1 << problem.goal_anchor
        goals = [state for state in adjacency if state & goal_bit]
    else:
        goals = [goal] if goal in adjacency else []
    return _zero_one_distances(adjacency, goals), len(adjacency)


def _one_bit(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def _shifted(expression: str, shift: int) -> str:
    if shift > 0:
        return f"({expression}) << {shift}"
    if shift < 0:
        return f"({expression}) >> {-shift}"
    return expression


_step_expanders: dict[tuple, Expand] = {}


def _step_expander(geometry: Geometry, kept: tuple[int, ...], counted: frozenset[int]) -> Expand:
    """The step moves of the kept shapes' pieces, generated for this board with its masks as constants
    (as :attr:`Geometry.step_successors` is), sorted into free and counted children."""
    key = (geometry.width, geometry.height, tuple(sorted(kept)), tuple(sorted(counted)))
    expand = _step_expanders.get(key)
    if expand is not None:
        return expand
    n, w, full = geometry.cells, geometry.width, geometry.full
    names = {BIG: "big", VERTICAL: "vertical", HORIZONTAL: "horizontal", SINGLE: "single"}
    cover = {BIG: f"big | big << 1 | big << {w} | big << {w + 1}", VERTICAL: f"vertical | vertical << {w}",
             HORIZONTAL: "horizontal | horizontal << 1", SINGLE: "single"}
    rules = [rule for rule in geometry.step_rules if rule[0] in kept]
    offsets = sorted({offset for rule in rules for offset in rule[3]})
    empty_name = {offset: f"e{number}" for number, offset in enumerate(offsets)}
    lines = ["def expand(state, free, counted):"]
    lines += [f"    {names[shape]} = (state >> {shape * n}) & {full:#x}" for shape in sorted(set(kept))]
    lines.append(f"    empty = {full:#x} & ~(" + " | ".join(cover[shape] for shape in sorted(set(kept))) + ")")
    lines += [f"    {empty_name[o]} = empty {'>>' if o >= 0 else '<<'} {abs(o)}" for o in offsets]
    for shape, delta, movable, leading, _ in rules:
        target = "counted" if shape in counted else "free"
        lines += [
            f"    anchors = {names[shape]} & {movable:#x} & " + " & ".join(empty_name[o] for o in leading),
            "    while anchors:",
            "        low = anchors & -anchors",
            "        anchors ^= low",
            f"        {target}.append(state ^ {_shifted('low | ' + _shifted('low', delta), shape * n)})",
        ]
    namespace: dict = {}
    exec(compile("\n".join(lines) + "\n", f"<klotski pattern moves {geometry.width}x{geometry.height}>", "exec"),
         namespace)
    expand = _step_expanders[key] = namespace["expand"]
    return expand


def _move_expander(moves: Callable, counted: frozenset[int]) -> Expand:
    """Any metric: the problem's own move function, its children sorted into free and counted."""

    def expand(state: int, free: list, counted_children: list) -> None:
        for (shape, _, _), child, _ in moves(state):
            (counted_children if shape in counted else free).append(child)

    return expand


def _component(expand: Expand, start: int, limit: int) -> dict[int, tuple[list, list]]:
    """Every state of the start's component, with its (free, counted) children, in breadth-first order."""
    adjacency: dict[int, tuple[list, list]] = {}
    seen = {start}
    queue = [start]
    for state in queue:
        free: list = []
        counted: list = []
        expand(state, free, counted)
        adjacency[state] = free, counted
        for child in free:
            if child not in seen:
                seen.add(child)
                queue.append(child)
        for child in counted:
            if child not in seen:
                seen.add(child)
                queue.append(child)
        if len(seen) > limit:
            raise OverflowError("abstract space too large")
    return adjacency


def _zero_one_distances(adjacency: dict[int, tuple[list, list]], goals: list[int]) -> dict[int, int]:
    """0-1 breadth-first distances from ``goals``, a layer at a time: the states at distance d are
    those one counted move from layer d - 1, and every state free moves lead to from them."""
    distance = dict.fromkeys(goals, 0)
    layer = list(goals)
    d = 0
    while layer:
        for state in layer:  # the layer grows while it is read: its free closure
            for child in adjacency[state][0]:
                if child not in distance:
                    distance[child] = d
                    layer.append(child)
        d += 1
        following = []
        for state in layer:
            for child in adjacency[state][1]:
                if child not in distance:
                    distance[child] = d
                    following.append(child)
        layer = following
    return distance


def _distances_from_goal_board(expand: Expand, start: int, goal: int, limit: int) -> tuple[dict[int, int], int] | None:
    """The table from one search from the goal board, if it reaches the start within ``limit`` states.

    The goal's component is then the start's (moves are reversible), and
    every state of it is reached. None otherwise: the caller searches the
    start's component (the goal is not in it, or it may be too large)."""
    distance = {goal: 0}
    layer = [goal]
    d = 0
    while layer:
        counted_lists = []
        for state in layer:
            free: list = []
            counted: list = []
            expand(state, free, counted)
            counted_lists.append(counted)
            for child in free:
                if child not in distance:
                    distance[child] = d
                    layer.append(child)
        d += 1
        following = []
        for counted in counted_lists:
            for child in counted:
                if child not in distance:
                    distance[child] = d
                    following.append(child)
        if len(distance) > limit:
            return None
        layer = following
    if start not in distance:
        return None
    return distance, len(distance)


def _big_and_singles_table(geometry: Geometry, start: int, goal: int | None, goal_anchor: int | None,
                           limit: int) -> tuple[dict[int, int], int]:
    """The table of the single 2x2 piece and the 1x1 pieces, only the 1x1 pieces' moves counted (step metric).

    A state is (``singles``, the 2x2 piece's anchor). With the 1x1 pieces
    fixed, the 2x2 piece moves for free among the anchors where it fits; the
    anchors one of them reaches form a *cluster*, and every state of a
    cluster has the same distance. So the searches run over clusters, each a
    bitmask of anchors with its ``singles``: a 1x1 piece's step into cell
    ``c`` is open to every anchor of the cluster whose 2x2 piece does not
    cover ``c`` (one AND for all of them), and the anchors it leads to are
    flooded to their clusters in the new ``singles``. About 5,000 sets of
    1x1 pieces stand for the 21,840 states of the 5x4 board.
    """
    n, full = geometry.cells, geometry.full
    valid = geometry.valid_anchors[BIG]
    covers = geometry.piece_cells[BIG]  # anchor -> the cells its 2x2 piece covers
    clear_of = [0] * n  # cell -> the anchors whose 2x2 piece does not cover it
    for cell in range(n):
        clear_of[cell] = sum(1 << anchor for anchor, cells in covers.items() if not cells >> cell & 1)
    big_steps = [(delta, movable) for shape, delta, movable, _, _ in geometry.step_rules if shape == BIG]
    single_steps = [(delta, movable) for shape, delta, movable, _, _ in geometry.step_rules if shape == SINGLE]
    shift = SINGLE * n

    fitting: dict[int, int] = {}

    def fits(singles: int) -> int:
        """The anchors where the 2x2 piece fits among ``singles``."""
        anchors = fitting.get(singles)
        if anchors is None:
            anchors = valid
            for cell in iter_bits(singles):
                anchors &= clear_of[cell]
            fitting[singles] = anchors
        return anchors

    def flood(anchors: int, open_anchors: int) -> int:
        """Every anchor the 2x2 piece reaches from ``anchors`` through ``open_anchors``."""
        while True:
            grown = anchors
            for delta, movable in big_steps:
                moving = anchors & movable
                grown |= moving << delta if delta > 0 else moving >> -delta
            grown &= open_anchors
            if grown == anchors:
                return anchors
            anchors = grown

    single_moves: dict[int, list[tuple[int, int]]] = {}

    def moves_of(singles: int) -> list[tuple[int, int]]:
        """(singles after the step, the anchors it is open to) for every step of a 1x1 piece."""
        moves = single_moves.get(singles)
        if moves is None:
            moves = []
            empty = full & ~singles
            for delta, movable in single_steps:
                anchors = singles & movable & (empty >> delta if delta > 0 else empty << -delta)
                while anchors:
                    low = anchors & -anchors
                    anchors ^= low
                    to = low << delta if delta > 0 else low >> -delta
                    moves.append((singles ^ low ^ to, clear_of[to.bit_length() - 1]))
            single_moves[singles] = moves
        return moves

    def search(layer: list[tuple[int, int]], reached: dict[int, int], count_limit: int | None) -> list:
        """Breadth-first over clusters from ``layer``; ``reached`` maps singles to the anchors reached.
        Returns the layers; stops with None when more than ``count_limit`` states are reached."""
        layers = []
        count = sum(anchors.bit_count() for _, anchors in layer)
        while layer:
            layers.append(layer)
            following: dict[int, int] = {}
            for singles, cluster in layer:
                for after, open_to in moves_of(singles):
                    anchors = cluster & open_to
                    if anchors:
                        known = reached.get(after, 0)
                        anchors &= ~known
                        if anchors:
                            anchors = flood(anchors, fits(after))
                            reached[after] = known | anchors
                            following[after] = following.get(after, 0) | anchors
                            count += anchors.bit_count()
            if count_limit is not None and count > count_limit:
                return None
            layer = list(following.items())
        return layers

    def table(layers: list) -> dict[int, int]:
        distance: dict[int, int] = {}
        for d, layer in enumerate(layers):
            for singles, cluster in layer:
                base = singles << shift
                while cluster:
                    low = cluster & -cluster
                    cluster ^= low
                    distance[base | low] = d
        return distance

    start_singles, start_big = start >> shift, start & full
    if goal is not None:  # one search from the goal board, enough when it reaches the start
        goal_singles, goal_big = goal >> shift, goal & full
        if goal_big & fits(goal_singles):
            reached = {goal_singles: flood(goal_big, fits(goal_singles))}
            layers = search([(goal_singles, reached[goal_singles])], reached, limit)
            if layers is not None and reached.get(start_singles, 0) & start_big:
                distance = table(layers)
                return distance, len(distance)
    component = {start_singles: flood(start_big, fits(start_singles))}
    if search([(start_singles, component[start_singles])], component, limit) is None:
        raise OverflowError("abstract space too large")
    size = sum(anchors.bit_count() for anchors in component.values())
    if goal is None:
        exit_bit = 1 << goal_anchor
        goals = [(singles, flood(exit_bit, fits(singles))) for singles, anchors in component.items()
                 if anchors & exit_bit]
    else:
        goal_singles, goal_big = goal >> shift, goal & full
        goals = ([(goal_singles, flood(goal_big, fits(goal_singles)))]
                 if component.get(goal_singles, 0) & goal_big else [])
    return table(search(goals, dict(goals), None)), size
