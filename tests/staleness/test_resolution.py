"""Which definitions a link can name: every block kind at module and class level."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.staleness import python, treesitter
from memkit.store import Store
from tests.conftest import Invoke

SHIMS = b"""import sys
from typing import TYPE_CHECKING, overload

try:
    from logging import NullHandler
except ImportError:
    class NullHandler(object):
        def emit(self, record):
            pass

        class Inner:
            pass
else:
    def in_else():
        pass
finally:
    def in_finally():
        pass

try:
    pass
except* ValueError:
    def star():
        pass

if TYPE_CHECKING:
    from pathlib import Path
elif sys.version_info >= (3, 12):
    def main():
        return "new"
else:
    def main():
        return "old"

with open(__file__) as handle:
    CONST = 3

match sys.platform:
    case "linux":
        def platform_name():
            return "linux"
    case _:
        def platform_name():
            return "other"

for _ in range(1):
    def in_for():
        pass

while False:
    def in_while():
        pass


class Config:
    if sys.version_info >= (3, 9):
        def method(self):
            return 1
    try:
        LEVEL = 1
    except Exception:
        LEVEL = 2


@overload
def convert(x: int) -> int: ...
@overload
def convert(x: str) -> str: ...
def convert(x):
    return x
"""


def test_python_definitions_in_every_block_kind() -> None:
    names = set(python.parse(SHIMS).symbols)
    assert names >= {
        "NullHandler",
        "NullHandler.emit",
        "NullHandler.Inner",
        "star",
        "in_else",
        "in_finally",
        "main",
        "CONST",
        "platform_name",
        "in_for",
        "in_while",
        "Config",
        "Config.method",
        "Config.LEVEL",
        "convert",
    }


def _print_of(source: bytes, name: str) -> str:
    return str(python.parse(source).symbols[name])


def test_python_duplicate_names_first_in_source_order_wins() -> None:
    first = _print_of(b"def main():\n    return 'new'\n", "main")
    assert _print_of(SHIMS, "main") == first  # the `elif` branch, not the `else` fallback
    linux = _print_of(b"def platform_name():\n    return 'linux'\n", "platform_name")
    assert _print_of(SHIMS, "platform_name") == linux
    level = python.parse(b"class Config:\n    LEVEL = 1\n").symbols["Config.LEVEL"]
    assert python.parse(SHIMS).symbols["Config.LEVEL"] == level


def test_python_overload_stubs_yield_to_the_implementation() -> None:
    impl = _print_of(b"def convert(x):\n    return x\n", "convert")
    assert _print_of(SHIMS, "convert") == impl
    only_stubs = b"@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\n"
    assert _print_of(only_stubs, "f") == _print_of(b"@overload\ndef f(x: int) -> int: ...\n", "f")


JS_BLOCKS = b"""
if (typeof window === "undefined") {
  /** Polyfill. */
  function poly() { return 1; }
} else {
  function poly() { return 2; }
}
try {
  class Fancy { method() {} }
} catch (e) {
  const fallback = () => 4;
} finally {
  var fin = function () {};
}
{ function bare() {} }
function outer() { function inner() {} }
"""


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
def test_js_ts_definitions_in_blocks(language: str) -> None:
    pytest.importorskip("tree_sitter")
    parsed = treesitter.parse(JS_BLOCKS, language)
    assert set(parsed.symbols) == {
        "poly",
        "Fancy",
        "Fancy.method",
        "fallback",
        "fin",
        "bare",
        "outer",
    }
    alone = treesitter.parse(b"/** Polyfill. */\nfunction poly() { return 1; }\n", language)
    assert parsed.symbols["poly"] == alone.symbols["poly"]  # first wins, its doc comment read


def test_rust_foreign_blocks() -> None:
    pytest.importorskip("tree_sitter")
    source = b'extern "C" {\n    fn abs(x: i32) -> i32;\n}\n'
    source += b"mod m {\n    extern {\n        fn g();\n    }\n}\n"
    assert {"abs", "m", "m.g"} <= set(treesitter.parse(source, "rust").symbols)


UNNAMEABLE = b"""
declare module 'express-serve-static-core' { interface Request { user: string } }
declare module '../..' { interface ContextVariableMap { a: number } }
export const { setA, setB } = slice.actions;
const [x, y] = pair;
class C { [Symbol.iterator]() { return 1 } #secret = 1; ok() { return 2 } static s = 3 }
namespace NS { export function f() {} }
"""


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_only_what_a_link_can_name_is_a_symbol(language: str) -> None:
    """A string-named module, a computed key, a destructuring or a #private member is no
    symbol (nor is anything inside it): `--follow` could never write a link to it."""
    pytest.importorskip("tree_sitter")
    from memkit.memory.values import check_link

    symbols = sorted(treesitter.parse(UNNAMEABLE, language).symbols)
    assert symbols == ["C", "C.ok", "C.s", "NS", "NS.f"]
    for name in symbols:
        check_link(f"a.ts::{name}")


def test_unicode_names_are_symbols_a_link_can_name(run: Invoke, repo: Path, store: Store) -> None:
    """Identifiers in other scripts (Python, Go, Java and JavaScript allow them) link."""
    (repo / "tarifs.py").write_text("def café(prix):\n    return prix * 2\n", encoding="utf-8")
    (repo / "b.ts").write_text("export class Ñandú { méthode() { return 1 } }\n", "utf-8")
    links = ["--link", "tarifs.py::café"]
    if treesitter_available():
        links += ["--link", "b.ts::Ñandú.méthode"]
    mid = run("add", "Prix", "--body", "Doublé.", *links).stdout.strip()
    assert run("check", mid).stdout == "1 memories checked: 1 fresh\n"
    (repo / "tarifs.py").write_text("def café(prix):\n    return prix * 3\n", encoding="utf-8")
    assert "tarifs.py::café: body" in run("check", mid, code=1).stdout


def treesitter_available() -> bool:
    try:
        import tree_sitter  # noqa: F401
    except ImportError:
        return False
    return True
