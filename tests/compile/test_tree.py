"""The stamps of .memory/ (memkit.compile.tree): one order for both walks, digests compared."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import write_memory

from memkit.compile import tree
from memkit.store import Store
from memkit.walk import tree_entries


def test_the_deferred_walk_lists_what_the_full_one_does(store: Store) -> None:
    write_memory(store, "a", "---\ntitle: A\n---\n")
    write_memory(store, "b", "---\ntitle: B\n---\n", folder="sub")
    (store.dir / "templates").mkdir()
    (store.dir / "templates" / "x.md").write_text("not a memory\n", encoding="utf-8")
    (store.dir / ".hidden.md").write_text("not a memory\n", encoding="utf-8")
    (store.dir / "link.md").symlink_to("a.md")
    full = tree_entries(str(store.root), defer=False)
    deferred = tree_entries(str(store.root), defer=True)
    assert full is not None and deferred is not None
    assert [rel for rel, _ in full] == [rel for rel, _ in deferred]
    left = sorted(rel for rel, st in deferred if st is None)
    assert left == ["a.md", "sub/b.md"]  # what the store's load stats and reads
    assert all(st is not None for _, st in full)  # every entry stamped, as the key needs


def test_same_tree_compares_stamps_and_recorded_bytes(store: Store) -> None:
    write_memory(store, "a", "---\ntitle: A\n---\n")
    root = str(store.root)
    entries = tree_entries(root, defer=False)
    assert entries is not None
    key = tree.tree_key([tree.stamp_line(rel, st) for rel, st in entries if st])
    digest = tree.file_digest(os.path.join(root, ".memory", "a.md"))
    assert tree.same_tree(root, key, {"a.md": digest})
    assert not tree.same_tree(root, key, {"a.md": "0" * 64})
    assert not tree.same_tree(root, "x", {})
    assert not tree.same_tree(root, key, [])
    write_memory(store, "b", "---\ntitle: B\n---\n")
    assert not tree.same_tree(root, key, {})


def test_only_a_regular_file_within_the_limit_has_a_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What compile's record digests is never a FIFO (which would block), a link, or a
    file so big that reading it whole would exhaust memory: those are unknown."""
    plain = tmp_path / "m.md"
    plain.write_bytes(b"memory")
    assert tree.file_digest(str(plain)) == tree.sha256(b"memory").hexdigest()
    os.mkfifo(tmp_path / "fifo.md")
    (tmp_path / "link.md").symlink_to(plain)
    assert tree.file_digest(str(tmp_path / "fifo.md")) is None
    assert tree.file_digest(str(tmp_path / "link.md")) is None
    assert tree.file_digest(str(tmp_path / "missing.md")) is None
    monkeypatch.setattr(tree, "MAX_HASHED", 5)
    assert tree.file_digest(str(plain)) is None
