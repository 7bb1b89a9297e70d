"""memkit.compile.write.read: an output's bytes, read safely and cheaply.

Every case is checked against the reference route (fsutil.write_target, then
fsutil.read_regular): the same bytes, or the same refusal with the same message.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from memkit.compile.write import MAX_OUTPUT_BYTES, read, real_path
from memkit.errors import UnsafePathError
from memkit.fsutil import read_regular, write_target


def reference(root: Path, rel: str) -> bytes | None:
    real = write_target(root, rel, forbidden=(".git", ".memory"), links_to=None)
    try:
        return read_regular(real, limit=MAX_OUTPUT_BYTES, what=rel)
    except FileNotFoundError:
        return None


def outcome(how: object, root: Path, rel: str) -> tuple[str, object]:
    try:
        return "read", how(root, rel)  # type: ignore[operator]
    except UnsafePathError as e:
        return type(e).__name__, str(e)


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    outside = tmp_path / "outside"
    for d in (root / ".git", root / ".memory", root / ".claude/rules", root / "docs", outside):
        d.mkdir(parents=True)
    (root / "AGENTS.md").write_text("agents\n", encoding="utf-8")
    (root / ".claude/rules/memkit-a.md").write_text("rule\n", encoding="utf-8")
    (root / ".git/config").write_text("[core]\n", encoding="utf-8")
    (root / ".memory/m.md").write_text("memory\n", encoding="utf-8")
    (outside / "secret.md").write_text("secret\n", encoding="utf-8")
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / "GEMINI.md").symlink_to(outside / "secret.md")
    (root / ".rules").symlink_to(".git/config")
    (root / "CONVENTIONS.md").symlink_to(".memory/m.md")
    (root / ".windsurf").symlink_to(outside, target_is_directory=True)
    (root / ".cursor").symlink_to(".claude", target_is_directory=True)
    (root / "docs/AGENTS.md").mkdir()
    (root / "up").symlink_to(root / ".claude/rules", target_is_directory=True)
    os.mkfifo(root / "fifo.md")
    return root


CASES = [
    "AGENTS.md",  # a plain file
    ".claude/rules/memkit-a.md",  # in a folder
    ".claude/rules/memkit-gone.md",  # absent
    ".kiro/steering/memkit.md",  # absent, and its folders too
    "CLAUDE.md",  # a link to another file inside: read through it
    ".cursor/rules/memkit-a.md",  # a folder linked inside
    "GEMINI.md",  # a link out of the repository
    ".windsurf/rules/memkit.md",  # a folder linked out
    ".rules",  # a link into .git/
    "CONVENTIONS.md",  # a link into .memory/
    ".git/config",  # .git/ itself
    ".memory/m.md",  # the store itself
    "docs/AGENTS.md",  # a folder where a file should be
    "fifo.md",  # not a regular file: never blocks
    "./AGENTS.md",  # spelt with a dot
    "docs/../AGENTS.md",  # spelt with ..
    "up/../AGENTS.md",  # .. after a link: the link's parent, as the system resolves it
    "../outside/secret.md",  # out by ..
]


@pytest.mark.parametrize("rel", CASES)
def test_read_is_the_reference_route(layout: Path, rel: str) -> None:
    assert outcome(read, layout, rel) == outcome(reference, layout, rel)


def test_what_is_read_and_what_is_refused(layout: Path) -> None:
    assert read(layout, "AGENTS.md") == b"agents\n"
    assert read(layout, "CLAUDE.md") == b"agents\n"
    assert read(layout, ".cursor/rules/memkit-a.md") == b"rule\n"
    assert read(layout, ".kiro/steering/memkit.md") is None
    for rel in ("GEMINI.md", ".windsurf/rules/memkit.md", ".rules", "CONVENTIONS.md"):
        with pytest.raises(UnsafePathError, match=re.escape(rel.split("/")[0])):
            read(layout, rel)
    with pytest.raises(UnsafePathError, match=re.escape("docs/AGENTS.md is not a regular file")):
        read(layout, "docs/AGENTS.md")


def test_nothing_to_write_resolves_no_output(layout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A compile that changes nothing (the usual one) asks for no output's real path."""
    from memkit.compile import write

    def refused(*args: object) -> None:
        raise AssertionError("an output's real path was asked for")

    monkeypatch.setattr(write, "_reals", refused)
    same = write.FileChange("AGENTS.md", "agents", b"agents\n", b"agents\n")
    assert write.apply(layout, (same,), None) == []
    assert (layout / "AGENTS.md").read_bytes() == b"agents\n"


def test_real_paths_resolve_each_folder_once_and_agree_with_realpath(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "AGENTS.md").write_text("a\n")
    (root / ".claude" / "rules" / "memkit-a.md").write_text("r\n")
    (root / "docs" / "AGENTS.md").write_text("d\n")
    os.symlink("AGENTS.md", root / "CLAUDE.md")  # the file itself a link
    os.symlink("docs", root / "linked")  # a folder on the path a link
    os.symlink(tmp_path, root / "out")  # a link out of the repository
    rels = [
        "AGENTS.md", "CLAUDE.md", ".claude/rules/memkit-a.md", ".claude/rules/memkit-gone.md",
        "linked/AGENTS.md", "linked/CLAUDE.md", "out/repo/AGENTS.md", "docs/../AGENTS.md",
        "missing/AGENTS.md",
    ]  # fmt: skip
    folders: dict[str, str] = {}
    for rel in rels:
        assert real_path(root, rel, folders) == os.path.realpath(root / rel), rel
    assert folders[str(root / ".claude" / "rules")] == os.path.realpath(root / ".claude/rules")
    os.remove(root / "linked")  # within one compile a folder keeps the real path it had
    (root / "linked").mkdir()
    assert real_path(root, "linked/AGENTS.md", folders) == os.path.realpath(root / "docs/AGENTS.md")
    assert real_path(root, "linked/AGENTS.md", {}) == os.path.realpath(root / "linked/AGENTS.md")
