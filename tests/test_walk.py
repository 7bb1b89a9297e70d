"""The shared walks: up to the project root, and down the memory files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
