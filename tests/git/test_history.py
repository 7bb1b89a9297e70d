"""History walks: a file's commits across renames, a folder's changes, a deleted file."""

from __future__ import annotations

from pathlib import Path

from conftest import git

from memkit.git import file_history, find_deletion, folder_changes, open_repo


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
