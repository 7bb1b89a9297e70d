"""Compiled outputs that are symbolic links: written through only to another output.

A pull request that turns AGENTS.md into a link to `.github/CODEOWNERS` (or a workflow,
`.env.production`, a deploy script) and adds a memory must not get `memkit compile`
(or the commit it makes) to rewrite that file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Invoke, commit_files, git, write_memory

from memkit.store import Store

OWNER = "---\ntitle: '* @mallory'\npin: true\n---\n\n* @mallory\n"
TRACKED = {
    ".github/CODEOWNERS": "* @team/core\n",
    ".env.production": "DATABASE_URL=postgres://prod\n",
    ".github/workflows/ci.yml": "on: push\njobs: {}\n",
    "scripts/deploy.sh": "#!/bin/sh\nexit 0\n",
}


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def _linked(store: Store, output: str, target: str) -> None:
    commit_files(store.root, TRACKED)
    link = store.root / output
    link.parent.mkdir(parents=True, exist_ok=True)
    rel = os.path.relpath(store.root / target, link.parent)
    link.symlink_to(rel)
    write_memory(store, "owner", OWNER)


@pytest.mark.parametrize("target", sorted(TRACKED))
def test_a_link_to_a_tracked_file_is_refused_and_the_rest_written(
    run: Invoke, store: Store, target: str
) -> None:
    _linked(store, "AGENTS.md", target)
    result = run("compile", code=1)
    assert f"memkit: AGENTS.md is a symbolic link to {target}, which is not" in result.stderr
    assert (store.root / target).read_text() == TRACKED[target]
    assert (store.root / "AGENTS.md").is_symlink()
    assert "@mallory" in (store.root / "CLAUDE.md").read_text()  # the others go on
    assert "Traceback" not in result.stderr
    assert run("compile", "--check", code=1).stderr.count("is a symbolic link to") == 1


def test_compile_commit_never_commits_the_linked_file(
    run: Invoke, store: Store, repo: Path
) -> None:
    _linked(store, "CLAUDE.md", "scripts/deploy.sh")
    run("compile", "--commit", code=1)
    committed = git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert "scripts/deploy.sh" not in committed
    assert git(repo, "show", "HEAD:scripts/deploy.sh") == TRACKED["scripts/deploy.sh"]


def test_a_link_committed_is_the_link_not_its_target(store: Store, repo: Path) -> None:
    from memkit.git import commit_paths

    (repo / "AGENTS.md").write_text("# Notes\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    commit_paths(repo, ["CLAUDE.md"], "link")
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["CLAUDE.md"]
    assert git(repo, "ls-files", "-s", "CLAUDE.md").startswith("120000")


def test_a_folder_link_to_a_tracked_folder_is_refused(run: Invoke, store: Store) -> None:
    commit_files(store.root, {"docs/keep.md": "x\n", "docs/rules/memkit.md": "mine\n"})
    (store.root / ".claude").symlink_to("docs", target_is_directory=True)
    (store.dir / "config.toml").write_text('[compile]\ntargets = ["claude"]\n')
    write_memory(store, "scoped", "---\ntitle: Scoped\npaths: ['src/**']\n---\nbody\n")
    result = run("compile", code=1)
    assert "is a symbolic link to docs/rules/" in result.stderr
    assert sorted(p.name for p in (store.root / "docs" / "rules").iterdir()) == ["memkit.md"]


def test_claude_md_to_agents_md_is_still_supported(run: Invoke, store: Store) -> None:
    (store.root / "AGENTS.md").write_text("# Team\n")
    (store.root / "CLAUDE.md").symlink_to("AGENTS.md")
    write_memory(store, "owner", OWNER)
    result = run("compile")
    assert "symbolic link to" not in result.stderr
    assert "@mallory" in (store.root / "AGENTS.md").read_text()
    run("compile", "--check")


def test_the_pre_commit_recompile_refuses_too(store: Store) -> None:
    from memkit.errors import UnsafePathError
    from memkit.githooks.checks import recompile

    _linked(store, "AGENTS.md", ".github/CODEOWNERS")
    import datetime as dt

    with pytest.raises(
        UnsafePathError, match=r"AGENTS\.md is a symbolic link to \.github/CODEOWNERS"
    ):
        recompile(store, today=dt.date(2026, 11, 22))
    assert (store.root / ".github/CODEOWNERS").read_text() == TRACKED[".github/CODEOWNERS"]
