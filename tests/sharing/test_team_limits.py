"""A team store built to hurt: nothing is read before its name and size are checked,
walks stop at memkit's limits with one line naming the store, and the project's own
memories keep working."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from memkit.cli import cli
from memkit.git import bounded
from memkit.sharing import team
from memkit.store import init
from tests.conftest import git
from tests.sharing import hostile

pytestmark = pytest.mark.slow


def _project(tmp_path: Path, bare: Path) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    init(root)
    (root / ".memory" / "config.toml").write_text(
        f'[stores.team]\nurl = "{bare}"\nref = "main"\n', "utf-8"
    )
    (root / ".memory" / "own-rule.md").write_text(
        "---\ntitle: Our own rule stands\ntype: convention\n---\n\nAlways.\n", "utf-8"
    )
    return root


def _memkit(root: Path, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--root", str(root), *args], catch_exceptions=False)
    assert result.exit_code == code, f"{args}: {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output
    return result


def _pin(root: Path, bare: Path, commit: str) -> None:
    """The pin a teammate committed (or an older memkit wrote) before the store went bad."""
    team.write_lock(root, {"team": team.Pin(str(bare), commit)})


def _lines(out: str, needle: str) -> list[str]:
    return [ln for ln in out.splitlines() if needle in ln]


def _store(tmp_path: Path, folder: Any) -> tuple[Path, str]:
    bare = tmp_path / "team.git"
    repo = hostile.bare(bare)
    return bare, hostile.commit(repo, folder)


def test_a_wide_tree_pinned_in_the_lock_stops_at_the_entry_limit(tmp_path: Path) -> None:
    bare = tmp_path / "team.git"
    repo = hostile.bare(bare)
    junk = repo.create_blob(b"x")
    wide = hostile.tree(repo, {f"f{i}.txt": (junk, hostile.BLOB) for i in range(2)})
    for _ in range(2):
        wide = hostile.tree(repo, {f"d{i}": (wide, hostile.TREE) for i in range(100)})
    folder = hostile.tree(
        repo, {"wide": (wide, hostile.TREE), "good.md": (hostile.memory(repo), hostile.BLOB)}
    )
    root = _project(tmp_path, bare)
    _pin(root, bare, hostile.commit(repo, folder))
    out = _memkit(root, "sync", code=1).output
    said = _lines(out, f"more than {bounded.MAX_ENTRIES} files and folders")
    assert len(said) == 1 and "store team" in said[0]
    assert "own-rule" in _memkit(root, "list").output
    _memkit(root, "compile")
    assert "Our own rule stands" in (root / "AGENTS.md").read_text("utf-8")
    assert "own-rule" in _memkit(root, "search", "own rule").output
    assert len(_lines(_memkit(root, "stores", code=1).output, "store team")) == 1


def test_a_store_too_deep_is_refused_and_not_pinned(tmp_path: Path) -> None:
    repo_path = tmp_path / "team.git"
    repo = hostile.bare(repo_path)
    deep = hostile.tree(repo, {"deep.md": (hostile.memory(repo), hostile.BLOB)})
    for i in range(bounded.MAX_DEPTH + 1):
        deep = hostile.tree(repo, {f"level{i}": (deep, hostile.TREE)})
    hostile.commit(repo, deep)
    root = _project(tmp_path, repo_path)
    out = _memkit(root, "sync", code=1).output
    said = _lines(out, f"more than {bounded.MAX_DEPTH} folders deep")
    assert len(said) == 1 and "store team" in said[0]
    assert not (root / team.LOCK).exists()
    assert "own-rule" in _memkit(root, "list").output


def test_a_large_blob_under_many_names_is_never_read(tmp_path: Path) -> None:
    bare = tmp_path / "team.git"
    repo = hostile.bare(bare)
    filler = os.urandom(bounded.MAX_FILE_BYTES // 2).hex().encode()
    big = repo.create_blob(hostile.MEMORY % (1, 1) + filler)
    names = {f"big{i}.md": (big, hostile.BLOB) for i in range(40)}
    names["good.md"] = (hostile.memory(repo), hostile.BLOB)
    commit = hostile.commit(repo, hostile.tree(repo, names))
    root = _project(tmp_path, bare)
    _memkit(root, "sync")
    mirror = team.mirror_of(git_private(root), "team")
    for cache in mirror.parent.glob("team-*.json"):
        cache.unlink()
    hostile.garble(hostile.bare_open(mirror), big)  # reading it now would fail
    out = _memkit(root, "stores", code=1).output
    assert len(_lines(out, "larger than")) == 40
    assert "good" in _memkit(root, "list").output
    assert commit in (root / team.LOCK).read_text("utf-8")


def git_private(root: Path) -> Path:
    from memkit.store import Store

    return Store(root).private_dir()
