from __future__ import annotations

import subprocess
import sys

import pytest

from memkit.search import Index
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


def test_many_updates_merge_segments(store: Store) -> None:
    index = Index(store)
    mem(store, "base", "Base", "words")
    index.refresh()
    for i in range(12):
        mem(store, f"m{i}", f"Memory {i}", f"round {i}")
        index.refresh()
    assert len(index._open()._segments()) <= 8
    assert len(ids(store, "round", limit=20)) == 12


@pytest.mark.parametrize("damage", ["toc", "segments", "manifest", "all"])
def test_damaged_index_is_rebuilt(store: Store, damage: str) -> None:
    mem(store, "one", "Search me", "findable")
    index = Index(store)
    index.refresh()
    targets = {
        "toc": index.ix_dir.glob("_MAIN_*.toc"),
        "segments": index.ix_dir.glob("*.seg"),
        "manifest": [index.manifest_path],
        "all": [],
    }[damage]
    for f in targets:
        f.write_bytes(b"garbage")
    if damage == "all":
        import shutil

        shutil.rmtree(index.dir)
    assert ids(store, "findable") == ["one"]


def test_rebuild(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    mem(store, "one", "Search me", "findable")
    assert Index(store).rebuild() == 1
    assert ids(store, "findable") == ["one"]
    monkeypatch.setattr("memkit.search.index.MP_MIN", 1)  # two writer processes, two segments
    for i in range(6):
        mem(store, f"m{i}", f"Memory {i}", f"findable {i}")
    assert Index(store).rebuild() == 7
    assert len(ids(store, "findable", limit=20)) == 7
    for i in range(20):  # updates: small segments merged, the two big ones kept
        mem(store, f"n{i}", f"New {i}", "findable")
        Index(store).refresh()
    assert len(Index(store)._open()._segments()) <= 8
    assert len(ids(store, "findable", limit=50)) == 27


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
