"""The package's import graph: data flows one way and no two modules import each other.

Read from the source (every `import`, `from ... import` and `importlib.import_module("infragraph...")`,
including the ones inside functions, which hide a cycle from Python but not from a reader), so a
lazy import cannot reintroduce a cycle unnoticed.
"""

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "infragraph"

# Stages that produce a graph never import the commands that consume one (RULES: source -> document ->
# graph -> {lint, visualize, translate, simulate, sweep}).
PRODUCERS = ("lang", "document", "graph", "importers", "blueprints", "sources", "schemas", "units", "errors",
             "paths", "limits", "output", "cache")
CONSUMERS = ("lint", "visualizer", "translators", "simulate", "sweep", "analyze", "cli")


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _targets(node: ast.AST, package: str, modules: dict[str, Path]) -> set[str]:
    """The package modules one import statement (or import_module call) loads."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in modules}
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            name = ".".join(base + ([node.module] if node.module else []))
        else:
            name = node.module or ""
        return {f"{name}.{a.name}" if f"{name}.{a.name}" in modules else name for a in node.names} & modules.keys()
    if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module" \
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return {node.args[0].value} & modules.keys()
    return set()


@cache
def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            found |= _targets(node, package, modules)
        graph[name] = found - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (a list of modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state and (found := visit(w)):
                return found
        state[v] = 2
        path.pop()
        return None

    for v in sorted(graph):
        if v not in state and (found := visit(v)):
            return found
    return None


def test_the_graph_sees_the_imports_it_must():
    g = import_graph()
    assert "infragraph.translators.astra_system" in g["infragraph.translators.simengine"]
    assert "infragraph.simulate" in g["infragraph.translators.astra_analytical"]  # an import inside a function
    assert "infragraph.translators" in g["infragraph.lint.rules.targets"]  # importlib.import_module("...")


def test_find_cycle_finds_a_mutual_import():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_itself_back():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("producer", PRODUCERS)
def test_producers_never_import_consumers(producer):
    g = import_graph()
    bad = sorted(f"{a} -> {b}" for a, deps in g.items() if a.split(".")[1:2] == [producer] for b in deps
                 if b.split(".")[1:2] and b.split(".")[1] in CONSUMERS)
    assert not bad, f"{producer} imports a consumer stage: {bad}"
