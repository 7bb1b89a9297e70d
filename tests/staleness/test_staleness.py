"""The staleness engine end to end: git awareness, memory states, check and verify commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memkit.staleness import check_range, check_staged, check_store, fingerprint, verify
from memkit.staleness.parsed import LinkError, Parsed
from memkit.staleness.verdict import LinkStatus
from memkit.store import Store
from tests.conftest import Invoke, git, write_memory
from tests.staleness.test_staleness_languages import TODAY, commit_all, remember, write

CODE = '''class Outer(Base):
    """Outer docs."""

    class Inner:
        def method(self):
            return compute(1, 2)


def top(x):
    return x * 2
'''


def states(store: Store) -> list[tuple[str, str, list[str]]]:
    return [(s.id, s.state, [x.state for x in s.links]) for s in check_store(store, today=TODAY)]


def test_repo_without_commits(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    remember_uncommitted(repo, store, ["a.py::top", "a.py::Outer.Inner.method"])
    assert store.get("m").verified is not None
    assert store.get("m").verified.commit is None  # type: ignore[union-attr]
    assert states(store) == [("m", "fresh", ["unchanged", "unchanged"])]
    write(repo, "a.py", CODE.replace("x * 2", "x * 3"))
    assert states(store) == [("m", "stale", ["body", "unchanged"])]


def remember_uncommitted(repo: Path, store: Store, links: list[str]) -> None:
    import dataclasses

    from memkit import memory as mm

    mem = mm.new("T", "b", mid="m", today=TODAY, links=links)
    store.add(dataclasses.replace(mem, verified=fingerprint(repo, links, today=TODAY)))


def test_uncommitted_staged_and_reverted_changes(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"])
    write(repo, "a.py", CODE.replace("x * 2", "x * 3"))
    assert states(store) == [("m", "stale", ["body"])]
    git(repo, "add", "a.py")
    assert states(store) == [("m", "stale", ["body"])]
    git(repo, "checkout", "HEAD", "--", "a.py")
    assert states(store) == [("m", "fresh", ["unchanged"])]


def test_class_links(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::Outer", "a.py::Outer.Inner", "a.py::top"])
    write(repo, "a.py", CODE.replace('"""Outer docs."""', '"""Better docs."""'))
    assert states(store) == [("m", "fresh", ["docs", "unchanged", "unchanged"])]
    write(repo, "a.py", CODE.replace("Outer(Base)", "Outer(Base, Mixin)"))
    assert states(store) == [("m", "stale", ["signature", "unchanged", "unchanged"])]
    write(repo, "a.py", CODE.replace("1, 2", "1, 3"))
    assert states(store) == [("m", "stale", ["body", "body", "unchanged"])]


def test_trivial_body_is_not_a_move(repo: Path, store: Store) -> None:
    write(repo, "a.py", "def a():\n    pass\n\n\ndef b(x):\n    pass\n")
    commit_all(repo, "code")
    remember(repo, store, ["a.py::a"])
    write(repo, "a.py", "def b(x):\n    pass\n")
    commit_all(repo, "drop a")
    [status] = check_store(store, today=TODAY)
    assert status.links[0].state == "removed"


def test_memory_states(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"], mid="linked")
    write_memory(store, "plain", "---\ntitle: Plain\n---\ntext\n")
    write_memory(store, "old", "---\ntitle: Old\nexpires: 2026-01-01\n---\ntext\n")
    write_memory(store, "due", "---\ntitle: Due\nreview_after: 2026-02-01\n---\ntext\n")
    write_memory(store, "never", "---\ntitle: Never\nlinks: [a.py::top]\n---\ntext\n")
    assert states(store) == [
        ("due", "review-due", []),
        ("linked", "fresh", ["unchanged"]),
        ("never", "unverified", ["unverified"]),
        ("old", "expired", []),
        ("plain", "fresh", []),
    ]
    assert [s.id for s in check_store(store, today=TODAY, ids=["plain", "due"])] == [
        "due",
        "plain",
    ]


def test_fingerprint_errors(repo: Path) -> None:
    write(repo, "a.py", CODE)
    write(repo, "x.rb", "def f; end\n")
    with pytest.raises(LinkError, match=r"no file b\.py in .*; write the path relative"):
        fingerprint(repo, ["b.py::top"])
    with pytest.raises(LinkError, match=r"a\.py defines no symbol 'tops' \(did you mean top\?\)"):
        fingerprint(repo, ["a.py::tops"])
    with pytest.raises(LinkError, match=r"link the whole file instead \(`--link x\.rb`\)"):
        fingerprint(repo, ["x.rb::f"])
    assert fingerprint(repo, ["x.rb"]).fingerprints["x.rb"].startswith("file:")


def test_check_staged(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    write(repo, "b.py", "def other():\n    return 1\n")
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top", "a.py::Outer", "b.py"])
    write(repo, "a.py", CODE.replace("x * 2", "x * 3"))
    write(repo, "b.py", "def other():\n    return 2\n")
    git(repo, "add", "a.py")  # b.py changed but not staged
    since = git(repo, "rev-parse", "HEAD~1").strip()
    assert check_staged(store) == [("m", LinkStatus("a.py::top", "body", None, since))]


def test_check_range(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"], mid="m")
    remember(repo, store, ["a.py::Outer"], mid="n")
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "a.py", CODE.replace("x * 2", "x * 3").replace("1, 2", "1, 3"))
    commit_all(repo, "change")
    verify(store, ["n"], today=TODAY)  # n was re-checked against the new code
    commit_all(repo, "verify n")
    assert [(s.id, [x.state for x in s.links]) for s in check_range(store, base, "HEAD")] == [
        ("m", ["body"])
    ]
    write(repo, "a.py", CODE.replace("Outer(Base)", "Outer(Other)"))
    assert [(s.id, s.state) for s in check_range(store, base, None)] == [("n", "stale")]


def test_check_command(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top", "a.py::Outer"], mid="m")
    write_memory(store, "plain", "---\ntitle: Plain\n---\ntext\n")
    assert run("check").stdout == "2 memories checked: 2 fresh\n"
    since = git(repo, "rev-parse", "HEAD~1").strip()
    write(repo, "a.py", CODE.replace("def top(x)", "def top(x, y)"))
    out = run("check", code=1).stdout
    assert out == (
        f"m: stale\n  a.py::top: signature since {since[:12]}\n"
        "2 memories checked: 1 fresh, 1 stale\n"
    )
    assert run("check", "plain").stdout == "1 memories checked: 1 fresh\n"
    data = json.loads(run("check", "--json", "m", code=1).stdout)
    assert data == [
        {
            "id": "m",
            "state": "stale",
            "active": True,
            "links": [
                {"link": "a.py::top", "state": "signature", "moved_to": None, "since": since},
                {"link": "a.py::Outer", "state": "unchanged", "moved_to": None, "since": since},
            ],
        }
    ]
    assert "no memory with id 'nope'" in run("check", "nope", code=2).stderr


def test_verify_command_follow_and_commit(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"], mid="m")
    git(repo, "mv", "a.py", "b.py")
    commit_all(repo, "rename")
    assert "a.py::top: moved to b.py::top" in run("check", code=1).stdout
    err = run("verify", "m", code=1).stderr
    assert err.startswith(".memory/m.md:") or err.startswith("memkit: .memory/m.md:")
    assert "no file a.py" in err and "moved to b.py::top: pass --follow" in err
    head = git(repo, "rev-parse", "HEAD").strip()
    out = run("verify", "m", "--follow", "--commit").stdout
    assert out.startswith(f"verified m at {head[:12]}\ncommitted ")
    assert out.endswith(" memkit: verify m\n")
    assert store.get("m").links == ("b.py::top",)
    assert run("check").stdout == "1 memories checked: 1 fresh\n"
    assert git(repo, "status", "--porcelain") == ""
    run("verify", code=2)


def test_add_records_fingerprints(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    run("add", "Top doubles", "--link", "a.py::top", "-b", "x")
    v = store.get("top-doubles").verified
    assert v is not None and v.commit == git(repo, "rev-parse", "HEAD").strip()
    assert list(v.fingerprints) == ["a.py::top"]
    err = run("add", "Bad", "--link", "a.py::nope", "-b", "x", code=2).stderr
    assert err.startswith("memkit: link 'a.py::nope': a.py defines no symbol 'nope'")
    assert not store.exists("bad")


def test_rename_in_work_tree_only(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top", "a.py"])
    (repo / "a.py").rename(repo / "b.py")  # not staged, b.py untracked
    [status] = check_store(store, today=TODAY)
    assert [(x.state, x.moved_to) for x in status.links] == [
        ("moved", "b.py::top"),
        ("moved", "b.py"),
    ]


def test_memories_verified_at_different_commits(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"], mid="early")
    write(repo, "a.py", CODE.replace("x * 2", "x * 3"))
    commit_all(repo, "change top")
    remember(repo, store, ["a.py::top"], mid="late")
    write(repo, "a.py", CODE.replace("x * 2", "x * 3").replace("1, 2", "1, 4"))
    assert states(store) == [("early", "stale", ["body"]), ("late", "fresh", ["unchanged"])]


def test_module_and_class_variables(repo: Path, store: Store) -> None:
    code = "LIMIT: int = 10\n\n\nclass C:\n    size = 3\n"
    write(repo, "v.py", code)
    commit_all(repo, "code")
    remember(repo, store, ["v.py::LIMIT", "v.py::C.size"])
    write(repo, "v.py", code.replace("10", "11").replace("size = 3", "size = (3)  # same"))
    assert states(store) == [("m", "stale", ["body", "unchanged"])]
    write(repo, "v.py", code.replace("int", "float"))
    assert states(store) == [("m", "stale", ["signature", "unchanged"])]


def test_trailing_comment_is_not_doc(repo: Path, store: Store) -> None:
    code = "fn a() -> i32 { 1 } // about a\nfn b() -> i32 { 2 }\n"
    write(repo, "lib.rs", code)
    commit_all(repo, "code")
    remember(repo, store, ["lib.rs::b"])
    write(repo, "lib.rs", code.replace("about a", "all about a"))
    assert states(store) == [("m", "fresh", ["unchanged"])]


@pytest.mark.parametrize(
    ("language", "source", "names"),
    [
        (
            "typescript",
            "export const handler = async (r: R): Promise<S> => ok(r);\n"
            "export default function main() {}\ninterface Props { a: string }\n"
            "type Id = string;\nenum Color { Red }\nnamespace NS { export function inner() {} }\n"
            "export abstract class A<T> { private x = 1; abstract run(): void; make() {} }\n",
            ["A", "A.make", "A.run", "A.x", "Color", "Id", "NS", "NS.inner", "Props", "handler",
             "main"],
        ),
        ("tsx", "const App = () => <div/>;\nfunction F() { return <a/>; }\n", ["App", "F"]),
        (
            "go",
            "package p\ntype S struct{}\ntype I interface{ M() }\nfunc (s S) V() {}\n"
            "func (s *S) P() {}\nfunc F[T any](x T) {}\n",
            ["F", "I", "S", "S.P", "S.V"],
        ),
        (
            "java",
            "class A { class B { void m() {} } interface C {} enum E { X; void f() {} } A() {} }\n"
            "record R(int x) { R { } }\n",
            ["A", "A.A", "A.B", "A.B.m", "A.C", "A.E", "A.E.f", "R", "R.R"],
        ),
        (
            "rust",
            "mod m { pub fn f() {} }\ntrait T { fn g(&self); fn h(&self) {} }\n"
            "impl<X> Foo<X> { fn k() {} }\nimpl T for Bar { fn g(&self) {} }\n"
            "const C: i32 = 1;\nmacro_rules! mac { () => {} }\n",
            ["Bar.g", "C", "Foo.k", "T", "T.g", "T.h", "m", "m.f", "mac"],
        ),
        (  # the implementing type's own name: a primitive, a path's last part, no lifetime
            "rust",
            "impl FromBytes for u64 { fn from(b: u8) -> u64 { 0 } }\nimpl str { fn s() {} }\n"
            "impl<'v> kv::Value<'v> { fn from_debug() {} }\n"
            "impl<'a> Visitor for fmt::DebugMap<'a> { fn visit(&self) {} }\n"
            "impl<'a> Into<u8> for &'a Bar { fn into(self) -> u8 { 0 } }\n",
            ["Bar.into", "DebugMap.visit", "Value.from_debug", "str.s", "u64.from"],
        ),
    ],
)  # fmt: skip
def test_tree_sitter_symbol_names(language: str, source: str, names: list[str]) -> None:
    from memkit.staleness import treesitter

    assert sorted(treesitter.parse(source.encode(), language).symbols) == names


def test_docstring_only_class_is_not_a_move(repo: Path, store: Store) -> None:
    write(repo, "e.py", 'class AError(Exception):\n    """A failed."""\n')
    write(repo, "f.py", 'class BError(Exception):\n    """B failed."""\n')
    commit_all(repo, "code")
    remember(repo, store, ["e.py::AError"])
    (repo / "e.py").unlink()
    write(repo, "f.py", 'class BError(Exception):\n    """B failed, really."""\n')
    assert states(store) == [("m", "stale", ["removed"])]


def test_a_link_edited_by_hand_to_a_newer_file_is_checked(repo: Path, store: Store) -> None:
    """The link names a file that did not exist at the verified commit: it is not assumed
    unchanged (a moved module whose links were rewritten in the memory file by hand)."""
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"])
    (repo / "pkg").mkdir()
    git(repo, "mv", "a.py", "pkg/b.py")
    commit_all(repo, "move")
    path = store.dir / "m.md"
    path.write_text(path.read_text().replace("a.py::top", "pkg/b.py::top"))
    assert states(store) == [("m", "fresh", ["unchanged"])]
    write(repo, "pkg/b.py", CODE.replace("x * 2", "x * 3"))
    commit_all(repo, "change")
    assert states(store) == [("m", "stale", ["body"])]


CALL_SIGNATURES = (  # generic call signatures with no `;` before them, then a function
    "export interface Subscribe<T> {\n  (listener: (s: T) => void): () => void\n"
    "  <S>(\n    listener: (s: S) => void,\n    selector?: (s: T) => S\n  ): () => void\n}\n"
    "export type SetState<T> = {\n  x: number\n  /** Sets. */\n"
    "  <K extends keyof T>(partial: K): void\n}\n"
    "export function create<T>(init: T): T {\n  return init\n}\n"
)


def test_typescript_generic_call_signature_after_a_member() -> None:
    from memkit.staleness import treesitter

    parsed = treesitter.parse(CALL_SIGNATURES.encode(), "typescript")
    assert sorted(parsed.symbols) == ["SetState", "Subscribe", "create"]
    again = treesitter.parse(CALL_SIGNATURES.replace("  <S>", "  ;<S>").encode(), "typescript")
    assert again.symbols["Subscribe"] == parsed.symbols["Subscribe"]  # a `;` is formatting
    written = treesitter.parse(
        CALL_SIGNATURES.replace("x: number", "x: number;").encode(), "typescript"
    )
    assert written.symbols["SetState"] == parsed.symbols["SetState"]  # its member's doc too


def test_jsx_like_lines_are_left_alone_when_the_file_parses() -> None:
    from memkit.staleness import treesitter

    source = b"export const a = b\n<c>(d)\nexport function f() {}\n"  # b < c > (d): valid
    assert sorted(treesitter.parse(source, "typescript").symbols) == ["a", "f"]


DEFAULT_OVERLOADS = (  # a .d.ts: an anonymous default function's overloads, then functions
    "/** Makes a thing. */\n"
    "export default function<T = unknown>(\n    value: T,\n"
    "    fn: (this: T, item: T) => void\n): T\n"
    "// the curried form\n"
    "export default function<T = unknown, U = unknown>(\n"
    "    fn: (this: T, item: T, extra: U) => void\n): (value: T, extra: U) => T\n"
    "export default function (fn: () => void): void\n\n"
    "/** Turns a flag on or off. */\n"
    "export function setFlag(on: boolean): void\n\n"
    "export function _(n: number): number\n"
)


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_typescript_anonymous_default_overloads(language: str) -> None:
    """`export default function<S>(...)` signatures (no name, no body) are read as
    TypeScript reads them, and the declarations after them are symbols."""
    from memkit.staleness import treesitter

    def parse(source: str) -> Parsed:
        return treesitter.parse(source.encode(), language)

    parsed = parse(DEFAULT_OVERLOADS)
    assert sorted(parsed.symbols) == ["_", "setFlag"]  # the anonymous ones have no name
    alone = parse(DEFAULT_OVERLOADS[DEFAULT_OVERLOADS.index("/** Turns") :])
    assert parsed.symbols == alone.symbols
    reformatted = parse(DEFAULT_OVERLOADS.replace("    value: T,\n", "value: T,"))
    assert reformatted.file == parsed.file
    retyped = parse(DEFAULT_OVERLOADS.replace("value: T,", "value: T[],"))
    assert retyped.file != parsed.file
    named = parse(DEFAULT_OVERLOADS.replace("function<", "function _<"))
    assert named.file != parsed.file  # no name was counted


def test_typescript_anonymous_default_overloads_links(repo: Path, store: Store) -> None:
    write(repo, "types/index.d.ts", DEFAULT_OVERLOADS)
    commit_all(repo, "code")
    remember(repo, store, ["types/index.d.ts::setFlag", "types/index.d.ts::_"])
    assert states(store) == [("m", "fresh", ["unchanged", "unchanged"])]
    write(repo, "types/index.d.ts", DEFAULT_OVERLOADS.replace("on: boolean", "on?: boolean"))
    assert states(store) == [("m", "stale", ["signature", "unchanged"])]


def test_tsx_generic_call_signature_after_a_member() -> None:
    """The `;` repair reads .tsx files as it reads .ts ones: a `;` is formatting there too."""
    from memkit.staleness import treesitter

    parsed = treesitter.parse(CALL_SIGNATURES.encode(), "tsx")
    assert sorted(parsed.symbols) == ["SetState", "Subscribe", "create"]
    again = treesitter.parse(CALL_SIGNATURES.replace("  <S>", "  ;<S>").encode(), "tsx")
    assert again.symbols["Subscribe"] == parsed.symbols["Subscribe"]
    written = treesitter.parse(CALL_SIGNATURES.replace("x: number", "x: number;").encode(), "tsx")
    assert written.symbols["SetState"] == parsed.symbols["SetState"]


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_typescript_anonymous_default_abstract_class(language: str) -> None:
    """`export default abstract class {...}`: anonymous, as `export default class {...}`
    is, and the declarations after it are symbols."""
    from memkit.staleness import treesitter

    source = (
        "export default abstract class<T> extends Base<T> {\n  run(): void {}\n"
        "  abstract go(): T\n}\nexport class _ {\n  m(): void {}\n}\n"
    )
    parsed = treesitter.parse(source.encode(), language)
    assert sorted(parsed.symbols) == ["_", "_.m"]
    plain = treesitter.parse(source.replace("abstract class", "class").encode(), language)
    assert parsed.symbols["_.m"] == plain.symbols["_.m"]
