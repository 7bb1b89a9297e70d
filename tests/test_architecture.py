"""The import graph: no cycles (imports inside functions count), and every import points down.

Layers, lowest first. A module may import its own layer or a lower one, never a higher
one: storage never imports a feature, a feature never imports an entry point.
"""

from __future__ import annotations

import ast
import collections
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "memkit"
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("memkit.errors", "memkit.fields", "memkit.config",
              "memkit.limits", "memkit.cachedir", "memkit.atomicwrite", "memkit.fsutil",
              "memkit.walk", "memkit.hookvalid",
              "memkit.resources", "memkit.controls", "memkit.globs", "memkit.secrets",
              "memkit.clock",
              "memkit.install", "memkit.capped", "memkit.unspaced", "memkit.gcpause",
              "memkit.memfile", "memkit.choices", "memkit.lazy")),
    ("memory", ("memkit.memory",)),
    ("storage", ("memkit.store", "memkit.git")),
    ("features", ("memkit.staleness", "memkit.validation", "memkit.compile", "memkit.sharing",
                  "memkit.search", "memkit.history", "memkit.editing", "memkit.audit")),
    ("integrations", ("memkit.githooks", "memkit.cigate", "memkit.agents", "memkit.report")),
    ("entry points", ("memkit.commands", "memkit.cli", "memkit.__main__",
                      "memkit.hookrun", "memkit.agent_hooks")),
)  # fmt: skip


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


MODULES = modules()


def _module(target: str) -> str:
    """The module an import names (`memkit.x.attr` -> `memkit.x`)."""
    while target not in MODULES:
        target = target.rpartition(".")[0]
    return target


def imports(name: str) -> set[str]:
    """Every memkit module `name` imports, at module level or inside functions."""
    out = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "memkit":
                out |= {_module(f"{node.module}.{a.name}") for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {_module(a.name) for a in node.names if a.name.split(".")[0] == "memkit"}
    return out - {name}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module's memkit imports (parsed when a test asks, not at collection, which
    every pytest-xdist worker does)."""
    return {name: imports(name) for name in MODULES}


def layer(name: str) -> int:
    for n, (_, prefixes) in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return n
    raise AssertionError(f"{name} is in no layer: add it to LAYERS in {__file__}")


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        if name != "memkit":
            layer(name)


def test_no_import_points_upward() -> None:
    upward = [
        f"{name} ({LAYERS[layer(name)][0]}) imports {dep} ({LAYERS[layer(dep)][0]})"
        for name, deps in sorted(graph().items())
        if name != "memkit"  # the package's lazy re-exports of its public API
        for dep in sorted(deps)
        if dep != "memkit" and layer(dep) > layer(name)
    ]
    assert upward == []


def test_no_import_cycle() -> None:
    """Tarjan's strongly connected components: any with two or more modules is a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph()[v] - {"memkit"}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph()):
        if v not in index:
            visit(v)
    assert cycles == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_says_what_it_holds(name: str) -> None:
    doc = ast.get_docstring(ast.parse(MODULES[name].read_text("utf-8")))
    assert doc and len(doc.split()) >= 5, f"{MODULES[name]} needs a docstring saying what it holds"


def test_module_sizes() -> None:
    sizes = {name: len(path.read_text("utf-8").splitlines()) for name, path in MODULES.items()}
    assert {n: s for n, s in sizes.items() if s > 350} == {}
    median = sorted(sizes.values())[len(sizes) // 2]
    assert median <= 150, f"median module size {median} lines"


def test_function_sizes() -> None:
    """No function or method over 60 lines, from `def` to its end (a click command's option
    decorators above it are declarations, not its body)."""
    long = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if (size := (node.end_lineno or node.lineno) - node.lineno + 1) > 60:
                long[f"{name}.{node.name}"] = size
    assert long == {}


def test_one_module_owns_each_outside_library() -> None:
    """Each heavy or outside library is imported by one module; others go through it."""
    owners = collections.defaultdict(set)
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                top = node.module.split(".")[0]
            elif isinstance(node, ast.Import):
                top = node.names[0].name.split(".")[0]
            else:
                continue
            if top in OUTSIDE:
                owners[top].add(name)
    assert {lib: sorted(names) for lib, names in owners.items() if len(names) > 1} == {}


OUTSIDE = frozenset(
    {"pygit2", "whoosh", "Stemmer", "jinja2", "markdown_it", "frontmatter", "mcp", "tree_sitter"}
    | {"yaml"}
    | {"numpy", "tokenizers", "safetensors", "wordllama"}
)
