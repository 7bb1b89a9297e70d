"""A branch of the project is an outsider's data too (a pull request): the history
walks, `show --at`, diffs and rename detection read its trees within memkit's limits
and never read a blob before its size is known."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Invoke, git

from memkit.git import bounded, read_blob
from memkit.git.repo import open_repo
from memkit.store import Store
from tests.sharing import hostile

OWN = "---\ntitle: Our own rule stands\ntype: convention\n---\n\nAlways.\n"


def _branch(repo: Path, add: dict[str, tuple[Any, int]]) -> None:
    """Commit `add` into .memory/ on branch `pr`, from main, without a checkout."""
    r = open_repo(repo)
    head = r.head.peel(hostile._pygit2().Commit)
    memories = r.TreeBuilder(head.tree[".memory"])
    for name, (oid, mode) in add.items():
        memories.insert(name, oid, mode)
    root = r.TreeBuilder(head.tree)
    root.insert(".memory", memories.write(), hostile.TREE)
    sig = hostile._pygit2().Signature("Outsider", "out@example.com", 1_700_000_100, 0)
    r.create_commit("refs/heads/pr", sig, sig, "pr", root.write(), [head.id])


@pytest.fixture
def project(repo: Path, store: Store) -> Path:
    (store.dir / "own-rule.md").write_text(OWN, "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "own")
    return repo


def _wide(repo: Path) -> Any:
    """500 folders of the same 500 files: 250,000 paths from two tree objects."""
    r = open_repo(repo)
    blob = hostile.memory(r)
    files = hostile.tree(r, {f"f{i}.md": (blob, hostile.BLOB) for i in range(500)})
    return hostile.tree(r, {f"d{i}": (files, hostile.TREE) for i in range(500)})


def _deep(repo: Path) -> Any:
    r = open_repo(repo)
    oid = hostile.tree(r, {"deep.md": (hostile.memory(r), hostile.BLOB)})
    for i in range(bounded.REPO_MAX_DEPTH + 1):
        oid = hostile.tree(r, {f"l{i}": (oid, hostile.TREE)})
    return oid


@pytest.mark.parametrize("build", [_wide, _deep])
def test_a_branch_past_the_limits_is_one_line(project: Path, run: Invoke, build: Any) -> None:
    _branch(project, {"bomb": (build(project), hostile.TREE)})
    for args in (("show", "own-rule", "--at", "pr"), ("diff", "main", "pr")):
        result = run(*args, code=2)
        assert result.stderr.count("\n") == 1 and "memkit's limit" in result.stderr
    git(project, "symbolic-ref", "HEAD", "refs/heads/pr")  # the branch, not checked out
    result = run("log", code=2)
    assert result.stderr.count("\n") == 1 and "memkit's limit" in result.stderr
    assert "added" in run("log", "own-rule").stdout  # a file's own history still reads


def test_a_large_blob_is_never_read(project: Path) -> None:
    r = open_repo(project)
    big = r.create_blob(b"x" * (bounded.MAX_FILE_BYTES + 1) + bytes(range(256)) * 400)
    hostile.garble(r, big)  # reading it now would fail
    with pytest.raises(bounded.TreeLimitError, match="over memkit's limit"):
        read_blob(r, str(big))
