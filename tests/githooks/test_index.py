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
    assert hook_index.read_index(str(repo), stamps)[0] == ["docs", "src/a.py"]
    names = ["README", "docs/x.md", "src/a.py", "src/b.py", ".memory/z.md"]
    assert hook_index.relevant(names, ["docs", "src/a.py"]) == [*names[1:3], ".memory/z.md"]
    index = repo / ".git" / "memkit" / "hooks-index"
    index.write_text(hook_index._index_head(stamps) + "l x.py\n", encoding="utf-8")
    assert hook_index.read_index(str(repo), stamps)[0] == ["x.py"]  # trusted while stamps match
    write_memory(store, "b", "---\ntitle: B\nlinks: [src/b.py]\n---\n")
    stamps = hook_index.memory_stamps(str(repo))
    assert hook_index.read_index(str(repo), stamps)[0] == ["docs", "src/a.py", "src/b.py"]
    index.write_text(hook_index._index_head(stamps) + "garbage\n", encoding="utf-8")
    assert hook_index.read_index(str(repo), stamps)[0] == ["docs", "src/a.py", "src/b.py"]


def test_a_memory_file_deleted_while_listing_is_left_out(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file renamed or deleted between the listing and its stat made the hook crash."""
    write_memory(store, "kept", "---\ntitle: Kept\n---\nb\n")
    write_memory(store, "gone", "---\ntitle: Gone\n---\nb\n")
    listed = hook_index.memory_entries

    def listing_then_delete(root: str) -> Iterator[tuple[str, os.DirEntry[str]]]:
        entries = list(listed(root))
        (store.dir / "gone.md").unlink(missing_ok=True)  # after scandir saw it, before its stat
        yield from entries

    monkeypatch.setattr(hook_index, "memory_entries", listing_then_delete)
    real_tree = hook_index.tree_entries

    def tree_then_gone(root: str, *, defer: bool, stamps: dict[str, list[int]]) -> object:
        assert real_tree(root, defer=defer, stamps=stamps) is not None  # listed whole first
        return None  # what tree_entries says when an entry goes away while listed

    monkeypatch.setattr(hook_index, "tree_entries", tree_then_gone)
    assert sorted(hook_index.memory_stamps(str(store.root))) == [".memory/kept.md"]
    assert hook_index.memory_walk(str(store.root))[1] is None


def test_the_stamps_are_those_of_the_files_the_store_lists(store: Store) -> None:
    for rel in ("a", "sub/b", "templates/not-a-memory", ".hidden/c", "sub/.d", "deep/er/e"):
        path = store.dir / f"{rel}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("---\ntitle: T\n---\n", encoding="utf-8")
    (store.dir / "templates.md").write_text("---\ntitle: T\n---\n", encoding="utf-8")
    (store.dir / "notes.txt").write_text("x", encoding="utf-8")
    (store.dir / "link.md").symlink_to(store.dir / "a.md")
    (store.dir / "dir.md").mkdir()
    root = str(store.root)
    stamps, tree = hook_index.memory_walk(root)
    assert tree is not None and ("sub", store.dir.joinpath("sub").lstat()) in tree
    assert stamps == hook_index._listed_stamps(root)
    assert sorted(stamps) == [
        ".memory/a.md",
        ".memory/deep/er/e.md",
        ".memory/sub/b.md",
        ".memory/templates.md",
    ]


LINKED = "---\ntitle: M{i}\nlinks:\n- src/m{i}.py::f\n- {extra}\n---\nBody {i}.\n"


def _fill(store: Store, n: int) -> None:
    for i in range(n):
        write_memory(store, f"m{i:02d}", LINKED.format(i=i, extra=f"docs/d{i % 3}.md"))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The memory files read one by one (memkit.store.loading.load_one), once started."""
    from memkit.store import loading

    read: list[str] = []
    real = loading.load_one

    def counting(root: str, rel: str, size: int) -> object:
        read.append(rel)
        return real(root, rel, size)

    monkeypatch.setattr(loading, "load_one", counting)
    yield read


def test_a_rebuild_reads_only_the_memories_that_changed(
    store: Store, monkeypatch: pytest.MonkeyPatch, reads: list[str]
) -> None:
    _fill(store, 12)
    monkeypatch.setattr(hook_index, "_RACY_NS", 0)  # files written by the test are trusted
    root = str(store.root)
    first = hook_index.read_index(root, hook_index.memory_stamps(root))
    reads.clear()
    write_memory(store, "m03", LINKED.format(i=3, extra="docs/new.md"))
    (store.dir / "m05.md").unlink()
    write_memory(store, "bad", "---\ntitle: [unclosed\nlinks: [x.py]\n---\n")
    stamps = hook_index.memory_stamps(root)
    links, outputs = hook_index.read_index(root, stamps)
    assert sorted(reads) == [".memory/bad.md", ".memory/m03.md"]
    assert "docs/new.md" in links and "src/m05.py" not in links and "x.py" not in links
    assert outputs == first[1]
    monkeypatch.setattr(hook_index, "LEAN_MAX", -1)  # the whole store, through its load
    (store.cache_dir / hook_index.INDEX_NAME).unlink()
    assert hook_index.read_index(root, stamps) == (links, outputs)


@pytest.mark.parametrize(
    "planted",
    ["", "memkit hook index 1\nm 1 2 .memory/a.md\nl a\n", "memkit hook index 3\nm x y z\n",
     "memkit hook index 3\nw 7 src/x.py\n", "memkit hook index 3\nzz\n"],
)  # fmt: skip
def test_a_foreign_or_mangled_index_is_rebuilt_whole(
    store: Store, monkeypatch: pytest.MonkeyPatch, planted: str
) -> None:
    _fill(store, 3)
    root = str(store.root)
    stamps = hook_index.memory_stamps(root)
    (store.cache_dir).mkdir(parents=True, exist_ok=True)
    (store.cache_dir / hook_index.INDEX_NAME).write_text(planted, encoding="utf-8")
    assert hook_index.read_index(root, stamps)[0] == [
        "docs/d0.md",
        "docs/d1.md",
        "docs/d2.md",
        "src/m0.py",
        "src/m1.py",
        "src/m2.py",
    ]


def test_a_memory_too_new_to_trust_is_read_again_and_only_it(
    store: Store, reads: list[str]
) -> None:
    _fill(store, 6)
    root = str(store.root)
    for path in store.dir.glob("*.md"):  # every file settled but the one written below
        os.utime(path, ns=(10**9, 10**9))
    write_memory(store, "m02", LINKED.format(i=2, extra="docs/fresh.md"))
    stamps = hook_index.memory_stamps(root)
    assert "docs/fresh.md" in hook_index.read_index(root, stamps)[0]
    text = (store.cache_dir / hook_index.INDEX_NAME).read_text(encoding="utf-8")
    assert "m - - .memory/m02.md\n" in text and "m - - .memory/m01.md" not in text
    reads.clear()
    assert "docs/fresh.md" in hook_index.read_index(root, stamps)[0]
    assert reads == [".memory/m02.md"]  # the others come from the index
