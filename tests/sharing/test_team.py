"""Shared team stores over real bare git remotes on local paths: two projects, pins,
offline use, a rewritten history, shadowed ids, secrets and what `edit` says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memkit.cli import cli
from memkit.sharing import team
from memkit.store import init
from tests.conftest import git

pytestmark = pytest.mark.slow

MEMORY = """---
title: {title}
type: convention
tags: [{tag}]
---

{body}
"""


def _repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.name", "Team")
    git(path, "config", "user.email", "team@example.com")
    git(path, "config", "commit.gpgsign", "false")
    return path


def _add(work: Path, mid: str, title: str, body: str, tag: str = "python") -> None:
    path = work / ".memory" / f"{mid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(MEMORY.format(title=title, tag=tag, body=body), "utf-8")
    git(work, "add", "-A")
    git(work, "commit", "-qm", f"add {mid}")
    git(work, "push", "-q", "origin", "main")


@pytest.fixture
def remote(tmp_path: Path) -> tuple[Path, Path]:
    """(the team store's bare remote, a clone the team commits in)."""
    bare = tmp_path / "team.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    work = _repo(tmp_path / "team-work")
    git(work, "remote", "add", "origin", str(bare))
    _add(work, "typed-results", "Every service returns a typed Result", "Never raise across.")
    return bare, work


def _project(path: Path, bare: Path, extra: str = "") -> Path:
    root = _repo(path)
    init(root)
    cfg = root / ".memory" / "config.toml"
    cfg.write_text(f'[stores.team]\nurl = "{bare}"\nref = "main"\n{extra}', "utf-8")
    return root


def _memkit(root: Path, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--root", str(root), *args], catch_exceptions=False)
    assert result.exit_code == code, f"{args}: {result.exit_code}\n{result.output}"
    return result


def test_two_projects_share_one_store(tmp_path: Path, remote: tuple[Path, Path]) -> None:
    bare, _ = remote
    a, b = _project(tmp_path / "a", bare), _project(tmp_path / "b", bare)
    for root in (a, b):
        out = _memkit(root, "sync").output
        assert "team: fetched at" in out and "1 memories" in out
        listed = _memkit(root, "list").output
        assert "typed-results" in listed and "FROM" in listed and "team" in listed
        _memkit(root, "compile")
        assert "Every service returns a typed Result" in (root / "AGENTS.md").read_text()
        found = _memkit(root, "search", "typed result").output
        assert "typed-results" in found
    assert (a / team.LOCK).read_text() == (b / team.LOCK).read_text()


def test_pin_moves_only_with_update(tmp_path: Path, remote: tuple[Path, Path]) -> None:
    bare, work = remote
    root = _project(tmp_path / "p", bare)
    _memkit(root, "sync")
    pinned = (root / team.LOCK).read_text()
    _add(work, "py-versions", "CI runs on Python 3.11 and 3.12", "Both, always.")
    assert "unchanged" in _memkit(root, "sync").output
    assert (root / team.LOCK).read_text() == pinned
    assert "py-versions" not in _memkit(root, "list").output
    out = _memkit(root, "sync", "--update").output
    assert "team: updated" in out and "2 memories" in out
    assert (root / team.LOCK).read_text() != pinned
    assert "py-versions" in _memkit(root, "list").output
    _memkit(root, "compile")
    assert "CI runs on Python 3.11 and 3.12" in (root / "AGENTS.md").read_text()


def test_offline_from_the_cache(tmp_path: Path, remote: tuple[Path, Path]) -> None:
    bare, _ = remote
    root = _project(tmp_path / "p", bare)
    _memkit(root, "sync")
    shutil.move(str(bare), str(tmp_path / "gone.git"))  # the network is down
    assert "unchanged" in _memkit(root, "sync").output
    assert "typed-results" in _memkit(root, "list").output
    _memkit(root, "compile")
    assert "typed Result" in (root / "AGENTS.md").read_text()
    failed = _memkit(root, "sync", "--update", code=1).output
    assert "cannot fetch 'main'" in failed and "Traceback" not in failed


def test_rewritten_history_is_refused(tmp_path: Path, remote: tuple[Path, Path]) -> None:
    bare, work = remote
    root = _project(tmp_path / "p", bare)
    _memkit(root, "sync")
    pinned = (root / team.LOCK).read_text()
    git(work, "checkout", "-q", "--orphan", "other")
    git(work, "commit", "-qm", "unrelated history", "--allow-empty")
    git(work, "push", "-q", "--force", "origin", "other:main")
    out = _memkit(root, "sync", "--update", code=1).output
    assert "history was rewritten" in out
    assert (root / team.LOCK).read_text() == pinned
    assert "typed-results" in _memkit(root, "list").output  # the pinned commit still reads


def test_the_project_wins_and_shared_memories_are_changed_where_they_live(
    tmp_path: Path, remote: tuple[Path, Path]
) -> None:
    bare, _ = remote
    root = _project(tmp_path / "p", bare)
    _memkit(root, "add", "Typed results, our way", "--id", "typed-results", "-b", "Local.")
    _memkit(root, "sync")
    stores = _memkit(root, "stores").output
    assert "id 'typed-results' is also in .memory/typed-results.md, which wins" in stores
    _memkit(root, "rm", "typed-results")
    shown = _memkit(root, "show", "typed-results").output
    assert "shared store team" in shown
    edit = _memkit(root, "edit", "typed-results", code=2).output
    assert "comes from the shared store team" in edit and str(bare) in edit


def test_filters_secrets_and_not_synced(tmp_path: Path, remote: tuple[Path, Path]) -> None:
    bare, work = remote
    key = "AKIA" + "QWERTYUIOPASDFGH"
    _add(work, "leak", "A key", f"aws_access_key_id = {key}")
    _add(work, "go-style", "Go errors wrap", "Use %w.", tag="go")
    root = _project(tmp_path / "p", bare, 'tags = ["python"]\n')
    assert _memkit(root, "stores", code=1).output.count("run `memkit sync`") == 1
    out = _memkit(root, "sync").output
    assert "looks like a" in out and "left out" in out
    listed = _memkit(root, "list").output
    assert "typed-results" in listed and "go-style" not in listed and "leak" not in listed


def test_bad_config_is_one_clear_line(tmp_path: Path, remote: tuple[Path, Path]) -> None:
    bare, _ = remote
    root = _project(tmp_path / "p", bare)
    (root / ".memory" / "config.toml").write_text('[stores.Team]\nurl = "x"\n', "utf-8")
    out = _memkit(root, "sync", code=2).output
    assert "[stores.Team]" in out and "lower-case" in out
    (root / ".memory" / "config.toml").write_text("[stores.team]\nref = 'main'\n", "utf-8")
    assert "url is missing" in _memkit(root, "sync", code=2).output
    (root / team.LOCK).write_text("[stores.team]\nurl = 1\n", "utf-8")
    (root / ".memory" / "config.toml").write_text(f'[stores.team]\nurl = "{bare}"\n', "utf-8")
    assert "stores.lock" in _memkit(root, "list", code=2).output
