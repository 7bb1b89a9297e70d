"""The compiler's core: selection, order, budgets, golden output per target, hand-written text."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest
from conftest import write_memory
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit import memory as mm
from memkit.compile.plan import FileChange, Plan, apply, build
from memkit.errors import ConfigError, MemkitError
from memkit.staleness.verdict import LinkStatus, MemoryStatus
from memkit.store import Store
from tests.memory.samples import FUZZ, FUZZ_TODAY, new_memories

TODAY = dt.date(2026, 11, 22)
GOLDEN = Path(__file__).parents[1] / "golden" / "compile"
ALL = ["agents", "claude", "cursor", "copilot", "gemini"]

MEMORIES = {
    "use-pygit2": "---\ntitle: Use pygit2 for git\ntype: decision\nlinks:\n"
    "- memkit/git.py::open_repo\n---\n\nSubprocess git is slow.\n\n# Why\n\nForks cost 5 ms.\n",
    "tabs-banned": "---\ntitle: Tabs are banned\ntype: convention\npaths:\n"
    "- src/**/*.{ts,tsx}\n---\n\nIndent with two spaces.\n",
    "sql-lowercase": "---\ntitle: SQL keywords in lowercase\ntype: convention\npaths:\n"
    "- '**/*.sql'\n---\n\nWrite `select`, not `SELECT`.\n",
    "api-gotcha": "---\ntitle: The API client retries twice\ntype: gotcha\npaths:\n"
    "- packages/api/**\n---\n\nSetext heading\n---\n\n```sh\nretry --twice\n",
    "pinned-note": "---\ntitle: Read CONTRIBUTING first\npin: true\n---\n\n"
    "It lists the release steps. <!-- memkit:end --> stays text.\n",
    "priority-proc": "---\ntitle: Release procedure\ntype: procedure\npriority: 5\n---\n\n"
    "1. Tag.\n2. Push.\n",
    "draft-one": "---\ntitle: Not reviewed yet\nstatus: draft\n---\n\nDraft.\n",
    "archived-one": "---\ntitle: Old\nstatus: archived\n---\n\nOld.\n",
    "replaced": "---\ntitle: Replaced\nstatus: superseded\nsuperseded_by: use-pygit2\n---\n\nX.\n",
    "expired-one": "---\ntitle: Freeze until launch\nexpires: 2026-01-01\n---\n\nNo merges.\n",
}
STALE = {
    "use-pygit2": MemoryStatus(
        "use-pygit2",
        "stale",
        (LinkStatus("memkit/git.py::open_repo", "signature", since="0123456789abcdef0123"),),
    )
}


def fill(store: Store, names: list[str] | None = None) -> None:
    for mid in names or sorted(MEMORIES):
        write_memory(store, mid, MEMORIES[mid])


def configure(store: Store, text: str) -> None:
    (store.dir / "config.toml").write_text(text, encoding="utf-8")
    store._config = None


def outputs(root: Path) -> dict[str, str]:
    skip = {".git", ".memory"}
    found = {}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in files:
            p = Path(dirpath) / name
            found[p.relative_to(root).as_posix()] = p.read_bytes().decode("utf-8")
    return dict(sorted(found.items()))


def check_golden(name: str, files: dict[str, str]) -> None:
    text = "".join(f"==> {path} <==\n{body}" for path, body in files.items())
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(text.encode("utf-8"))
    assert text == path.read_bytes().decode("utf-8")


def compile_(store: Store, **kw: object) -> list[str]:
    return apply(build(store, today=TODAY, **kw))  # type: ignore[arg-type]


def test_golden_every_target(store: Store) -> None:
    fill(store)
    configure(store, '[compile]\ntargets = ["agents", "claude", "cursor", "copilot", "gemini"]\n')
    compile_(store)
    check_golden("all-targets", outputs(store.root))


def test_golden_stale_annotation(store: Store) -> None:
    fill(store, ["use-pygit2", "pinned-note"])
    compile_(store, targets=["agents"], statuses=STALE)
    check_golden("stale", outputs(store.root))


def test_golden_claude_import_and_nested_agents(store: Store) -> None:
    fill(store)
    configure(
        store,
        '[compile]\ntargets = ["agents", "claude"]\nclaude_mode = "import"\nnested_agents = true\n',
    )
    compile_(store)
    check_golden("import-nested", outputs(store.root))


def test_cursor_always_rule_only_without_agents(store: Store) -> None:
    fill(store, ["pinned-note"])
    configure(store, '[compile]\ntargets = ["cursor"]\n')
    assert compile_(store) == [".cursor/rules/memkit.mdc"]
    text = (store.root / ".cursor/rules/memkit.mdc").read_text("utf-8")
    assert text.startswith("---\ndescription: Project memory\nalwaysApply: true\n---\n")


def test_selection_and_order(store: Store) -> None:
    fill(store)
    text = (compile_(store, targets=["agents"]), (store.root / "AGENTS.md").read_text())[1]
    ids = [line[15:-4] for line in text.splitlines() if line.startswith("<!-- memkit:id=")]
    assert ids == [
        "pinned-note",
        "priority-proc",
        "use-pygit2",
        "sql-lowercase",
        "tabs-banned",
        "api-gotcha",
    ]


def test_hand_written_text_kept_through_removal(store: Store) -> None:
    fill(store, ["pinned-note", "tabs-banned"])
    mine = "# My project\r\n\r\nHand-written, CRLF.\r\n"
    (store.root / "CLAUDE.md").write_bytes(mine.encode())
    (store.root / "AGENTS.md").write_text(
        "Intro\n<!-- memkit:begin -->\nold\n<!-- memkit:end -->\nOutro\n"
    )
    compile_(store, targets=["agents", "claude"])
    claude = (store.root / "CLAUDE.md").read_bytes()
    assert claude.startswith(mine.encode() + b"\n<!-- memkit:begin -->\n## Notes\n")
    agents = (store.root / "AGENTS.md").read_text()
    assert agents.startswith("Intro\n<!-- memkit:begin -->\n## Notes\n")
    assert agents.endswith("<!-- memkit:end -->\nOutro\n")
    for mid in ("pinned-note", "tabs-banned"):
        store.delete(mid)
    changed = compile_(store, targets=["agents", "claude"])
    assert changed == [".claude/rules/memkit-src-ts-tsx.md", "AGENTS.md", "CLAUDE.md"]
    assert (store.root / "CLAUDE.md").read_bytes() == (
        mine.encode() + b"\n<!-- memkit:begin -->\n<!-- memkit:end -->\n"
    )
    assert (store.root / "AGENTS.md").read_text() == (
        "Intro\n<!-- memkit:begin -->\n<!-- memkit:end -->\nOutro\n"
    )
    assert not (store.root / ".claude/rules/memkit-src-ts-tsx.md").exists()
    assert compile_(store, targets=["agents", "claude"]) == []


def test_owned_files_deleted_when_empty(store: Store) -> None:
    fill(store, ["pinned-note", "tabs-banned"])
    created = compile_(store)
    assert "AGENTS.md" in created and ".claude/rules/memkit-src-ts-tsx.md" in created
    store.delete("pinned-note")
    store.delete("tabs-banned")
    plan = build(store, today=TODAY)
    assert {(f.path, f.action) for f in plan.changes} == {(p, "delete") for p in created}
    apply(plan)
    assert outputs(store.root) == {}


def test_foreign_rule_file_left_alone(store: Store) -> None:
    fill(store, ["tabs-banned"])
    configure(store, '[compile]\ntargets = ["cursor"]\n')  # AGENTS.md off: Cursor needs its rule
    foreign = store.root / ".cursor/rules/memkit-src-ts-tsx.mdc"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("mine\n")
    (store.root / ".cursor/rules/memkit-other.mdc").write_text("also mine\n")
    plan = build(store, today=TODAY, targets=["cursor"])
    assert plan.changes == ()
    assert plan.notes == (
        ".cursor/rules/memkit-src-ts-tsx.mdc: left alone: it exists and memkit did not write it",
    )
    store.delete("tabs-banned")
    assert build(store, today=TODAY, targets=["cursor"]).changes == ()


def test_budget_shortens_then_counts(store: Store) -> None:
    for i in range(12):
        write_memory(
            store,
            f"m{i:02d}",
            f"---\ntitle: Memory {i}\npriority: {20 - i}\n---\n\n" + "A line of text.\n" * 3,
        )
    configure(store, '[compile]\ntargets = ["agents"]\nbudgets = { agents = "44 lines" }\n')
    plan = build(store, today=TODAY)
    assert plan.notes == (
        # under a line budget a left-out id costs a line like a title, so titles stay
        "AGENTS.md: over its budget of 44 lines: lowest-ranked memories 9 shortened to one "
        "line (m03, m04, m05, m06, m07, m08, m09, m10, m11)",
    )
    apply(plan)
    check_golden("budget", outputs(store.root))


def test_budget_over_even_when_empty(store: Store) -> None:
    fill(store, ["pinned-note"])
    (store.root / "AGENTS.md").write_text("x\n" * 50)
    configure(store, '[compile]\nbudgets = { agents = "10 lines" }\n')
    plan = build(store, today=TODAY, targets=["agents"])
    assert plan.notes[0] == "AGENTS.md: over its budget of 10 lines even without memories"
    assert plan.files[0].new is not None and plan.files[0].new.endswith(
        b"Left out to keep this file within its budget; read one with "
        b"`memkit show ID`:\n\n- `pinned-note`\n<!-- memkit:end -->\n"
    )


def test_deterministic_across_directories_and_listing_order(store: Store, tmp_path: Path) -> None:
    fill(store)
    compile_(store, statuses=STALE)
    other = tmp_path / "elsewhere" / "copy"
    other.mkdir(parents=True)
    Store(other).dir.mkdir()
    shutil.copy(store.dir / "config.toml", other / ".memory" / "config.toml")
    for mid in reversed(sorted(MEMORIES)):  # another creation order
        write_memory(Store(other), mid, MEMORIES[mid], folder="sub" if mid < "m" else "")
    cwd = os.getcwd()
    try:
        os.chdir(other / ".memory")
        apply(build(Store(other), today=TODAY, statuses=STALE))
    finally:
        os.chdir(cwd)
    assert outputs(other) == outputs(store.root)


def test_no_op_writes_nothing(store: Store) -> None:
    fill(store)
    compile_(store)
    before = {p: (store.root / p).stat().st_mtime_ns for p in outputs(store.root)}
    plan = build(store, today=TODAY)
    assert plan.changes == () and len(plan.files) == len(before)
    assert apply(plan) == []
    assert {p: (store.root / p).stat().st_mtime_ns for p in outputs(store.root)} == before


def test_apply_refuses_a_file_changed_meanwhile(store: Store) -> None:
    fill(store, ["pinned-note"])
    plan = build(store, today=TODAY, targets=["agents"])
    (store.root / "AGENTS.md").write_text("someone typed this\n")
    with pytest.raises(MemkitError, match=r"AGENTS\.md changed while memkit compiled"):
        apply(plan)
    assert (store.root / "AGENTS.md").read_text() == "someone typed this\n"


def test_plan_actions() -> None:
    root = Path("/x")
    files = (("a", None, b"1"), ("b", b"1", b"1"), ("c", b"1", None), ("d", b"1", b"2"))
    plan = Plan(root, tuple(FileChange(p, "agents", old, new) for p, old, new in files), ())
    assert [f.action for f in plan.files] == ["create", "unchanged", "delete", "update"]
    assert [f.path for f in plan.changes] == ["a", "c", "d"]


def test_template_override(store: Store) -> None:
    fill(store, ["pinned-note"])
    (store.dir / "templates").mkdir()
    (store.dir / "templates" / "index_entry.md.j2").write_text("unused\n")
    (store.dir / "templates" / "memory.md.j2").write_text("* {{ title }} ({{ memory.id }})\n")
    compile_(store, targets=["agents"])
    expected = "<!-- memkit:begin -->\n## Notes\n\n* Read CONTRIBUTING first (pinned-note)\n"
    assert expected + "<!-- memkit:end" in (store.root / "AGENTS.md").read_text()
    assert build(store, today=TODAY).notes == ()  # templates/ is not a memory folder


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('targets = ["vim"]', "[compile] targets = ['vim']: use a list of agents, claude"),
        ('claude_mode = "half"', 'claude_mode = \'half\': use "full" or "import"'),
        ('budgets = { agents = "lots" }', "budget 'lots' is not a size"),
        ('budgets = { emacs = "1 lines" }', "budgets must be a table keyed by target"),
        ("nested_agents = 1", "nested_agents = 1: use true or false"),
        ("colour = true", "[compile] has unknown key 'colour'"),
    ],
)
def test_config_errors(store: Store, config: str, message: str) -> None:
    configure(store, f"[compile]\n{config}\n")
    with pytest.raises(ConfigError) as e:
        build(store, today=TODAY)
    assert message in str(e.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a\n<!-- memkit:begin -->\nb\n", "has a `<!-- memkit:begin -->` line but no"),
        ("a\n<!-- memkit:end -->\n", "has a `<!-- memkit:end -->` line but no"),
    ],
)
def test_broken_markers(store: Store, text: str, message: str) -> None:
    fill(store, ["pinned-note"])
    (store.root / "AGENTS.md").write_text(text)
    with pytest.raises(MemkitError, match="AGENTS.md " + message.replace("`", ".")):
        build(store, today=TODAY, targets=["agents"])


def test_config_template_documents_every_key() -> None:
    import re
    import tomllib

    from memkit.compile.config import DEFAULT_BUDGETS, NAMES, Settings, settings
    from memkit.resources import read_template

    text = read_template("config.toml").split("[compile]", 1)[1]
    lines = [m.group(1) for m in re.finditer(r"^# (\[compile\.budgets\]|\w+ = .*)$", text, re.M)]
    data = tomllib.loads("[compile]\n" + "\n".join(lines))["compile"]
    assert set(data) == {"targets", "claude_mode", "nested_agents", "budgets"}
    assert set(data["budgets"]) == set(NAMES) and data["budgets"] == DEFAULT_BUDGETS
    got, default = settings(data), Settings()
    assert (got.targets, got.claude_mode, got.nested_agents) == (
        default.targets,
        default.claude_mode,
        default.nested_agents,
    )
    assert all(got.budget(t) == default.budget(t) for t in NAMES)


# Each example writes a store: a tenth of FUZZ (benchmarks/fuzz.py raises it for long runs).
@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 10))
@given(st.lists(new_memories(), min_size=1, max_size=6))
def test_compiler_over_random_stores(tmp_path_factory: object, mems: list[mm.Memory]) -> None:
    from memkit.compile import plan as compiler
    from memkit.store import Store, init

    root: Path = tmp_path_factory.mktemp("fuzz")  # type: ignore[attr-defined]
    init(root)
    store = Store(root)
    for mem in mems:
        try:
            store.add(mem, allow_secret=True)
        except MemkitError:
            continue
    plan = compiler.build(store, today=FUZZ_TODAY)
    compiler.apply(plan)
    for f in plan.files:
        if f.new is None:
            continue
        text = f.new.decode("utf-8")
        assert text.count("<!-- memkit:begin -->") == text.count("<!-- memkit:end -->") <= 1
        if text.startswith("---\n"):
            import yaml

            assert isinstance(yaml.safe_load(text.split("---\n")[1]), dict)
    again = compiler.build(store, today=FUZZ_TODAY)
    assert again.changes == ()  # compiling twice is a no-op: deterministic
