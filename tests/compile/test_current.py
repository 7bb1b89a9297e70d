"""Whether the compiled files are current, told without compiling (memkit.compile.current):
never "current" when a compile would change something."""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import Invoke, copy_into, isolated, new_repo, write_memory

from memkit.clock import today
from memkit.compile import current, watched
from memkit.compile.plan import apply, plan
from memkit.store import Store, init, loading

TODAY = dt.date(2026, 11, 22)
CONFIG = '[compile]\ntargets = ["agents", "claude", "cursor", "copilot"]\n'


def memory(i: int, extra: str = "") -> str:
    paths = f"paths:\n- src/m{i % 2}/**\n" if i % 3 == 0 else ""
    return f"---\ntitle: Rule {i}\ntype: convention\n{paths}---\n\nBody {i}.\n{extra}"


@pytest.fixture(autouse=True)
def trusted_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(current, "RACY_NS", 0)  # files written by the test are trusted now


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    """13 memories for four targets, compiled once a module."""
    with isolated(tmp_path_factory):
        root = new_repo(tmp_path_factory, empty_git_dir)
        init(root)
        store = Store(root)
        (store.dir / "config.toml").write_text(CONFIG, encoding="utf-8")
        for i in range(12):
            write_memory(store, f"rule-{i:02d}", memory(i))
        imported = memory(99).replace("type:", "source: NOTES.md#setup\ntype:")
        write_memory(store, "imported", imported)
        (root / "NOTES.md").write_text("# Notes\n\n## Setup\n\nText.\n", encoding="utf-8")
        apply(plan(Store(root), today=TODAY))
    return root


@pytest.fixture
def compiled(built: Path, repo: Path, store: Store) -> Store:
    """A copy of `built` at `repo`, compiled again there: the compile that changes nothing
    records (the record names each file's inode, which a copy changes)."""
    copy_into(built, repo)
    store._config = None
    assert plan(Store(repo), today=TODAY).changes == ()  # this one records
    return store


def known(store: Store, today: dt.date = TODAY) -> bool:
    return bool(current.is_current(str(store.root), str(store.cache_dir), today, lambda: None))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_compile_that_changed_nothing_is_known_current(compiled: Store) -> None:
    assert (compiled.cache_dir / current.NAME).is_file()
    assert known(compiled)
    assert not known(compiled, TODAY + dt.timedelta(days=1))  # expiry dates may pass


def agents_edited(s: Store) -> None:
    text = (s.root / "AGENTS.md").read_text(encoding="utf-8")
    write(s.root / "AGENTS.md", text.replace("Body 1.", "Body one."))


def claude_linked(s: Store) -> None:
    (s.root / "CLAUDE.md").unlink()
    (s.root / "CLAUDE.md").symlink_to("AGENTS.md")


def nested_linked(s: Store) -> None:
    """Claude Code reads src/m0/AGENTS.md through the link: its rule file changes."""
    write(s.dir / "config.toml", CONFIG + "nested_agents = true\n")
    apply(plan(Store(s.root), today=TODAY))
    plan(Store(s.root), today=TODAY)
    assert (s.root / "src/m0/AGENTS.md").is_file() and known(s)
    (s.root / "src/m0/CLAUDE.md").symlink_to("AGENTS.md")


def touched(s: Store) -> None:
    path = s.dir / "rule-03.md"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1000))


CHANGES: dict[str, Callable[[Store], object]] = {
    "memory edited": lambda s: write_memory(s, "rule-01", memory(1, "More.\n")),
    "memory touched": touched,
    "memory added": lambda s: write_memory(s, "rule-50", memory(50)),
    "memory deleted": lambda s: (s.dir / "rule-02.md").unlink(),
    "config changed": lambda s: write(s.dir / "config.toml", CONFIG + "nested_agents = true\n"),
    "template override": lambda s: write(s.dir / "templates" / "index_entry.md.j2", "- x\n"),
    "compiled file edited": agents_edited,
    "compiled file deleted": lambda s: (s.root / "AGENTS.md").unlink(),
    "rule file planted": lambda s: write(s.root / ".cursor" / "rules" / "memkit-x.mdc", "x\n"),
    "other rule file added": lambda s: write(s.root / ".cursor" / "rules" / "mine.mdc", "x\n"),
    "shared file of another target": lambda s: write(s.root / "GEMINI.md", "# Gemini\n"),
    "link to AGENTS.md": claude_linked,
    "nested AGENTS.md": lambda s: write(s.root / "src" / "m0" / "AGENTS.md", "# Mine\n"),
    "source file edited": lambda s: write(s.root / "NOTES.md", "## Setup\n\n# Notes\n"),
    "aider's config": lambda s: write(s.root / ".aider.conf.yml", "read: [AGENTS.md]\n"),
    "zed's own rules": lambda s: write(s.root / ".rules", "Mine.\n"),
    "nested CLAUDE.md": lambda s: write(s.root / "src" / "m0" / "CLAUDE.md", "# Mine\n"),
    "nested CLAUDE.md linked": nested_linked,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_any_input_changed_is_not_known_current(compiled: Store, change: str) -> None:
    CHANGES[change](compiled)
    assert not known(compiled)
    apply(plan(Store(compiled.root), today=TODAY))
    plan(Store(compiled.root), today=TODAY)
    assert known(compiled) == (plan(Store(compiled.root), today=TODAY).changes == ())


def test_an_environment_override_is_an_input(
    compiled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMKIT_COMPILE_CLAUDE_MODE", "import")
    assert not known(compiled)


def test_a_memory_written_just_now_is_known_by_its_bytes(
    compiled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(current, "RACY_NS", 3_600_000_000_000)  # every file "just written"
    monkeypatch.setattr(loading, "RACY_NS", 3_600_000_000_000)
    # so the load reads every file, as it would files this new, however long the fixture took
    monkeypatch.setattr(loading, "_LAST", [])
    (compiled.cache_dir / loading.CACHE_NAME).unlink(missing_ok=True)
    record = compiled.cache_dir / current.NAME
    record.unlink()
    assert plan(Store(compiled.root), today=TODAY).changes == ()
    data = current.decode(record.read_bytes())
    assert data is not None
    assert "rule-01.md" in data["fresh"] and "config.toml" in data["fresh"]
    assert known(compiled)
    monkeypatch.setattr(current, "RACY_NS", 0)
    assert known(compiled)  # settled since: the stamps and the bytes still match
    # the same stamp with other bytes (a second write within the clock's tick) is not current
    data["fresh"]["rule-01.md"] = "0" * 64
    record.write_text(current.encode(data) or "", encoding="utf-8")
    assert not known(compiled)


def test_a_memory_just_written_is_recorded_when_the_load_starts_late(
    compiled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy machine: the store's load starts over two seconds after compile listed
    .memory/, so the load no longer counts a file written just before as recent."""
    monkeypatch.setattr(current, "RACY_NS", 2_000_000_000)
    monkeypatch.setattr(loading, "_LAST", [])
    late = SimpleNamespace(time_ns=lambda: time.time_ns() + 5_000_000_000)
    monkeypatch.setattr(loading, "time", late)  # the load's clock: five seconds on
    # The copy's files are recent by their change times: a cached one would leave the
    # record unwritten however the load timed it, so every file is read.
    (compiled.cache_dir / loading.CACHE_NAME).unlink(missing_ok=True)
    write_memory(compiled, "rule-01", memory(1, "More.\n"))
    assert apply(plan(Store(compiled.root), today=TODAY))  # the compile records once written
    data = current.decode((compiled.cache_dir / current.NAME).read_bytes())
    assert data is not None and "rule-01.md" in data["fresh"]
    assert known(compiled)


@pytest.mark.parametrize("kind", ["added", "edited", "deleted"])
def test_a_memory_changed_while_compile_ran_is_never_current(
    compiled: Store, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    real = loading.load

    def meddled(store: Store) -> loading.Loaded:
        loaded = real(store)  # compile has read the store: another process changes it
        if kind == "added":
            write_memory(compiled, "rule-60", memory(60))
        elif kind == "edited":
            write_memory(compiled, "rule-01", memory(1, "More.\n"))
        else:
            (compiled.dir / "rule-02.md").unlink()
        return loaded

    monkeypatch.setattr(loading, "load", meddled)
    plan(Store(compiled.root), today=TODAY)
    monkeypatch.setattr(loading, "load", real)
    assert not known(compiled)
    assert plan(Store(compiled.root), today=TODAY, record=False).changes


def test_a_compile_that_writes_records_what_it_left(compiled: Store) -> None:
    record = compiled.cache_dir / current.NAME
    write_memory(compiled, "rule-01", memory(1, "More.\n"))
    p = plan(Store(compiled.root), today=TODAY)
    assert p.changes and not known(compiled)
    apply(p)
    assert record.exists() and known(compiled)
    assert plan(Store(compiled.root), today=TODAY, record=False).changes == ()
    agents_edited(compiled)
    assert not known(compiled)


def test_a_rule_file_written_or_deleted_is_recorded(compiled: Store) -> None:
    new_scope = "---\ntitle: Lib rule\ntype: convention\npaths:\n- lib/**\n---\n\nLib.\n"
    write_memory(compiled, "rule-50", new_scope)  # a new scope: new rule files
    apply(plan(Store(compiled.root), today=TODAY))
    assert known(compiled)
    (compiled.dir / "rule-50.md").unlink()  # its rule file goes
    p = plan(Store(compiled.root), today=TODAY)
    assert any(f.new is None for f in p.changes)
    apply(p)
    assert known(compiled)


def test_output_changed_after_compile_wrote_it_is_not_recorded(
    compiled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = compiled.cache_dir / current.NAME
    record.unlink()
    write_memory(compiled, "rule-01", memory(1, "More.\n"))
    p = plan(Store(compiled.root), today=TODAY)
    real = current.again

    def meddled(root: str, seen: object) -> object:
        agents_edited(compiled)  # another process, between the write and the record
        return real(root, seen)  # type: ignore[arg-type]

    monkeypatch.setattr(current, "again", meddled)
    apply(p)
    assert not record.exists()


def test_a_plan_for_some_targets_or_never_applied_records_nothing(compiled: Store) -> None:
    record = compiled.cache_dir / current.NAME
    record.unlink()
    assert plan(Store(compiled.root), today=TODAY, targets=["agents"]).changes == ()
    assert not record.exists()
    write_memory(compiled, "rule-01", memory(1, "More.\n"))
    assert plan(Store(compiled.root), today=TODAY).changes
    assert not record.exists()


def test_staleness_warnings_are_compared_not_trusted(compiled: Store) -> None:
    before = current.Before(str(compiled.root), TODAY)
    before.watch(Store(compiled.root).load())
    record = str(compiled.cache_dir / current.NAME)
    before.record(record, {"rule-01": "src/a.py (body changed)"}, current.Outcome(["a note"], 3))
    root, cache = str(compiled.root), str(compiled.cache_dir)
    said = current.is_current(root, cache, TODAY, lambda: {"rule-01": "src/a.py (body changed)"})
    assert said == current.Outcome(["a note"], 3)
    assert not current.is_current(root, cache, TODAY, lambda: {})
    assert not current.is_current(root, cache, TODAY, lambda: None)

    def fails() -> dict[str, str]:
        raise RuntimeError("no repository")

    assert not current.is_current(root, cache, TODAY, fails)


@pytest.mark.parametrize(
    "planted",
    [b"", b"{", b"[]", b'{"version": 2}', b'{"version": 1, "seen": {"files": []}}',
     b'{"version": 1, "key": "x", "seen": {"files": {}, "folders": {}}}',
     b"memkit compile-current 4\n", b"memkit compile-current 4\nkey\tx\ntree\tx\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t-\nsaid\t1\nfs\tdir\tabsent\n",
     b"memkit compile-current 4\nkey\tx\nkey\tx\ntree\tx\nstale\t-\nsaid\t1\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t\nsaid\t1\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t-\ns\tid\twarning\nsaid\t1\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t-\nfile\ta\nsaid\t1\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t-\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t-\nsaid\t\xc2\xb2\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t-\nsaid\t1\nsaid\t1\n",
     b"memkit compile-current 4\nkey\tx\ntree\tx\nstale\t-\nnote\tx\nsaid\t1\n",
     b"memkit compile-current 3\nkey\tx\ntree\tx\nstale\t-\n"],
)  # fmt: skip
def test_a_mangled_record_is_not_current(compiled: Store, planted: bytes) -> None:
    (compiled.cache_dir / current.NAME).write_bytes(planted)
    assert not known(compiled)


def test_an_unreadable_folder_under_memory_is_never_current(
    compiled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    (compiled.dir / "private").mkdir()
    apply(plan(Store(compiled.root), today=TODAY))
    plan(Store(compiled.root), today=TODAY)
    assert known(compiled)
    real = os.open  # the listing opens each folder under .memory/ (as root, chmod cannot refuse)

    def refusing(path: str, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith("private"):
            raise PermissionError(13, "Permission denied", path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(current.os, "open", refusing)
    assert not known(compiled)


def test_memkit_compile_records_and_check_does_not(compiled: Store, run: Invoke) -> None:
    record = compiled.cache_dir / current.NAME
    record.unlink()
    write_memory(compiled, "rule-01", memory(1, "More.\n"))
    run("compile", "--check", code=1)
    run("compile", "--dry-run")
    assert not record.exists()
    run("compile")
    assert record.exists() and known(compiled, today())
    record.unlink()
    run("compile")  # nothing to change: recorded too
    assert known(compiled, today())


def round_trip(data: dict[str, object]) -> dict[str, object] | None:
    text = current.encode(data)
    assert text is not None
    return current.decode(text.encode("utf-8", "surrogateescape"))


def test_the_record_reads_back_as_it_was_written(compiled: Store) -> None:
    data = current.decode((compiled.cache_dir / current.NAME).read_bytes())
    assert data is not None and data["version"] == current.VERSION
    assert round_trip(data) == data
    shapes: dict[str, object] = {
        "version": current.VERSION, "key": "k", "tree": "t", "fresh": {"a.md": "0" * 64},
        "seen": {"files": {"AGENTS.md": "file 00", "x/\u00e9\udcff": "absent"},
                 "folders": {".cursor/rules": ["absent", "absent"],
                             ".claude/rules": ["dir", ["memkit-a.md", "file 1"], ["mine.md", ""]]}},
        "stale": {"rule-01": "src/a.py::f (body changed)"},
        "files": 12, "notes": ["AGENTS.md: over its budget", "x/\u00e9\udcff"],
    }  # fmt: skip
    for stale in (shapes["stale"], None, {}):
        assert round_trip({**shapes, "stale": stale}) == {**shapes, "stale": stale}
    for bad in ("a\tb", "a\nb", "a\rb"):  # what the lines cannot hold is not recorded
        assert current.encode({**shapes, "stale": {"rule-01": bad}}) is None
        assert current.encode({**shapes, "fresh": {bad: "0"}}) is None


def test_a_name_the_record_cannot_hold_leaves_no_record(compiled: Store) -> None:
    record = compiled.cache_dir / current.NAME
    record.unlink()
    write(compiled.root / ".cursor" / "rules" / "mine\tnotes.mdc", "My own rule.\n")
    apply(plan(Store(compiled.root), today=TODAY))
    plan(Store(compiled.root), today=TODAY)
    assert not record.exists() and not known(compiled)


def test_the_key_takes_today_as_a_date_or_its_text(compiled: Store) -> None:
    root = str(compiled.root)
    assert current.static_key(root, TODAY) == current.static_key(root, TODAY.isoformat())
    assert current.is_current(root, str(compiled.cache_dir), TODAY.isoformat(), lambda: None)


def test_files_linked_out_of_the_repository_or_into_git_are_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by benchmarks/adversarial.py: compile's record hashed a CLAUDE.md and a
    template override linked out of the repository (the safe-path layer refuses them)."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text("[core]\n", "utf-8")
    outside.mkdir()
    (outside / "CLAUDE.md").write_text("secret\n", "utf-8")
    (repo / "CLAUDE.md").symlink_to(outside / "CLAUDE.md")
    (repo / "GEMINI.md").symlink_to(repo / ".git" / "config")
    (repo / "AGENTS.md").write_text("inside\n", "utf-8")
    (repo / "rules").symlink_to(outside)  # a folder above the file leads out
    real_open = os.open

    def guarded(path: Any, *args: Any, **kwargs: Any) -> int:
        where = os.path.realpath(path)
        assert where.startswith(os.path.realpath(repo)) and ".git" not in where, f"read {path}"
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(current.os, "open", guarded)
    monkeypatch.setattr(current, "open", lambda path, *a, **k: guarded(path), raising=False)
    root = str(repo)
    real = os.path.realpath
    assert watched.file_state(root, "CLAUDE.md") == (
        f"outside via {real(outside / 'CLAUDE.md')} link"
    )
    assert watched.file_state(root, "rules/CLAUDE.md") == (
        f"outside via {real(outside / 'CLAUDE.md')}"
    )
    assert watched.file_state(root, "GEMINI.md") == f"outside via {real(repo / '.git/config')} link"
    listed = []
    monkeypatch.setattr(current.os, "listdir", lambda path: listed.append(path) or [])
    assert watched.folder_state(root, "rules") == ["outside", f"outside via {real(outside)} link"]
    assert listed == []
    digest = current.sha256(b"inside\n").hexdigest()
    assert watched.file_state(root, "AGENTS.md") == f"file {digest}"


def test_a_file_too_big_for_compile_is_known_by_size_and_time(
    compiled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("memkit.compile.tree.MAX_HASHED", 10)
    path = compiled.root / "BIG.md"
    path.write_bytes(b"x" * 11)
    st = path.stat()
    assert watched.file_state(str(compiled.root), "BIG.md") == f"big 11 {st.st_mtime_ns}"
    path.write_bytes(b"x" * 10)
    assert watched.file_state(str(compiled.root), "BIG.md").startswith("file ")


@pytest.mark.parametrize("bad", ["\t", "\n", "\r", "a\tb", "a\r\nb", "end\n"])
def test_a_cell_with_a_tab_or_line_break_is_not_recorded(bad: str) -> None:
    """encode refuses the record whichever cell holds it: the lines could not hold it."""
    base: dict[str, Any] = {
        "version": current.VERSION, "key": "k", "tree": "t", "fresh": {"a.md": "0" * 64},
        "seen": {"files": {"AGENTS.md": "file 00"},
                 "folders": {".claude/rules": ["dir", ["memkit-a.md", "file 1"], ["mine.md", ""]],
                             ".cursor/rules": ["absent", "absent"]}},
        "stale": {"rule-01": "src/a.py::f (body changed)"}, "files": 1, "notes": ["a note"],
    }  # fmt: skip
    assert current.encode(base) is not None
    cases = [
        {**base, "key": bad},
        {**base, "fresh": {f"x{bad}.md": "0"}},
        {**base, "fresh": {"a.md": bad}},
        {**base, "seen": {**base["seen"], "files": {f"A{bad}": "absent"}}},
        {**base, "seen": {**base["seen"], "files": {"A": f"file {bad}"}}},
        {**base, "seen": {**base["seen"], "folders": {"d": ["dir", [f"memkit{bad}", "x"]]}}},
        {**base, "seen": {**base["seen"], "folders": {"d": [f"error{bad}", "x"]}}},
        {**base, "stale": {f"id{bad}": "w"}},
        {**base, "stale": {"id": f"w{bad}"}},
        {**base, "notes": [f"a note{bad}"]},
    ]
    for data in cases:
        assert current.encode(data) is None, data


def test_memkit_compile_with_nothing_to_do_says_what_the_recorded_compile_said(
    compiled: Store, run: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record keeps the compile's notes and file count: `memkit compile` says them
    again without planning, and plans again once an input changes."""
    import memkit.compile.plan as planning

    write(compiled.dir / "broken.md", "---\ntitle: [\n---\n")  # a note: left out, invalid
    run("compile")
    (compiled.cache_dir / current.NAME).unlink()
    planned = run("compile")  # plans, changes nothing, records
    assert "invalid memory file(s)" in planned.stderr and "up to date (" in planned.stdout

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("planned although the record says nothing changed")

    with monkeypatch.context() as m:
        m.setattr(planning, "build", never)
        said = run("compile")
    assert (said.stdout, said.stderr) == (planned.stdout, planned.stderr)
    (compiled.dir / "broken.md").unlink()
    again = run("compile")  # an input changed: planned again
    assert again.stderr == "" and again.stdout == said.stdout


def test_a_rule_folder_s_files_are_known_as_each_alone_would_be(tmp_path: Path) -> None:
    """folder_state takes the folder's real path once; each entry's state is still the one
    file_state gives it alone (through a linked folder, a linked file, a way out)."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    (repo / "shared" / "rules").mkdir(parents=True)
    outside.mkdir()
    (outside / "x.md").write_text("secret\n", "utf-8")
    (repo / ".cursor").mkdir()
    (repo / ".cursor" / "rules").symlink_to(repo / "shared" / "rules")
    kept = repo / "shared" / "rules"
    (kept / "memkit-a.mdc").write_text("a\n", "utf-8")
    (kept / "memkit-b.mdc").symlink_to(outside / "x.md")
    (kept / "memkit-c.mdc").symlink_to("memkit-a.mdc")
    (kept / "memkit-d").mkdir()
    (kept / "mine.mdc").write_text("mine\n", "utf-8")
    root = str(repo)
    listing = watched.folder_state(root, ".cursor/rules")
    assert listing[0] == watched.file_state(root, ".cursor/rules")
    alone = [
        [
            name,
            watched.file_state(root, f".cursor/rules/{name}") if name.startswith("memkit") else "",
        ]
        for name in ("memkit-a.mdc", "memkit-b.mdc", "memkit-c.mdc", "memkit-d", "mine.mdc")
    ]
    assert listing[1:] == alone
    assert alone[0][1].endswith(f" via {os.path.realpath(kept / 'memkit-a.mdc')}")
    assert alone[1][1].startswith("outside") and alone[2][1].endswith(" link")
