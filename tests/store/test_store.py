"""Store: finding the root, reading, writing and deleting memories, concurrent adds."""

from __future__ import annotations

import dataclasses
import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_memory

from memkit import memory as mm
from memkit.errors import MemkitError, MemoryNotFoundError, SecretError, StoreNotFoundError
from memkit.store import Store, find_root

TODAY = dt.date(2026, 11, 22)


def new(title: str, body: str = "Body.", **kw: object) -> mm.Memory:
    return mm.new(title, body, mid=mm.slugify(title), today=TODAY, **kw)


def test_find_root_walks_up(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    sub = store.root / "a" / "b"
    sub.mkdir(parents=True)
    assert find_root(sub) == store.root
    monkeypatch.setenv("MEMKIT_ROOT", str(sub))
    assert find_root(store.root) == sub.resolve()


def test_find_root_missing(tmp_path: Path) -> None:
    with pytest.raises(StoreNotFoundError, match="run `memkit init`"):
        find_root(tmp_path)


def test_add_get_put_delete(store: Store) -> None:
    saved = store.add(new("Use pygit2", tags=["git"]))
    assert saved.id == "use-pygit2" and saved.path == ".memory/use-pygit2.md"
    got = store.get("use-pygit2")
    assert got == saved
    put = store.put(dataclasses.replace(got, status="archived"))
    assert store.get("use-pygit2").status == "archived" == put.status
    assert store.delete("use-pygit2") == ".memory/use-pygit2.md"
    with pytest.raises(MemoryNotFoundError, match="no memory with id 'use-pygit2'"):
        store.get("use-pygit2")


def test_add_picks_a_free_id(store: Store) -> None:
    ids = [store.add(new("Same title")).id for _ in range(3)]
    assert ids == ["same-title", "same-title-2", "same-title-3"]


def test_add_refuses_secrets(store: Store) -> None:
    with pytest.raises(SecretError, match=r"\.memory/aws\.md:\d+: .*AWS access key"):
        store.add(new("AWS", "key AKIAABCDEFGHIJKLMNOP here"))
    assert not list(store.dir.glob("*.md"))
    assert store.add(new("AWS", "key AKIAABCDEFGHIJKLMNOP"), allow_secret=True).id == "aws"


def test_subfolders_and_skipped_dirs(store: Store) -> None:
    write_memory(store, "in-folder", "---\ntitle: A\n---\n", folder="team/backend")
    write_memory(store, "tmpl", "---\ntitle: T\n---\n", folder="templates")
    write_memory(store, "hidden", "---\ntitle: H\n---\n", folder=".cache")
    assert [m.id for m in store.memories()] == ["in-folder"]
    assert store.get("in-folder").path == ".memory/team/backend/in-folder.md"


def test_update_sets_updated(store: Store) -> None:
    store.add(new("A"))
    later = dt.date(2027, 1, 1)
    mem = store.update("a", today=later, tags=("x",))
    assert mem.tags == ("x",) and mem.updated == later
    assert store.update("a", today=dt.date(2028, 1, 1), tags=("x",)).updated == later


ADDER = """
import datetime as dt, sys
from memkit import memory as mm
from memkit.store import Store
s = Store(sys.argv[1])
for i in range(int(sys.argv[2])):
    s.add(mm.new("Race", f"from {sys.argv[3]} #{i}", mid="race", today=dt.date(2026, 1, 1)))
"""


def test_concurrent_adds_in_real_processes(store: Store) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", ADDER, str(store.root), "15", str(n)])
        for n in range(4)
    ]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    mems = store.memories()
    assert len(mems) == 60
    assert len({m.id for m in mems}) == 60
    assert sorted(m.text for m in mems) == sorted(
        f"from {n} #{i}" for n in range(4) for i in range(15)
    )
    assert not [p for p in store.dir.iterdir() if p.name.endswith(".tmp")]


def test_get_many_follows_path_hints_and_ignores_wrong_ones(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_memory(store, "deep", "---\ntitle: Deep\n---\n", folder="a/b")
    write_memory(store, "other", "---\ntitle: Other\n---\n", folder="c")
    store.hint_paths({"deep": ".memory/a/b/deep.md", "other": ".memory/a/b/deep.md"})
    store.hint_paths({"x": "../outside/x.md"})
    assert store._hints == {"deep": ".memory/a/b/deep.md"}
    walks: list[int] = []
    real_walk = store._walk
    monkeypatch.setattr(store, "_walk", lambda: walks.append(1) or real_walk())
    assert [m.title for m in store.get_many(["deep"])] == ["Deep"]
    assert walks == []  # found through the hint
    (store.dir / "a" / "b" / "deep.md").rename(store.dir / "c" / "deep.md")
    assert [m.path for m in store.get_many(["deep", "other"])] == [
        ".memory/c/deep.md",
        ".memory/c/other.md",
    ]
    assert walks == [1]  # the hint named a file that moved: one walk found it


def test_get_many_never_reads_a_hint_through_a_link(store: Store, tmp_path: Path) -> None:
    write_memory(store, "real", "---\ntitle: Real\n---\n", folder="a")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "real.md").write_text("---\ntitle: Planted\n---\n")
    (outside / "linked.md").write_text("---\ntitle: Planted\n---\n")
    (store.dir / "b").symlink_to(outside)  # a folder on the way is a link
    (store.dir / "a" / "linked.md").symlink_to(outside / "linked.md")  # the file is a link
    store.hint_paths({"real": ".memory/b/real.md", "linked": ".memory/a/linked.md"})
    assert [m.title for m in store.get_many(["real"])] == ["Real"]  # found by a walk
    with pytest.raises(MemkitError):
        store.get_many(["linked"])


@pytest.mark.parametrize(
    "path",
    [".memory/a.md", ".memory/x/y.md", "a b/c.md", ".memory/./a.md", ".memory//a.md",
     "/abs/a.md", ".memory/../a.md", ".memory/a.md/", "", ".", "a\\b.md"],
)  # fmt: skip
def test_a_plain_relative_path_is_what_rel_makes_of_it(store: Store, path: str) -> None:
    """put_many takes a memory's path as its relative path when _plain_rel says so."""
    from memkit.store.batch import _plain_rel

    plain = path in (".memory/a.md", ".memory/x/y.md", "a b/c.md")
    assert _plain_rel(path) == plain
    if plain:
        assert store.rel(store.root / path) == path
