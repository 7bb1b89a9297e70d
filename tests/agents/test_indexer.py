"""The point-of-action index's write side (memkit.agents.claude.indexer): the digest of
the memory files' stamps that SessionStart compares."""

from __future__ import annotations

import os
from pathlib import Path

from memkit.agents.claude.indexer import digest


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_digest_sees_an_in_place_edit_in_a_nested_folder(tmp_path: Path) -> None:
    _write(tmp_path, ".memory/a.md", "one\n")
    nested = _write(tmp_path, ".memory/team/deep/b.md", "two\n")
    before = digest(str(tmp_path))
    folder = nested.parent.stat()
    st = nested.stat()
    nested.write_text("TWO\n")  # same size, in place
    os.utime(nested, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    os.utime(nested.parent, ns=(folder.st_atime_ns, folder.st_mtime_ns))
    assert digest(str(tmp_path)) != before


def test_the_digest_covers_only_the_memory_files(tmp_path: Path) -> None:
    _write(tmp_path, ".memory/a.md", "one\n")
    before = digest(str(tmp_path))
    _write(tmp_path, ".memory/templates/agents.md", "a template\n")
    _write(tmp_path, ".memory/.cache/x.md", "a cache\n")
    _write(tmp_path, ".memory/notes.txt", "not a memory\n")
    assert digest(str(tmp_path)) == before
    _write(tmp_path, ".memory/team/templates/c.md", "a memory in a nested templates folder\n")
    assert digest(str(tmp_path)) != before


def test_the_digest_does_not_follow_a_linked_folder(tmp_path: Path) -> None:
    _write(tmp_path, ".memory/a.md", "one\n")
    _write(tmp_path, "elsewhere/b.md", "outside\n")
    before = digest(str(tmp_path))
    (tmp_path / ".memory" / "linked").symlink_to(tmp_path / "elsewhere")
    assert digest(str(tmp_path)) == before
    assert digest(str(tmp_path / "missing")) == digest(str(tmp_path / "also-missing"))
