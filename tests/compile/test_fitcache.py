"""Budget fits remembered between runs (memkit.compile.fitcache): a compile that reuses them
gives the same bytes as a cold one, renders nothing when nothing changed, and never
trusts a stale, mangled or planted cache."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_into, isolated, new_repo, write_memory

from memkit.compile import fitcache
from memkit.compile.plan import Plan, apply, build
from memkit.compile.render import Renderer
from memkit.staleness.verdict import LinkStatus, MemoryStatus
from memkit.store import Store, init

TODAY = dt.date(2026, 11, 22)
CONFIG = (
    '[compile]\ntargets = ["agents", "claude", "cursor", "copilot", "windsurf"]\n'
    '[compile.budgets]\nagents = "3000 bytes"\nclaude = "60 lines"\ncursor = "40 lines"\n'
)


def memory(i: int, extra: str = "") -> str:
    kind = ("decision", "convention", "gotcha", "procedure")[i % 4]
    paths = f"paths:\n- src/m{i % 3}/**\n" if i % 5 == 0 else ""
    links = f"links:\n- src/f{i}.py\n" if i % 7 == 0 else ""
    return (
        f"---\ntitle: Rule number {i}\ntype: {kind}\npriority: {i % 3}\n{paths}{links}---\n\n"
        f"Body of rule {i}: {'words ' * (i % 9 + 3)}\n{extra}"
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    """60 memories for five targets, compiled once a module (the cache written)."""
    with isolated(tmp_path_factory):
        root = new_repo(tmp_path_factory, empty_git_dir)
        init(root)
        store = Store(root)
        (store.dir / "config.toml").write_text(CONFIG, encoding="utf-8")
        for i in range(60):
            write_memory(store, f"rule-{i:02d}", memory(i))
        apply(build(store, today=TODAY))
    return root


@pytest.fixture
def filled(built: Path, repo: Path) -> Store:
    """A copy of `built` at `repo` (times kept, the cache with them)."""
    copy_into(built, repo)
    return Store(repo)


def cache_file(store: Store) -> Path:
    return store.private_dir() / fitcache.NAME


def both(store: Store, **kw: object) -> tuple[Plan, Plan]:
    """(with the cache as it is, cold): the first run leaves the cache as it would."""
    warm = build(Store(store.root), today=TODAY, **kw)  # type: ignore[arg-type]
    saved = cache_file(store).read_bytes() if cache_file(store).exists() else None
    cache_file(store).unlink(missing_ok=True)
    cold = build(Store(store.root), today=TODAY, **kw)  # type: ignore[arg-type]
    if saved is not None:
        cache_file(store).write_bytes(saved)
    return warm, cold


def same(warm: Plan, cold: Plan) -> None:
    assert [(f.path, f.old, f.new) for f in warm.files] == [
        (f.path, f.old, f.new) for f in cold.files
    ]
    assert warm.notes == cold.notes
    assert warm.placed == cold.placed


def no_render(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    rendered: list[str] = []
    real = Renderer.render

    def counting(self: Renderer, name: str, /, **context: object) -> str:
        rendered.append(name)
        return real(self, name, **context)

    monkeypatch.setattr(Renderer, "render", counting)
    return rendered


def test_an_unchanged_store_compiles_from_the_cache_without_rendering(
    filled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cache_file(filled).is_file()
    rendered = no_render(monkeypatch)
    warm = build(Store(filled.root), today=TODAY)
    assert rendered == []
    assert warm.changes == ()
    assert any(p.cut or p.short for p in warm.placed)  # budgets did cut: the fits are real
    cache_file(filled).unlink()
    same(warm, build(Store(filled.root), today=TODAY))
    assert len(rendered) > 20


def edit(store: Store, mid: str, text: str) -> None:
    write_memory(store, mid, text)


def override(store: Store) -> None:
    (store.dir / "templates").mkdir(exist_ok=True)
    text = "- {{ title }} (`{{ memory.id }}`)\n"
    (store.dir / "templates" / "index_entry.md.j2").write_text(text, encoding="utf-8")


def delete_rules(store: Store) -> None:
    for path in (store.root / ".cursor" / "rules").glob("memkit*.mdc"):
        path.unlink()


CHANGES: dict[str, Callable[[Store], object]] = {
    "memory in full edited": lambda s: edit(s, "rule-00", memory(0, "More.\n")),
    "memory left out edited": lambda s: edit(s, "rule-58", memory(58, "More.\n")),
    "title edited": lambda s: edit(s, "rule-03", memory(3).replace("Rule number", "Rule no.")),
    "memory added": lambda s: edit(s, "rule-99", memory(99)),
    "memory pinned": lambda s: edit(s, "rule-40", memory(40).replace("type:", "pin: true\ntype:")),
    "memory removed": lambda s: (s.dir / "rule-01.md").unlink(),
    "budget changed": lambda s: (s.dir / "config.toml").write_text(
        CONFIG.replace("3000 bytes", "2500 bytes"), encoding="utf-8"
    ),
    "override template": override,
    "hand-written text around the section": lambda s: (s.root / "AGENTS.md").write_text(
        "# Project\n\nHand-written.\n\n" + (s.root / "AGENTS.md").read_text(encoding="utf-8"),
        encoding="utf-8",
    ),
    "section edited by hand": lambda s: (s.root / "AGENTS.md").write_text(
        (s.root / "AGENTS.md").read_text(encoding="utf-8").replace("Body of rule", "Body of"),
        encoding="utf-8",
    ),
    "rule file deleted": delete_rules,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_after_a_change_the_cached_compile_equals_a_cold_one(filled: Store, change: str) -> None:
    CHANGES[change](filled)
    warm, cold = both(filled)
    same(warm, cold)
    apply(cold)
    warm, cold = both(filled)  # and once more, from the cache this run wrote
    same(warm, cold)
    assert warm.changes == ()


def test_a_memory_beyond_what_the_fit_looked_at_changes_no_fit(
    filled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fit of a file cut to its budget depends on the memories it looked at, not on
    the body of one it left out far down its list."""
    for i in range(60, 260):
        write_memory(filled, f"rule-{i:03d}", memory(i))
    apply(build(Store(filled.root), today=TODAY))
    before = {p.path: p for p in build(Store(filled.root), today=TODAY).placed}
    agents = before["AGENTS.md"]
    deep = agents.cut[-1]
    text = (filled.root / ".memory" / f"{deep}.md").read_text(encoding="utf-8")
    (filled.root / ".memory" / f"{deep}.md").write_text(text + "\nMore.\n", encoding="utf-8")
    hits: dict[str, bool] = {}
    real = fitcache.FitCache.get

    def spy(self: fitcache.FitCache, path: str, *args: Any) -> fitcache.Fit | None:
        found = real(self, path, *args)
        hits[path] = found is not None
        return found

    monkeypatch.setattr(fitcache.FitCache, "get", spy)
    warm = build(Store(filled.root), today=TODAY)
    assert hits["AGENTS.md"]
    cache_file(filled).unlink()
    same(warm, build(Store(filled.root), today=TODAY))
    assert not hits["AGENTS.md"]  # cold: nothing to find


def test_staleness_warnings_are_part_of_the_key(filled: Store) -> None:
    apply(build(Store(filled.root), today=TODAY))
    stale = {
        "rule-00": MemoryStatus(
            "rule-00", "stale", (LinkStatus("src/f0.py", "changed", since="0123456789ab"),)
        )
    }
    warm, cold = both(filled, statuses=stale)
    same(warm, cold)
    assert warm.changes  # the warning is in the text
    assert b"Possibly out of date" in next(f.new for f in warm.changes if f.new)


@pytest.mark.parametrize(
    "planted",
    [
        b"not json",
        b"[]",
        b'{"version": 99, "files": {}}',
        b'{"version": 1, "files": {"AGENTS.md": "x"}}',
        b'{"version": 1, "files": {"AGENTS.md": [[0, "k", "fit", 0, 0, false, "d"]]}}',
        b'{"version": 1, "files": {"AGENTS.md": [[1, 2, 3]], "CLAUDE.md": [null]}}',
    ],
)
def test_a_mangled_cache_is_ignored(filled: Store, planted: bytes) -> None:
    cache_file(filled).write_bytes(planted)
    warm, cold = both(filled)
    same(warm, cold)
    assert warm.changes == ()


def test_a_cache_claiming_other_fits_or_other_text_is_not_trusted(filled: Store) -> None:
    """Entries whose key does not match are ignored; a matching one whose text is not the
    file on disk is rendered again, at the recorded fit."""
    data = json.loads(cache_file(filled).read_bytes())
    for entries in data["files"].values():
        for entry in entries:
            entry[3], entry[4] = 0, 0  # other fits under keys for other inputs
            entry[1] = "0" * 64
    cache_file(filled).write_text(json.dumps(data), encoding="utf-8")
    warm, cold = both(filled)
    same(warm, cold)
    assert warm.changes == ()
    agents = filled.root / "AGENTS.md"
    end = "<!-- memkit:end -->"
    text = agents.read_text(encoding="utf-8").replace(end, "x\n" + end)
    agents.write_text(text, encoding="utf-8")
    warm, cold = both(filled)
    same(warm, cold)
    assert [f.path for f in warm.changes] == ["AGENTS.md"]


def test_no_cache_when_an_override_is_a_link(filled: Store, tmp_path: Path) -> None:
    (filled.dir / "templates").mkdir()
    outside = tmp_path / "outside.j2"
    outside.write_text("x\n", encoding="utf-8")
    (filled.dir / "templates" / "section.md.j2").symlink_to(outside)
    assert fitcache.run_salt(filled.root) is None
    assert fitcache.FitCache.open(filled.private_dir(), filled.root) is None


def test_a_templates_folder_linked_out_is_never_read(
    filled: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by benchmarks/adversarial.py: the salt read the files of a linked-out
    .memory/templates/ before it noticed the link."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "section.md.j2").write_text("x\n", encoding="utf-8")
    (filled.dir / "templates").symlink_to(outside)
    real_open = open

    def guarded(path: Any, *args: Any, **kwargs: Any) -> Any:
        assert not os.path.realpath(path).startswith(str(outside)), f"read {path}"
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(fitcache, "open", guarded, raising=False)
    assert fitcache.run_salt(filled.root) is None


def test_the_salt_reads_the_overrides_render_reads() -> None:
    from memkit.compile import render

    assert fitcache.OVERRIDES == render.OVERRIDES
    assert fitcache.MAX_OVERRIDE_BYTES == render.MAX_TEMPLATE_BYTES
