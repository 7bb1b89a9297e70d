"""The shared walks: up to the project root, and down the memory files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from memkit import walk
from memkit.walk import MEMORY_DIR, find_up, memory_entries


def test_find_up_stops_at_the_nearest_marker(tmp_path: Path) -> None:
    outer, inner = tmp_path / "outer", tmp_path / "outer" / "a" / "inner"
    (outer / MEMORY_DIR).mkdir(parents=True)
    (inner / MEMORY_DIR).mkdir(parents=True)
    assert find_up(str(inner / "src")) == str(inner)
    assert find_up(str(outer / "a")) == str(outer)


def test_a_store_must_be_a_directory_a_work_tree_need_not(tmp_path: Path) -> None:
    top, sub = tmp_path / "wt", tmp_path / "wt" / "sub"
    sub.mkdir(parents=True)
    (sub / MEMORY_DIR).write_text("not a folder")
    (top / ".git").write_text("gitdir: /elsewhere\n")  # a linked worktree's .git is a file
    assert find_up(str(sub)) is None
    assert find_up(str(sub), ".git") == str(top)


def test_memkit_root_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / MEMORY_DIR).mkdir()
    monkeypatch.setenv("MEMKIT_ROOT", str(tmp_path / "named"))
    assert find_up(str(tmp_path)) == str(tmp_path / "named")
    assert find_up("/", ".git") == str(tmp_path / "named")


def test_find_up_resolves_links(tmp_path: Path) -> None:
    (tmp_path / "real" / MEMORY_DIR).mkdir(parents=True)
    os.symlink(tmp_path / "real", tmp_path / "link")
    assert find_up(str(tmp_path / "link")) == str((tmp_path / "real").resolve())


def test_memory_entries_skip_dot_names_and_templates(tmp_path: Path) -> None:
    mdir = tmp_path / MEMORY_DIR
    for rel in ("a.md", "team/b.md", "templates/t.md", ".cache/c.md", ".x.md", "notes.txt"):
        (mdir / rel).parent.mkdir(parents=True, exist_ok=True)
        (mdir / rel).write_text("x")
    assert sorted(rel for rel, _ in memory_entries(str(tmp_path))) == [
        ".memory/a.md",
        ".memory/team/b.md",
    ]


def _listed(folder: str, prefix: str = "") -> list[tuple[str, int, int]]:
    """What tree_entries must give, by paths: (path, mode, size), folders then their entries."""
    out = []
    for name in sorted(os.listdir(folder)):
        st = os.lstat(os.path.join(folder, name))
        out.append((prefix + name, st.st_mode, st.st_size))
        if stat.S_ISDIR(st.st_mode):
            out += _listed(os.path.join(folder, name), prefix + name + "/")
    return out


def test_tree_entries_list_every_entry_by_name_and_stamp_the_memory_files(tmp_path: Path) -> None:
    mem = tmp_path / ".memory"
    for folder in ("a/.hidden", "templates", "b/c", ".cache"):
        (mem / folder).mkdir(parents=True)
    for name in (
        "x.md",
        ".y.md",
        "a/z.md",
        "a/.hidden/q.md",
        "templates/t.md",
        "b/c/d.md",
        "b/c/e.txt",
        ".cache/k.md",
    ):
        (mem / name).write_text(name, "utf-8")
    (mem / "b" / "link.md").symlink_to("../x.md")
    (mem / "b" / "outside").symlink_to(tmp_path)  # a folder link: listed, never entered
    os.mkfifo(mem / "b" / "pipe.md")
    stamps: dict[str, list[int]] = {}
    entries = walk.tree_entries(str(tmp_path), defer=False, stamps=stamps)
    assert entries is not None
    assert [(rel, st.st_mode, st.st_size) for rel, st in entries if st] == _listed(str(mem))
    regular = {".memory/x.md", ".memory/a/z.md", ".memory/b/c/d.md"}
    assert {k: v[0] for k, v in stamps.items()} == {k: len(k) - 8 for k in regular}
    deferred = walk.tree_entries(str(tmp_path), defer=True)
    assert deferred is not None
    assert [rel for rel, st in deferred if st is None] == sorted(k[8:] for k in regular)
    assert [rel for rel, _ in deferred] == [rel for rel, _ in entries]


def test_tree_entries_of_a_missing_a_linked_and_a_wrong_memory_folder(tmp_path: Path) -> None:
    assert walk.tree_entries(str(tmp_path), defer=False) == []
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "m.md").write_text("m", "utf-8")
    (tmp_path / ".memory").symlink_to(tmp_path / "real")  # followed, as a path would be
    linked = walk.tree_entries(str(tmp_path), defer=True)
    assert linked == [("m.md", None)]
    (tmp_path / ".memory").unlink()
    (tmp_path / ".memory").write_text("not a folder", "utf-8")
    assert walk.tree_entries(str(tmp_path), defer=False) is None
