"""The repository: opening it, revisions, commits required, the default branch."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git

from memkit.errors import GitError
from memkit.git import (
    default_branch,
    find_repo,
    head_commit,
    merge_base_with_default,
    open_repo,
    require_commits,
    resolve,
    workdir,
)


def test_open_and_find(repo: Path, tmp_path: Path) -> None:
    (repo / "sub").mkdir()
    assert workdir(open_repo(repo / "sub")) == repo.resolve()
    outside = tmp_path / "plain"
    outside.mkdir()
    with pytest.raises(GitError, match="is not inside a git repository; run `git init` first"):
        open_repo(outside)
    assert find_repo(outside) is None


def test_revisions_need_commits(repo: Path) -> None:
    r = open_repo(repo)
    assert head_commit(r) is None
    with pytest.raises(GitError, match="log needs git history, but the repository at"):
        require_commits(r, "log")
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "one")
    head = git(repo, "rev-parse", "HEAD").strip()
    assert require_commits(r, "log") == head == head_commit(r)
    assert str(resolve(r, "main").id) == head
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        resolve(r, "nope")


def test_default_branch_and_merge_base(repo: Path) -> None:
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "one")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-qb", "topic")
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    git(repo, "commit", "-qm", "two")
    r = open_repo(repo)
    assert default_branch(r) == "refs/heads/main"
    assert merge_base_with_default(r, "HEAD") == base
    git(repo, "branch", "-m", "main", "trunk")
    assert default_branch(r) is None
    assert merge_base_with_default(r, "HEAD") is None
