"""astdump.dump must write exactly what ast.dump writes: fingerprints digest that text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memkit.staleness.astdump import dump

TRICKY = '''
from __future__ import annotations
import os.path as p, sys
x: int = 1; y = -2j; z = b"\\x00'"; w = ...; v = None; u = True
def f(a, /, b: "str" = 'q', *args, c=1.5e300, **kw) -> list[int] | None:
    """doc"""
    global x
    lambda: (yield)
    return [i async for i in g() if i] if a else {k: v for k, v in kw.items()}
async def g():
    async with a as (b, c), d:
        await e
    async for i in j: pass
    else: ...
class C(Base, metaclass=M):
    @dec(1)
    def m(self): del self.x; raise E from None
match cmd:
    case [1, *rest] if rest: pass
    case {"k": v, **others}: pass
    case Point(x=0) | None as q: pass
try: pass
except* (A, B) as e: pass
finally: pass
print(f"{x!r:>{width}} {y=}")
a[1:2, ::3] = c = d
assert x, "m"
with open(f) as h: pass
while not x: break
for (i, j) in k: continue
'''


def test_same_text_as_ast_dump_on_tricky_code() -> None:
    tree = ast.parse(TRICKY)
    assert dump(tree) == ast.dump(tree)
    for node in ast.walk(tree):
        assert dump(node) == ast.dump(node)


def test_same_text_as_ast_dump_on_real_files() -> None:
    root = Path(ast.__file__).parent
    files = sorted(root.glob("*.py"))[:60:3] + sorted(Path("memkit").rglob("*.py"))
    assert len(files) > 60
    for path in files:
        tree = ast.parse(path.read_bytes())
        for node in tree.body:
            assert dump(node) == ast.dump(node), path


def test_hand_built_nodes_with_missing_fields() -> None:
    for node in (ast.Name("x"), ast.Name(), ast.arguments(), ast.Constant(None), ast.Load()):
        assert dump(node) == ast.dump(node)


def test_refuses_what_is_not_a_node() -> None:
    with pytest.raises(TypeError):
        dump([ast.Load()])  # type: ignore[arg-type]


def test_a_shared_memo_gives_the_same_text() -> None:
    files = [*sorted(Path("memkit/staleness").glob("*.py")), Path(ast.__file__)]
    for path in files:
        tree = ast.parse(path.read_bytes())
        memo: dict[int, str] = {}
        nodes = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
        for node in [*reversed(nodes), tree, *nodes]:  # inner ones first, then outer
            assert dump(node, memo) == ast.dump(node), path
        assert memo  # statements were remembered
    tree = ast.parse(TRICKY)
    assert dump(tree, {}) == ast.dump(tree)


def test_nodes_built_by_hand_without_some_fields() -> None:
    """A node lacking a field (made by hand, not parsed) is dumped as ast.dump does."""
    nodes = [
        ast.Name("x"),
        ast.Name(id="x", ctx=ast.Load()),
        ast.Constant(1),
        ast.Constant(value=None, kind=None),
        ast.FunctionDef(name="f", body=[ast.Pass()]),
        ast.Call(func=ast.Name("g"), args=[ast.Constant(b"\x00"), ast.Constant(...)]),
        ast.arguments(),
        ast.alias("a"),
    ]
    for node in nodes:
        assert dump(node) == ast.dump(node)
