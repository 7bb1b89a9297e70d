"""The pre-commit hook's derived index (memkit.githooks.index): linked files, kept current."""

from __future__ import annotations

from pathlib import Path

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
