"""The layers hold: search <- domains <- analysis / render / bench <- grade <- cli, and no module imports in a cycle.

Imports are read from the source with ``ast``, function-level ones included
(they run too); imports under ``if TYPE_CHECKING:`` are left out, since they
never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SOURCE / "heurist"

LOWER_LAYERS_MAY_NOT_IMPORT = {
    "heurist.search": ("heurist.domains", "heurist.analysis", "heurist.render", "heurist.bench", "heurist.grade",
                       "heurist.cli"),
    "heurist.domains": ("heurist.analysis", "heurist.render", "heurist.bench", "heurist.grade", "heurist.cli"),
    "heurist.analysis": ("heurist.render", "heurist.bench", "heurist.grade", "heurist.cli"),
    "heurist.render": ("heurist.analysis", "heurist.bench", "heurist.grade", "heurist.cli"),
    "heurist.bench": ("heurist.grade", "heurist.cli"),
    "heurist.grade": ("heurist.render", "heurist.cli"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _under_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(path: Path, modules: set[str]) -> set[str]:
    """The heurist modules that ``path`` imports at run time (a package import is its ``__init__``)."""
    tree = ast.parse(path.read_text())
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if _under_type_checking(node, parents):
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name.startswith("heurist"):
                found.add(name)
    found.discard(module_name(path))
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports(path, modules) for path in paths}


def test_each_layer_imports_only_the_layers_below(graph):
    broken = [
        f"{module} imports {target}"
        for module, targets in graph.items()
        for layer, forbidden in LOWER_LAYERS_MAY_NOT_IMPORT.items()
        if module == layer or module.startswith(layer + ".")
        for target in targets
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    ]
    assert not broken


def test_no_module_imports_in_a_cycle(graph):
    # A package may import its own submodules only if none of them imports the package back at run time;
    # a submodule importing its parent package (for its base classes) is the usual direction.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert not cycles


def test_domains_search_and_analysis_know_no_command_line():
    offenders = [
        str(path.relative_to(SOURCE))
        for folder in ("domains", "search", "analysis")
        for path in (PACKAGE / folder).rglob("*.py")
        if "argparse" in path.read_text() or "getattr(options" in path.read_text()
    ]
    assert not offenders
