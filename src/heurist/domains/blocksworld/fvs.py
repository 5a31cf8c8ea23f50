"""Exact minimum feedback vertex sets of small directed graphs, one bit per node.

Both Blocks World lower bounds need the smallest set of blocks that meets
every cycle of the waits-for graph: ``deadlock`` (:mod:`.heuristics`) adds its
size to the misplaced count, and ``parking`` (:mod:`.bounds`) branches over
graphs derived from it. The graphs have at most 26 nodes (one per block
letter), so a node is a one-bit int and a node's successors are an int mask.

The method: strip the nodes with no predecessor or no successor (they lie on
no cycle), reduce what is left with the Levy & Low rules, branch on the
busiest node, and cache every reduced graph met on the way. The cache is
shared by every caller, so graphs seen by one heuristic serve the other.
"""

from __future__ import annotations


def _bit_table(shift: int) -> list[tuple[int, ...]]:
    return [tuple(1 << (i + shift) for i in range(_HALF) if m >> i & 1) for m in range(1 << _HALF)]


_HALF = 13  # blocks are letters: 26 bits, looked up in two halves
_LOW_BITS = _bit_table(0)
_HIGH_BITS = _bit_table(_HALF)


def bits(mask: int) -> tuple[int, ...]:
    """The one-bit masks making up ``mask`` (at most 26 bits), lowest first."""
    return _LOW_BITS[mask & 0x1FFF] + _HIGH_BITS[mask >> _HALF]


_FVS_CACHE: dict[tuple, tuple[int, int]] = {}  # cyclic core -> (minimum feedback vertex set size, one such set)
_FVS_CACHE_LIMIT = 200_000


def feedback_set_size(
    waits: list[tuple[int, int]], removed: int, alive: int | None = None, targets: int | None = None
) -> int:
    """Size of a smallest set of nodes whose removal leaves the graph without cycles.

    ``waits`` lists (node, successor mask) with one bit per node; nodes in
    ``removed`` are already gone. Nodes missing from ``waits`` have no
    successors, so they lie on no cycle and are dropped. First the nodes with
    no predecessor or no successor are stripped until none is left; what
    remains (the graph's cyclic core) is solved exactly and cached.
    ``alive`` and ``targets``, the union of the nodes and of the successor
    masks in ``waits``, save a pass when the caller already has them.
    """
    return feedback_set(waits, removed, alive, targets)[0]


def feedback_set(
    waits: list[tuple[int, int]], removed: int, alive: int | None = None, targets: int | None = None
) -> tuple[int, int]:
    """(size, mask) of one smallest feedback vertex set, as :func:`feedback_set_size` finds it.

    The mask holds nodes of ``waits`` only (``removed`` is not included).
    """
    pairs = waits
    if alive is None or targets is None:
        alive = targets = 0
        for node, successors in pairs:
            alive |= node
            targets |= successors
    targets &= ~removed
    while True:
        kept = [(node, successors) for node, successors in pairs if node & targets and successors & alive]
        if not kept:
            return EMPTY_SET
        if len(kept) == len(pairs):
            break
        pairs = kept
        alive = targets = 0
        for node, successors in pairs:
            alive |= node
            targets |= successors
        targets &= ~removed
    key = tuple([(node, successors & alive) for node, successors in pairs])
    cached = _FVS_CACHE.get(key)
    if cached is None:
        cached = _solve_fvs(dict(key))
        _remember(key, cached)
    return cached


EMPTY_SET = (0, 0)


def _remember(key: tuple, solution: tuple[int, int]) -> None:
    if len(_FVS_CACHE) >= _FVS_CACHE_LIMIT:
        _FVS_CACHE.clear()
    _FVS_CACHE[key] = solution


def _solve_fvs(graph: dict[int, int]) -> tuple[int, int]:
    """Exact minimum feedback vertex set by reduction and branching (Levy & Low rules): (size, one such set).

    ``graph`` maps each node bit to its successor mask (successors are nodes
    of the graph). Reductions, applied until none fits:

    * a node with no predecessor or no successor lies on no cycle: drop it;
    * a node with a self-loop must be in the set: count it and drop it;
    * a node with a single predecessor or a single successor can be left out
      of the set (any cycle through it also passes through that neighbour):
      bypass it, linking its predecessors straight to its successors.

    Then branch on the node with the most edges: either it joins the set, or
    it stays out and is bypassed. Reduced subgraphs are cached. A feedback
    set of a reduced graph, plus the nodes counted on the way, is one of the
    original graph: every cycle through a bypassed node becomes a cycle (or
    a self-loop) through its neighbours in the reduced graph.
    """
    predecessors = dict.fromkeys(graph, 0)
    for node, targets in graph.items():
        for target in bits(targets):
            predecessors[target] |= node
    return _branch(dict(graph), predecessors)


def _branch(graph: dict[int, int], predecessors: dict[int, int]) -> tuple[int, int]:
    forced_size, forced = _reduce(graph, predecessors)
    if not graph:
        return forced_size, forced
    key = tuple(sorted(graph.items()))
    cached = _FVS_CACHE.get(key)
    if cached is None:
        pivot = max(graph, key=lambda node: graph[node].bit_count() + predecessors[node].bit_count())
        without, without_predecessors = dict(graph), dict(predecessors)
        _remove(without, without_predecessors, pivot)
        size, chosen = _branch(without, without_predecessors)
        cached = (size + 1, chosen | pivot)
        if size > 0:  # the other branch can only tie a set of one
            _bypass(graph, predecessors, pivot)
            other = _branch(graph, predecessors)
            if other[0] < cached[0]:
                cached = other
        _remember(key, cached)
    return forced_size + cached[0], forced | cached[1]


def _reduce(graph: dict[int, int], predecessors: dict[int, int]) -> tuple[int, int]:
    """Apply the reductions in place until none fits; return (number, mask) of the forced nodes."""
    forced_size = forced = 0
    pending = list(graph)
    while pending:
        node = pending.pop()
        targets = graph.get(node)
        if targets is None:
            continue
        sources = predecessors[node]
        if targets & node:
            forced_size += 1
            forced |= node
            pending.extend(bits(_remove(graph, predecessors, node)))
        elif not targets or not sources:
            pending.extend(bits(_remove(graph, predecessors, node)))
        elif targets & (targets - 1) == 0 or sources & (sources - 1) == 0:
            pending.extend(bits(_bypass(graph, predecessors, node)))
    return forced_size, forced


def _remove(graph: dict[int, int], predecessors: dict[int, int], node: int) -> int:
    """Delete ``node`` and its edges; return the mask of its former neighbours."""
    targets = graph.pop(node) & ~node
    sources = predecessors.pop(node) & ~node
    for target in bits(targets):
        predecessors[target] &= ~node
    for source in bits(sources):
        graph[source] &= ~node
    return targets | sources


def _bypass(graph: dict[int, int], predecessors: dict[int, int], node: int) -> int:
    """Delete ``node`` (which has no self-loop), linking each predecessor to each successor."""
    targets = graph[node]
    sources = predecessors[node]
    _remove(graph, predecessors, node)
    for source in bits(sources):
        graph[source] |= targets
    for target in bits(targets):
        predecessors[target] |= sources
    return targets | sources


def minimum_feedback_vertex_set(graph: dict[int, int]) -> int:
    """Size of a smallest set of nodes meeting every cycle (self-loops included).

    ``graph`` maps one-bit nodes to successor masks; successors that are not
    nodes are ignored. Exact (see :func:`feedback_set`).
    """
    nodes = 0
    for node in graph:
        nodes |= node
    return graph_feedback_set_size({node: successors & nodes for node, successors in graph.items()})


def graph_feedback_set_size(graph: dict[int, int]) -> int:
    """:func:`minimum_feedback_vertex_set` for a graph whose successors are all nodes of it.

    The whole graph is looked up in the cache before it is stripped: callers
    that branch over many variants of one graph (``parking``) meet the same
    graphs again and again.
    """
    whole = tuple(graph.items())
    known = _FVS_CACHE.get(whole)
    if known is None:
        known = feedback_set(list(whole), 0)
        _remember(whole, known)
    return known[0]
