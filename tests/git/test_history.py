"""History walks: a file's commits across renames, a folder's changes, a deleted file."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git

from memkit.git import file_history, find_deletion, folder_changes, open_repo
from tests.git.test_changes import _NEAR


def _commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD").strip()


def test_file_history_follows_a_rename(repo: Path) -> None:
    (repo / "m").mkdir()
    (repo / "m" / "old.md").write_text("one\ntwo\nthree\nfour\n")
    made = _commit(repo, "create")
    git(repo, "mv", "m/old.md", "m/new.md")
    moved = _commit(repo, "rename")
    (repo / "m" / "new.md").write_text("one\ntwo\nthree\nfour\nfive\n")
    edited = _commit(repo, "edit")
    history = file_history(open_repo(repo), "m/new.md", edited, "m")
    assert [(c.commit, c.message, c.old_path, c.path) for c in history.changes] == [
        (edited, "edit\n", "m/new.md", "m/new.md"),
        (moved, "rename\n", "m/old.md", "m/new.md"),
        (made, "create\n", None, "m/old.md"),
    ]
    assert history.boundary is None
    assert history.changes[0].author == "Ada Lovelace"


def test_folder_changes_and_deletions(repo: Path) -> None:
    (repo / "m").mkdir()
    (repo / "m" / "a.md").write_text("a\n")
    (repo / "m" / "b.md").write_text("b\n")
    (repo / "elsewhere.txt").write_text("x\n")
    _commit(repo, "two files")
    (repo / "m" / "b.md").unlink()
    gone = _commit(repo, "drop b")
    (repo / "elsewhere.txt").write_text("y\n")
    head = _commit(repo, "outside the folder")
    r = open_repo(repo)
    assert find_deletion(r, "m", "b.md", head) == (gone, "m/b.md")
    assert find_deletion(r, "m", "a.md", head) is None
    changes = folder_changes(r, "m", head, limit=10)
    assert [(c.message, c.old_path, c.path) for c in changes] == [
        ("drop b\n", "m/b.md", None),
        ("two files\n", None, "m/a.md"),
        ("two files\n", None, "m/b.md"),
    ]
    assert len(folder_changes(r, "m", head, limit=1)) == 1


def _near_move(repo: Path, shape: str) -> tuple[str, str]:
    """m/a.md moved to m/sub/a.md and edited near git's 50% similarity threshold (the
    shapes of tests/git/test_changes.py): (the commit that made it, the move)."""
    old, new = _NEAR[shape]
    (repo / "m" / "sub").mkdir(parents=True)
    (repo / "m" / "a.md").write_text(old)
    made = _commit(repo, "create")
    (repo / "m" / "a.md").unlink()
    (repo / "m" / "sub" / "a.md").write_text(new)
    return made, _commit(repo, "move")


def test_history_follows_the_renames_git_finds(repo: Path) -> None:
    """`memkit log` pairs renames as `memkit check` and `git log --follow` do: git's R052
    (which libgit2's own similarity leaves unpaired) is a rename."""
    made, moved = _near_move(repo, "long_lines")
    assert git(repo, "diff", "-M", "--name-status", made, moved).startswith("R052")
    r = open_repo(repo)
    history = file_history(r, "m/sub/a.md", moved, "m")
    assert [(c.commit, c.old_path, c.path) for c in history.changes] == [
        (moved, "m/a.md", "m/sub/a.md"),
        (made, None, "m/a.md"),
    ]
    assert find_deletion(r, "m", "a.md", moved) is None  # moved, not deleted
    [change] = folder_changes(r, "m", moved, limit=1)
    assert (change.old_path, change.path) == ("m/a.md", "m/sub/a.md")
    assert change.old_blob == git(repo, "rev-parse", f"{made}:m/a.md").strip()
    assert change.blob == git(repo, "rev-parse", f"{moved}:m/sub/a.md").strip()


def test_history_does_not_pair_what_git_does_not(repo: Path) -> None:
    """The other way round: a pair libgit2 would call a rename and git does not."""
    made, moved = _near_move(repo, "short_kept")
    assert git(repo, "diff", "-M", "--name-status", made, moved).startswith("D")
    r = open_repo(repo)
    history = file_history(r, "m/sub/a.md", moved, "m")
    assert [(c.commit, c.old_path, c.path) for c in history.changes] == [
        (moved, None, "m/sub/a.md")
    ]
    assert find_deletion(r, "m", "a.md", moved) == (moved, "m/a.md")
    changes = folder_changes(r, "m", moved, limit=1)
    assert [(c.old_path, c.path) for c in changes] == [("m/a.md", None), (None, "m/sub/a.md")]


def test_history_without_git_still_follows_renames(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (repo / "m").mkdir()
    (repo / "m" / "a.md").write_text("".join(f"line {i}\n" for i in range(40)))
    made = _commit(repo, "create")
    git(repo, "mv", "m/a.md", "m/b.md")
    (repo / "m" / "b.md").write_text("".join(f"line {i}\n" for i in range(41)))
    moved = _commit(repo, "rename")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    history = file_history(open_repo(repo), "m/b.md", moved, "m")
    assert [(c.commit, c.old_path) for c in history.changes] == [(moved, "m/a.md"), (made, None)]
