from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from memkit.search import Index
from memkit.search.index import NOTES
from memkit.store import Store
from tests.search.helpers import ids, mem


def test_incremental_updates(store: Store) -> None:
    index = Index(store)
    mem(store, "one", "First memory", "alpha")
    assert index.refresh() == "built 1"
    assert index.refresh() == "current"
    mem(store, "two", "Second memory", "beta")
    path = mem(store, "one", "First memory", "gamma words")
    assert index.refresh() == "updated 2"
    assert ids(store, "alpha") == []
    assert ids(store, "gamma") == ["one"]
    path.unlink()
    assert ids(store, "gamma") == []
    assert index.refresh() == "current"
    mem(store, "bad", "x", type="nope")  # invalid: left out of the index, not retried
    assert index.refresh() == "updated 1"
    assert index.refresh() == "current"
    assert ids(store, "beta") == ["two"]


def test_a_file_rewritten_in_place_is_seen(store: Store) -> None:
    """No folder changes when a file is rewritten in place: its hits are checked."""
    index = Index(store)
    mem(store, "one", "First memory", "alpha words")
    mem(store, "two", "Second memory", "alpha other")
    assert index.refresh() == "built 2"
    assert index.refresh() == "current"
    mem(store, "one", "First memory", "gamma words")  # same folder, new content
    assert ids(store, "alpha") == ["two"]
    assert ids(store, "gamma") == ["one"]
    assert index.refresh(full=True) == "current"


def test_a_memory_removed_while_the_index_lists_them_is_left_out(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by benchmarks/adversarial.py: `rm` between the listing and the stat of a
    file made a concurrent search (MCP search_memories) fail with a traceback."""
    from memkit import walk

    mem(store, "one", "First memory", "alpha words")
    gone = mem(store, "two", "Second memory", "alpha other")
    listed = walk.memory_entries

    def racing(root: str, bad: list[str] | None = None) -> Iterator[tuple[str, os.DirEntry[str]]]:
        for rel, entry in listed(root, bad):
            if entry.path == str(gone):
                gone.unlink()  # another process removes it just now
            yield rel, entry

    monkeypatch.setattr(walk, "memory_entries", racing)
    assert sorted(Index(store).scan()) == [".memory/one.md"]
    assert ids(store, "alpha") == ["one"]


def test_updates_keep_the_index_small_and_right(store: Store) -> None:
    index = Index(store)
    mem(store, "base", "Base", "words")
    index.refresh()
    for i in range(12):
        mem(store, f"m{i}", f"Memory {i}", f"round {i}")
        assert index.refresh() == "updated 1"
    mem(store, "m3", "Memory 3", "no longer")
    assert len(ids(store, "round", limit=20)) == 11
    assert index.refresh() == "current"


@pytest.mark.parametrize("damage", ["db", "state", "all", "trigger", "version", "legacy"])
def test_damaged_index_is_rebuilt(store: Store, damage: str) -> None:
    import shutil
    import sqlite3

    mem(store, "one", "Search me", "findable")
    index = Index(store)
    index.refresh()
    if damage == "db":
        index.db_path.write_bytes(b"garbage" * 100)
    elif damage == "state":
        index.state_path.write_bytes(b"{garbage")
    elif damage == "all":
        shutil.rmtree(index.dir)
    elif damage in ("trigger", "version"):
        con = sqlite3.connect(index.db_path)
        if damage == "trigger":  # a planted trigger would run on the next update
            con.execute("CREATE TRIGGER t AFTER DELETE ON docs BEGIN DELETE FROM files; END")
        else:
            con.execute("PRAGMA user_version = 99")
        con.commit()
        con.close()
    else:  # an older engine's folder and manifest: replaced
        (index.dir / "index").mkdir()
        (index.dir / "index" / "_MAIN_1.toc").write_bytes(b"old")
        (index.dir / "manifest.json").write_text("{}")
        index.state_path.unlink()
    assert ids(store, "findable") == ["one"]
    mem(store, "two", "Also me", "findable too")
    assert ids(store, "findable") == ["one", "two"]
    assert not (index.dir / "index").exists() and not (index.dir / "manifest.json").exists()
    if damage in ("db", "trigger", "version"):
        assert any("search index" in n for n in NOTES)
    NOTES.clear()


def test_rebuild(store: Store) -> None:
    mem(store, "one", "Search me", "findable")
    assert Index(store).rebuild() == 1
    assert ids(store, "findable") == ["one"]
    for i in range(6):
        mem(store, f"m{i}", f"Memory {i}", f"findable {i}")
    assert Index(store).rebuild() == 7
    assert len(ids(store, "findable", limit=20)) == 7


CONCURRENT = """
import datetime as dt, sys
from pathlib import Path
from memkit.search import search, Index
from memkit.store import Store
store = Store(sys.argv[1])
me = sys.argv[2]
for i in range(15):
    p = Path(sys.argv[1], ".memory", f"{me}-{i % 4}.md")
    p.write_text(f"---\\ntitle: Note {me} {i}\\n---\\n\\nshared words round {i}\\n")
    search(store, "shared words", today=dt.date(2026, 1, 1))
    if i == 7:
        Index(store).rebuild()
print("ok")
"""


def test_two_processes_search_and_index_at_once(store: Store) -> None:
    for i in range(20):
        mem(store, f"seed-{i}", f"Seed {i}", "shared words")
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT, str(store.root), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("p", "q")
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert (p.returncode, out) == (0, "ok\n"), err
    assert len(ids(store, "shared", limit=100)) == 28
