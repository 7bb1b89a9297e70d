"""The pre-commit hook's derived index (memkit.githooks.index): linked files, kept current."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import write_memory

from memkit.githooks import index as hook_index
from memkit.store import Store


def test_index_lists_linked_files_and_follows_changes(repo: Path, store: Store) -> None:
    write_memory(store, "a", "---\ntitle: A\nlinks: [src/a.py::f, docs]\n---\n")
    stamps = hook_index.memory_stamps(str(repo))
    assert hook_index.linked_files(str(repo), stamps) == ["docs", "src/a.py"]
    names = ["README", "docs/x.md", "src/a.py", "src/b.py", ".memory/z.md"]
    assert hook_index.relevant(names, ["docs", "src/a.py"]) == [*names[1:3], ".memory/z.md"]
    index = repo / ".git" / "memkit" / "hooks-index"
    index.write_text(hook_index._index_head(stamps) + "l x.py\n", encoding="utf-8")
    assert hook_index.linked_files(str(repo), stamps) == ["x.py"]  # trusted while stamps match
    write_memory(store, "b", "---\ntitle: B\nlinks: [src/b.py]\n---\n")
    stamps = hook_index.memory_stamps(str(repo))
    assert hook_index.linked_files(str(repo), stamps) == ["docs", "src/a.py", "src/b.py"]
    index.write_text(hook_index._index_head(stamps) + "garbage\n", encoding="utf-8")
    assert hook_index.linked_files(str(repo), stamps) == ["docs", "src/a.py", "src/b.py"]


def test_a_memory_file_deleted_while_listing_is_left_out(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file renamed or deleted between the listing and its stat made the hook crash."""
    write_memory(store, "kept", "---\ntitle: Kept\n---\nb\n")
    write_memory(store, "gone", "---\ntitle: Gone\n---\nb\n")
    listed = hook_index.memory_entries

    def listing_then_delete(root: str) -> Iterator[tuple[str, os.DirEntry[str]]]:
        entries = list(listed(root))
        (store.dir / "gone.md").unlink()  # after scandir saw it, before its stat
        yield from entries

    monkeypatch.setattr(hook_index, "memory_entries", listing_then_delete)
    assert sorted(hook_index.memory_stamps(str(store.root))) == [".memory/kept.md"]
