"""Fingerprints of one file share their work (python.Dumps) and give the slow path's prints."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from memkit.staleness import python
from memkit.staleness.fingerprints import SymbolPrint, file_print

NESTED = '''
class Outer:
    """Outer doc."""

    x = 1

    class Inner:
        """Inner doc."""

        def deep(self):
            """Deep doc."""
            def local():
                """Local doc."""
                return 1
            return local()

    def method(self, a=1):
        """Method doc."""
        if a:
            return a
        return None

    async def other(self):
        """Other doc."""
        pass


def top(x):
    """Top doc."""
    return x
'''


def symbol_print(node: python.Def) -> SymbolPrint:
    """The slow path: one definition's print on its own, without python.Dumps' sharing."""
    docs: list[str] = []
    body = python._strip_docs(node.body, docs)
    return SymbolPrint.of(python.signature(node), python._dump(body), "\x00".join(docs))


def _defs(tree: ast.Module) -> list[ast.stmt]:
    return [n for n in ast.walk(tree) if isinstance(n, python.Def)]


def _files() -> list[Path]:
    return [*sorted(Path("memkit").rglob("*.py"))[:80], Path(ast.__file__)]


def test_shared_prints_equal_the_slow_path_in_any_order() -> None:
    rng = random.Random(7)
    for text in [NESTED.encode(), *(p.read_bytes() for p in _files())]:
        tree = ast.parse(text)
        defs = _defs(tree)
        slow = [symbol_print(n) for n in defs]
        for order in (defs, list(reversed(defs)), rng.sample(defs, len(defs))):
            shared = python.Dumps()
            got = {id(n): shared.print(n) for n in order}
            assert [got[id(n)] for n in defs] == slow


def test_parse_gives_the_slow_path_prints_for_classes_methods_and_file() -> None:
    checked = 0
    for path in _files():
        data = path.read_bytes()
        parsed = python.parse(data, str(path))
        tree = ast.parse(data)
        names = list(parsed.symbols)
        random.Random(3).shuffle(names)
        for name in names:
            parsed.symbols[name]  # fill the shared memo in a random order
        assert parsed.file == file_print(ast.dump(tree))
        defs: dict[str, python.Def] = {}
        for name, node in python._walk(tree.body, ""):  # the definition parse() picks
            if not isinstance(node, python.Def):
                continue  # a variable
            if name not in defs or (
                python._is_overload(defs[name]) and not python._is_overload(node)
            ):
                defs[name] = node
        checked += len(defs)
        for name, node in defs.items():
            assert parsed.symbols[name] == symbol_print(node), (path, name)
    assert checked > 500


def test_docs_of_nested_definitions_keep_their_order() -> None:
    tree = ast.parse(NESTED)
    outer = tree.body[0]
    assert isinstance(outer, ast.ClassDef)
    shared = python.Dumps()
    method = next(n for n in ast.walk(outer) if getattr(n, "name", "") == "deep")
    assert shared.print(method) == symbol_print(method)  # the inner one first
    assert shared.print(outer) == symbol_print(outer)
    assert shared.print(outer).doc != symbol_print(method).doc
