"""The package's import graph: data flows one way and no two modules (or packages) import each other.

The layers (LAYERS) follow the pipeline; within the language, parsing never reaches elaboration;
expand reads documents only; simulate never imports workload or collectives, built on top of it.

Read from the source (every `import`, `from ... import` and `importlib.import_module("infragraph...")`,
including the ones inside functions, which hide a cycle from Python but not from a reader), so a
lazy import cannot reintroduce a cycle unnoticed.
"""

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "infragraph"

# The stages in the order data flows through them (README: source -> parse -> elaborate -> document ->
# expand -> graph -> {lint, visualize, translate, simulate, sweep}). A package may import its own layer
# and earlier ones, never a later one. The document package is the format the front ends write and
# expand reads, so it sits before them and imports no stage at all.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("errors", "units", "integers", "paths", "limits", "output", "schemas", "uniques", "processes")),
    ("document", ("document",)),
    ("front ends (source -> document)", ("lang", "importers", "blueprints")),
    ("expand", ("graph",)),
    ("loading (any source -> graph)", ("sources", "cache")),
    ("consumers", ("lint", "visualizer", "translators", "simulate", "sweep", "analyze", "workload", "collectives")),
    ("commands", ("cli", "__main__")),
)
LAYER_OF = {pkg: i for i, (_, pkgs) in enumerate(LAYERS) for pkg in pkgs}
PRODUCERS = tuple(p for p, i in LAYER_OF.items() if i < LAYER_OF["lint"])
CONSUMERS = tuple(p for p, i in LAYER_OF.items() if i == LAYER_OF["lint"]) + ("cli",)
# Imports of a later layer kept on purpose, each with the reason.
LAYER_EXCEPTIONS = {
    # `blueprints.graph(name)` is the public one-call expand(instantiate(name)) (docs/api.md, docs/
    # blueprints.md); the import is lazy, so instantiating a blueprint never loads the expander.
    ("infragraph.blueprints", "infragraph.graph.expand"),
}
# Within the language: parsing (text -> AST) never reaches into elaboration (AST -> document).
LANG_PARSE = ("syntax", "frontcheck", "ast", "diagnostics", "_generated")
LANG_ELABORATE = ("interp", "build", "values", "builtins", "ops", "compiler", "decompile")
# The engine both build on: workload and collectives are packages of their own on top of simulate.
CAPABILITIES = ("workload", "collectives")


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


def _package(module: str) -> str:
    """The top-level package (or module) of infragraph a module belongs to; "" for the root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _within(module: str, prefixes: list[str]) -> bool:
    """`module` is one of `prefixes` or inside one (infragraph.lang.build, not infragraph.lang.builtins)."""
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a later layer (LAYERS) not in LAYER_EXCEPTIONS, as "a -> b (layer -> layer)"."""
    bad = []
    for a, deps in graph.items():
        for b in deps:
            la, lb = LAYER_OF.get(_package(a)), LAYER_OF.get(_package(b))
            if la is not None and lb is not None and lb > la and (a, b) not in LAYER_EXCEPTIONS:
                bad.append(f"{a} -> {b} ({LAYERS[la][0]} imports {LAYERS[lb][0]})")
    return sorted(bad)


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The import graph folded to top-level packages (imports inside one package dropped)."""
    out: dict[str, set[str]] = {}
    for a, deps in graph.items():
        pa = _package(a)
        out.setdefault(pa, set()).update(pb for b in deps if (pb := _package(b)) != pa)
    for deps in list(out.values()):
        for pb in deps:
            out.setdefault(pb, set())
    return out


def test_every_package_has_a_layer():
    """A new package must be placed in LAYERS, or the layer check would silently skip it."""
    unplaced = sorted({_package(m) for m in import_graph()} - set(LAYER_OF) - {"", "_simengine"})
    assert not unplaced, f"packages with no layer in LAYERS: {unplaced}"


def test_layer_violations_finds_a_backward_import():
    planted = {"infragraph.graph.expand": {"infragraph.lint.engine"}, "infragraph.lint.engine": set(),
               "infragraph.blueprints": {"infragraph.graph.expand"}}
    assert layer_violations(planted) == ["infragraph.graph.expand -> infragraph.lint.engine (expand imports consumers)"]


def test_no_stage_imports_a_later_stage():
    bad = layer_violations(import_graph())
    assert not bad, "imports against the data flow:\n" + "\n".join(bad)


def test_the_layer_exceptions_are_still_needed():
    g = import_graph()
    stale = sorted(f"{a} -> {b}" for a, b in LAYER_EXCEPTIONS if b not in g.get(a, set()))
    assert not stale, f"remove from LAYER_EXCEPTIONS (no longer imported): {stale}"


def test_no_two_packages_import_each_other():
    cycle = find_cycle(package_graph(import_graph()))
    assert cycle is None, "package import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("producer", PRODUCERS)
def test_producers_never_import_consumers(producer):
    g = import_graph()
    bad = sorted(f"{a} -> {b}" for a, deps in g.items() if _package(a) == producer for b in deps
                 if _package(b) in CONSUMERS)
    assert not bad, f"{producer} imports a consumer stage: {bad}"


def test_expand_reads_documents_only():
    """graph/ (expand) knows the document, never the languages or formats that produced it."""
    g = import_graph()
    bad = sorted(f"{a} -> {b}" for a, deps in g.items() if _package(a) == "graph" for b in deps
                 if _package(b) in LAYERS[LAYER_OF["lang"]][1])
    assert not bad, f"expand imports a front end: {bad}"


def test_parsing_never_imports_elaboration():
    g = import_graph()
    parse = [f"infragraph.lang.{m}" for m in LANG_PARSE]
    later = [f"infragraph.lang.{m}" for m in LANG_ELABORATE] + ["infragraph.document"]
    bad = sorted(f"{a} -> {b}" for a, deps in g.items() if _within(a, parse) for b in deps if _within(b, later))
    assert not bad, f"the parser imports elaboration or the document: {bad}"


def test_simulate_never_imports_the_capabilities_built_on_it():
    g = import_graph()
    bad = sorted(f"{a} -> {b}" for a, deps in g.items() if _package(a) == "simulate" for b in deps
                 if _package(b) in CAPABILITIES)
    assert not bad, f"simulate imports workload/collectives: {bad}"


def test_workload_never_imports_collectives():
    """collectives may use workload (Chakra traces), never the reverse."""
    g = import_graph()
    bad = sorted(f"{a} -> {b}" for a, deps in g.items() if _package(a) == "workload" for b in deps
                 if _package(b) == "collectives")
    assert not bad, f"workload imports collectives: {bad}"
