"""What kind of change each edit is, in every tree-sitter language: exported-ness and
modifiers are the signature, functions held by class fields have parameters, members'
doc comments are docs, redundant parentheses are formatting, and where moved code went
when the history can tell."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.staleness import check_store
from memkit.store import Store
from tests.conftest import git
from tests.staleness.test_staleness_languages import (
    TODAY,
    commit_all,
    link_status,
    remember,
    write,
)


def verdict(repo: Path, store: Store, path: str, before: str, after: str, symbol: str) -> str:
    """The state of a link to `path::symbol` once `before` became `after` (committed)."""
    write(repo, path, before)
    commit_all(repo, "code")
    remember(repo, store, [f"{path}::{symbol}"])
    write(repo, path, after)
    commit_all(repo, "edit")
    return link_status(store).state


FUNC = "function f(a: number) {\n  return a;\n}\n"
CLASS_F = "class F {\n  go() {}\n}\n"
EXPORTS = {
    "add export": (FUNC, "export " + FUNC),
    "remove export": ("export " + CLASS_F, CLASS_F),
    "export default": ("export " + CLASS_F, "export default " + CLASS_F),
    "export a variable": (
        "const f = (a: number) => a + 1;\n",
        "export const f = (a: number) => a + 1;\n",
    ),
    "declare": ("function f(a: number): void;\n", "declare function f(a: number): void;\n"),
    "export listed elsewhere": (FUNC, FUNC + "export { f };\n"),
    "export listed under another name": (FUNC + "export { f };\n", FUNC + "export { f as g };\n"),
    "export default listed": (FUNC + "export { f };\n", FUNC + "export default f;\n"),
    "const becomes let": ("export const f = 1;\n", "export let f = 1;\n"),
    "let becomes var": ("let f = 1;\n", "var f = 1;\n"),
    "export list removed": ("const f = 1;\nexport { f };\n", "const f = 1;\n"),
    "exported class decorator": (
        "@Injectable()\nexport " + CLASS_F,
        "@Injectable({ a: 1 })\nexport " + CLASS_F,
    ),
}


@pytest.mark.parametrize("case", sorted(EXPORTS))
def test_export_is_part_of_the_signature(repo: Path, store: Store, case: str) -> None:
    before, after = EXPORTS[case]
    symbol = "F" if "class F" in before else "f"
    assert verdict(repo, store, "src/m.ts", before, after, symbol) == "signature"


def test_reexport_from_another_module_is_not_this_symbols(repo: Path, store: Store) -> None:
    source = FUNC + 'export { f } from "./other";\n'
    assert verdict(repo, store, "src/m.ts", FUNC, source, "f") == "unchanged"


def test_export_in_javascript(repo: Path, store: Store) -> None:
    source = "export function f(a) {\n  return a;\n}\n"
    assert verdict(repo, store, "m.js", source, source.replace("export ", ""), "f") == "signature"


ARROW_FIELD = "class View {\n  handler = (e: Event) => {\n    this.go(e);\n  };\n}\n"


@pytest.mark.parametrize(
    ("after", "state"),
    [
        ("handler = (e: Event, f: number) => {", "signature"),
        ("handler = async (e: Event) => {", "signature"),
        ("handler = (e: Event): void => {", "signature"),
        ("handler = (e: Event) => {\n    this.stop(e);", "body"),
    ],
)
def test_arrow_function_class_field(repo: Path, store: Store, after: str, state: str) -> None:
    changed = ARROW_FIELD.replace("handler = (e: Event) => {", after)
    assert verdict(repo, store, "src/v.ts", ARROW_FIELD, changed, "View.handler") == state


def test_arrow_function_class_field_in_javascript(repo: Path, store: Store) -> None:
    source = "class View {\n  handler = (e) => {\n    this.go(e);\n  };\n}\n"
    changed = source.replace("(e)", "(e, f)")
    assert verdict(repo, store, "v.js", source, changed, "View.handler") == "signature"


MEMBER_DOCS = {
    "interface member": ("src/m.ts", "interface I {\n  /** The a. */\n  a: string;\n}\n", "I"),
    "class field": ("src/m.ts", "class C {\n  /** The a. */\n  a = 1;\n}\n", "C"),
    "class method": ("src/m.ts", "class C {\n  /** The a. */\n  a() {}\n}\n", "C"),
    "type literal": ("src/m.ts", "type T = {\n  /** The a. */\n  a: number;\n};\n", "T"),
    "parameter type literal": (
        "src/m.ts",
        "function f(o: {\n  /** The a. */\n  a: number;\n}) {\n  return o.a;\n}\n",
        "f",
    ),
    "decorated method": ("src/m.ts", "class C {\n  /** The a. */\n  @On()\n  a() {}\n}\n", "C.a"),
    "javascript class": ("m.js", "class C {\n  /** The a. */\n  a() {}\n}\n", "C"),
    "go struct field": ("m.go", "package m\n\ntype S struct {\n\t// The a.\n\tA int\n}\n", "S"),
    "go interface method": (
        "m.go",
        "package m\n\ntype I interface {\n\t// The a.\n\tA() int\n}\n",
        "I",
    ),
    "rust struct field": ("lib.rs", "pub struct S {\n    /// The a.\n    a: i32,\n}\n", "S"),
    "rust enum variant": ("lib.rs", "pub enum E {\n    /// The a.\n    A,\n}\n", "E"),
    "rust trait item": ("lib.rs", "pub trait T {\n    /// The a.\n    fn a(&self);\n}\n", "T"),
    "java field": ("A.java", "class A {\n    /** The a. */\n    int a;\n}\n", "A"),
    "java method": ("A.java", "interface A {\n    /** The a. */\n    void a();\n}\n", "A"),
}


@pytest.mark.parametrize("case", sorted(MEMBER_DOCS))
def test_doc_comments_of_members_are_docs(repo: Path, store: Store, case: str) -> None:
    path, source, symbol = MEMBER_DOCS[case]
    changed = source.replace("The a.", "The a, better said.")
    assert verdict(repo, store, path, source, changed, symbol) == "docs"


def test_a_comment_inside_a_body_is_not_a_doc(repo: Path, store: Store) -> None:
    source = "class C {\n  a() {\n    // step one\n    return 1;\n  }\n}\n"
    changed = source.replace("step one", "first step")
    assert verdict(repo, store, "m.ts", source, changed, "C") == "unchanged"


def test_typescript_member_decorators_are_the_signature(repo: Path, store: Store) -> None:
    source = "class C {\n  @On('a')\n  go() {\n    return 1;\n  }\n}\n"
    changed = source.replace("@On('a')", "@On('b')")
    assert verdict(repo, store, "m.ts", source, changed, "C.go") == "signature"


PARENS = [
    ("src/m.ts", "return (a + b);", "return a + b;", "unchanged"),
    ("src/m.ts", "return (a * b) + c;", "return a * b + c;", "unchanged"),
    (
        "src/m.ts",
        "const x = (a ? b : c);\n  return g((x));",
        "const x = a ? b : c;\n  return g(x);",
        "unchanged",
    ),
    ("src/m.ts", "return ((a)).b;", "return a.b;", "unchanged"),
    ("src/m.ts", "return (a + b) * c;", "return a + b * c;", "body"),
    ("src/m.ts", "return a - (b - c);", "return a - b - c;", "body"),
    ("src/m.ts", "return (a?.b).c;", "return a?.b.c;", "body"),
    ("src/m.ts", "return g((a, b));", "return g(a, b);", "body"),
    ("m.js", "if ((a)) {\n    return (a);\n  }", "if (a) {\n    return a;\n  }", "unchanged"),
]


@pytest.mark.parametrize(("path", "before", "after", "state"), PARENS)
def test_redundant_parentheses_are_formatting(
    repo: Path, store: Store, path: str, before: str, after: str, state: str
) -> None:
    source = f"function f(a, b, c) {{\n  {before}\n}}\n"
    changed = f"function f(a, b, c) {{\n  {after}\n}}\n"
    assert verdict(repo, store, path, source, changed, "f") == state


@pytest.mark.parametrize(
    ("path", "source", "symbol"),
    [
        (
            "m.go",
            "package m\n\nfunc f(a, b int) int {\n\tif (a > b) {\n\t\treturn (a + b)\n\t}\n"
            "\treturn (a)\n}\n",
            "f",
        ),
        (
            "lib.rs",
            "fn f(a: i32) -> i32 {\n    if (a > 1) {\n        return (a + 1);\n    }\n"
            "    (a * 2) + 1\n}\n",
            "f",
        ),
        (
            "A.java",
            "class A {\n    int f(int a) {\n        int b = (a);\n"
            "        return (a + b);\n    }\n}\n",
            "A.f",
        ),
    ],
)
def test_redundant_parentheses_in_go_rust_java(
    repo: Path, store: Store, path: str, source: str, symbol: str
) -> None:
    bare = (
        source.replace("(a > b)", "a > b")
        .replace("(a > 1)", "a > 1")
        .replace("(a + b)", "a + b")
        .replace("(a + 1)", "a + 1")
        .replace("(a * 2)", "a * 2")
        .replace("(a)", "a")
    )
    assert verdict(repo, store, path, source, bare, symbol) == "unchanged"
    write(repo, path, bare.replace("a + b", "a - b").replace("a * 2", "a * 3"))
    assert link_status(store).state == "body"


def test_rust_field_called_through_parentheses_is_not_a_method_call(
    repo: Path, store: Store
) -> None:
    source = "impl S {\n    fn f(&self) -> i32 {\n        (self.g)()\n    }\n}\n"
    changed = source.replace("(self.g)()", "self.g()")
    assert verdict(repo, store, "lib.rs", source, changed, "S.f") == "body"


@pytest.mark.parametrize(
    ("path", "before", "after", "symbol"),
    [
        ("lib.rs", "struct S {}\n", "pub struct S {}\n", "S"),
        (
            "lib.rs",
            "impl S {\n    pub fn f(&self) {}\n}\n",
            "impl S {\n    fn f(&self) {}\n}\n",
            "S.f",
        ),
        (
            "A.java",
            "class A {\n    void f() {}\n}\n",
            "class A {\n    private void f() {}\n}\n",
            "A.f",
        ),
        ("A.java", "class A {}\n", "public class A {}\n", "A"),
    ],
)
def test_visibility_is_the_signature(
    repo: Path, store: Store, path: str, before: str, after: str, symbol: str
) -> None:
    assert verdict(repo, store, path, before, after, symbol) == "signature"


CLASS = """export class Parser {
  constructor(private readonly text: string) {}

  parse(): string[] {
    return this.text.split(",").map((part) => part.trim());
  }
}
"""


def test_move_prefers_the_copy_that_arrived(repo: Path, store: Store) -> None:
    write(repo, "src/a.ts", CLASS + "\nexport const other = 1;\n")
    write(repo, "vendor/parser.ts", CLASS)  # identical code, there all along
    commit_all(repo, "code")
    remember(repo, store, ["src/a.ts::Parser"])
    write(repo, "src/a.ts", "export const other = 1;\n")
    write(repo, "src/parser.ts", CLASS)
    write(repo, "vendor/parser.ts", CLASS + "\nexport const version = 2;\n")  # touched too
    commit_all(repo, "move Parser")
    status = link_status(store)
    assert (status.state, status.moved_to, status.candidates) == (
        "moved",
        "src/parser.ts::Parser",
        (),
    )


@pytest.mark.parametrize("edited", [False, True], ids=["same code", "edited on the way"])
def test_move_prefers_the_file_git_renamed(repo: Path, store: Store, edited: bool) -> None:
    rest = "".join(f"export const value{i} = {i};\n" for i in range(30))
    write(repo, "src/a.ts", CLASS + rest)
    commit_all(repo, "code")
    remember(repo, store, ["src/a.ts::Parser"])
    git(repo, "mv", "src/a.ts", "src/b.ts")
    renamed = CLASS.replace("class Parser", "class Reader")
    if edited:  # a near move: the same likeness to both copies
        renamed = renamed.replace('split(",")', 'split(";")')
    write(repo, "src/b.ts", renamed + rest)
    write(repo, "src/c.ts", renamed)  # a copy arrived too
    commit_all(repo, "rename")
    status = link_status(store)
    assert (status.state, status.moved_to) == ("moved", "src/b.ts::Reader")


def test_equal_copies_that_all_arrived_stay_ambiguous(repo: Path, store: Store) -> None:
    write(repo, "src/a.ts", CLASS + "\nexport const other = 1;\n")
    commit_all(repo, "code")
    remember(repo, store, ["src/a.ts::Parser"])
    write(repo, "src/a.ts", "export const other = 1;\n")
    write(repo, "src/b.ts", CLASS)
    write(repo, "src/c.ts", CLASS)
    commit_all(repo, "two copies")
    status = link_status(store)
    assert (status.state, status.moved_to) == ("moved", None)
    assert status.candidates == ("src/b.ts::Parser", "src/c.ts::Parser")


TINY = [
    (
        "src/m.ts",
        "class A {\n  cache: string | null = null;\n  keep = 1;\n}\n"
        "class B {\n  cache: string | null = null;\n}\n",
        "  cache: string | null = null;\n  keep",
        "  keep",
        "A.cache",
    ),
    (
        "src/m.ts",
        "class A {\n  reset() {\n    return undefined;\n  }\n}\n"
        "class ATest {\n  testReset() {\n    return undefined;\n  }\n}\n",
        "  reset() {\n    return undefined;\n  }\n",
        "",
        "A.reset",
    ),
    (
        "m.py",
        "class A:\n    cache = None\n    keep = 1\n\n\nclass B:\n    cache = None\n",
        "    cache = None\n    keep",
        "    keep",
        "A.cache",
    ),
]


@pytest.mark.parametrize(("path", "source", "old", "new", "symbol"), TINY)
def test_a_tiny_body_deleted_is_removed(
    repo: Path, store: Store, path: str, source: str, old: str, new: str, symbol: str
) -> None:
    assert verdict(repo, store, path, source, source.replace(old, new, 1), symbol) == "removed"


def test_a_tiny_function_moved_under_its_name_is_moved(repo: Path, store: Store) -> None:
    write(repo, "src/a.ts", "export function noop() {}\nexport const other = 1;\n")
    commit_all(repo, "code")
    remember(repo, store, ["src/a.ts::noop"])
    write(repo, "src/a.ts", "export const other = 1;\n")
    write(repo, "src/b.ts", "export function noop() {}\n")
    commit_all(repo, "move")
    status = link_status(store)
    assert (status.state, status.moved_to) == ("moved", "src/b.ts::noop")


def test_javascript_class_fields_and_declared_functions_are_symbols(
    repo: Path, store: Store
) -> None:
    source = "class A {\n  limit = 10;\n}\n"
    assert verdict(repo, store, "m.js", source, source.replace("10", "20"), "A.limit") == "body"
    declared = "declare function load(path: string): string;\n"
    changed = declared.replace("path: string", "path: string, strict: boolean")
    write(repo, "types.d.ts", declared)
    commit_all(repo, "types")
    remember(repo, store, ["types.d.ts::load"], mid="n")
    write(repo, "types.d.ts", changed)
    commit_all(repo, "edit types")
    assert {s.id: s.links[0].state for s in check_store(store, today=TODAY)}["n"] == "signature"


OVERLOADED = """export function parse(text: string): Node;
export function parse(text: string, strict: true): Node | never;
export function parse(text: string, strict = false): Node {
  return build(text, strict);
}

export class Reader {
  read(path: string): string;
  read(path: string, encoding: null): Buffer;
  read(path: string, encoding?: string | null) {
    return load(path, encoding);
  }
}
"""


@pytest.mark.parametrize(
    ("old", "new", "symbol", "state"),
    [
        ("strict: true): Node | never", "strict: boolean): Node", "parse", "signature"),
        ("build(text, strict)", "build(text, !strict)", "parse", "body"),
        ("encoding: null): Buffer", "encoding: null): Uint8Array", "Reader.read", "signature"),
        ("load(path, encoding)", "load(path)", "Reader.read", "body"),
    ],
)
def test_typescript_overloads_are_the_signature(
    repo: Path, store: Store, old: str, new: str, symbol: str, state: str
) -> None:
    changed = OVERLOADED.replace(old, new)
    assert verdict(repo, store, "src/p.ts", OVERLOADED, changed, symbol) == state


@pytest.mark.parametrize(
    ("path", "before", "symbol"),
    [
        ("src/m.ts", "export const limit = 2147483647;\n", "limit"),
        ("m.js", "function f() {\n  return 0xFFFF + 1000.5;\n}\n", "f"),
        ("m.go", "package m\n\nfunc f() int {\n\treturn 1000000 + 0x7FFF\n}\n", "f"),
        ("lib.rs", "fn f() -> u64 {\n    1000000u64 + 0xFFFF\n}\n", "f"),
        (
            "A.java",
            "class A {\n    long f() {\n        return 1000000L + 0xFFFF;\n    }\n}\n",
            "A.f",
        ),
    ],
)
def test_digit_separators_are_formatting(
    repo: Path, store: Store, path: str, before: str, symbol: str
) -> None:
    after = (
        before.replace("2147483647", "2_147_483_647")
        .replace("1000000", "1_000_000")
        .replace("0xFFFF", "0xFF_FF")
        .replace("1000.5", "1_000.5")
        .replace("0x7FFF", "0x7F_FF")
    )
    assert after != before
    assert verdict(repo, store, path, before, after, symbol) == "unchanged"
    write(repo, path, after.replace("1_000", "2_000").replace("2_147", "3_147"))
    assert link_status(store).state == "body"  # the value still counts


TAKEN = {  # a file deleted, its names rewritten into a new one too changed for git's rename
    "ts": (
        "export let a: number\nexport let b: number\nexport let c: number\n",
        'import { x } from "./x"\n\nexport let a: string = x\nexport let b: string = x\n'
        "export let c: string = x\nexport let d: string = x\n",
    ),
    "py": (
        "a: int\nb: int\nc: int\n",
        "from x import x\n\na: str = x\nb: str = x\nc: str = x\n",
    ),
}


@pytest.mark.parametrize("suffix", sorted(TAKEN))
def test_deleted_file_whose_names_went_to_one_new_file(
    repo: Path, store: Store, suffix: str
) -> None:
    before, after = TAKEN[suffix]
    write(repo, f"old.{suffix}", before)
    write(repo, f"other.{suffix}", before.replace("a", "z"))  # holds some of the names
    commit_all(repo, "code")
    remember(repo, store, [f"old.{suffix}::a"])
    (repo / f"old.{suffix}").unlink()
    write(repo, f"new.{suffix}", after)
    commit_all(repo, "rewrite")
    status = link_status(store)
    assert (status.state, status.moved_to) == ("moved", f"new.{suffix}::a")
    write(repo, f"new2.{suffix}", after)  # two files taking the names over: no guess
    commit_all(repo, "copy")
    assert link_status(store).state == "removed"
