"""commit_paths and signature: memkit's commits take exactly its files, as git's identity."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git

from memkit.errors import GitError
from memkit.git import check_identity, commit_paths, open_repo, signature


def test_commit_paths_leaves_other_staged_work_alone(repo: Path) -> None:
    (repo / "mine.txt").write_text("mine\n")
    (repo / "theirs.txt").write_text("theirs\n")
    (repo / "gone.txt").write_text("soon gone\n")
    git(repo, "add", "theirs.txt", "gone.txt")
    git(repo, "commit", "-qm", "base")
    (repo / "theirs.txt").write_text("staged edit\n")
    git(repo, "add", "theirs.txt")
    (repo / "gone.txt").unlink()
    oid = commit_paths(repo, ["mine.txt", "gone.txt"], "memkit: mine")
    assert git(repo, "rev-parse", "HEAD").strip() == oid
    assert git(repo, "show", "--name-status", "--format=%s", "HEAD").split() == [
        "memkit:",
        "mine",
        "D",
        "gone.txt",
        "A",
        "mine.txt",
    ]
    assert git(repo, "diff", "--cached", "--name-only") == "theirs.txt\n"


def test_commit_paths_refuses_an_empty_commit(repo: Path) -> None:
    (repo / "a.txt").write_text("a\n")
    commit_paths(repo, ["a.txt"], "first")
    with pytest.raises(GitError, match="nothing to commit"):
        commit_paths(repo, ["a.txt"], "again")


@pytest.mark.parametrize(
    ("date", "when"),
    [
        ("@1700000000 +0100", (1700000000, 60)),
        ("1700000000 -0530", (1700000000, -330)),
        ("2023-11-14T22:13:20+00:00", (1700000000, 0)),
        ("Tue, 14 Nov 2023 23:13:20 +0100", (1700000000, 60)),
    ],
)
def test_signature_reads_git_dates(
    repo: Path, monkeypatch: pytest.MonkeyPatch, date: str, when: tuple[int, int]
) -> None:
    monkeypatch.setenv("GIT_AUTHOR_DATE", date)
    sig = signature(open_repo(repo), "AUTHOR")
    assert (sig.name, sig.email, sig.time, sig.offset) == ("Ada Lovelace", "ada@example.com", *when)


def test_signature_errors_say_what_to_do(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_COMMITTER_DATE", "yesterday-ish")
    with pytest.raises(GitError, match="GIT_COMMITTER_DATE='yesterday-ish' is not a date"):
        signature(open_repo(repo))
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    git(repo, "config", "--unset", "user.name")
    git(repo, "config", "--unset", "user.email")
    with pytest.raises(GitError, match="git has no identity configured"):
        check_identity(repo)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Env Name")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "env@example.com")
    assert signature(open_repo(repo), "AUTHOR").name == "Env Name"
