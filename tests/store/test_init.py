"""init and default_root: creating `.memory/` where `memkit init` puts it."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.store import default_root, init


def test_init_is_idempotent(repo: Path) -> None:
    assert init(repo) == [".memory/", ".memory/config.toml", ".memory/.gitignore"]
    assert init(repo) == []
    assert (repo / ".memory/.gitignore").read_text().endswith(".cache/\n")
    assert "[compile]" in (repo / ".memory/config.toml").read_text()


def test_init_adds_cache_to_existing_gitignore(repo: Path) -> None:
    (repo / ".memory").mkdir()
    (repo / ".memory/.gitignore").write_text("own-rule")
    init(repo)
    assert (repo / ".memory/.gitignore").read_text().startswith("own-rule\n")
    assert ".cache/" in (repo / ".memory/.gitignore").read_text()


def test_default_root_is_the_work_tree_top(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sub = repo / "a" / "b"
    sub.mkdir(parents=True)
    assert default_root(sub) == repo
    alone = tmp_path / "no-git"
    alone.mkdir()
    assert default_root(alone) == alone  # no work tree above: where it was asked
    monkeypatch.setenv("MEMKIT_ROOT", str(sub))
    assert default_root(repo) == sub
