"""File contents at a revision, in the index, on disk; a folder's files at a revision."""

from __future__ import annotations

from pathlib import Path

from conftest import git

from memkit.git import blob_at, files_at, open_repo, read_at, read_blob, tracked_paths


def test_one_path_at_each_state(repo: Path) -> None:
    (repo / "d").mkdir()
    (repo / "d" / "f.txt").write_text("committed\n")
    git(repo, "add", "d/f.txt")
    git(repo, "commit", "-qm", "one")
    (repo / "d" / "f.txt").write_text("staged\n")
    git(repo, "add", "d/f.txt")
    (repo / "d" / "f.txt").write_text("on disk\n")
    (repo / "new.txt").write_text("untracked\n")
    r = open_repo(repo)
    assert read_at(r, "HEAD", "d/f.txt") == b"committed\n" == blob_at(r, "HEAD", "d/f.txt")
    assert read_at(r, "", "d/f.txt") == b"staged\n"
    assert read_at(r, None, "d/f.txt") == b"on disk\n"
    assert read_at(r, "HEAD", "new.txt") is None
    assert read_at(r, "", "new.txt") is None
    assert read_at(r, "HEAD", "d") is None  # a folder is not a file
    assert blob_at(r, "HEAD", "missing.txt") is None
    assert tracked_paths(r) == ["d/f.txt"]


def test_files_of_a_folder(repo: Path) -> None:
    for rel in ("m/a.md", "m/sub/b.md", "other.txt"):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(rel)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "files")
    r = open_repo(repo)
    found = files_at(r, "HEAD", "m")
    assert sorted(found) == ["m/a.md", "m/sub/b.md"]
    assert read_blob(r, found["m/sub/b.md"]) == b"m/sub/b.md"
    assert files_at(r, "HEAD", "nothing") == {}
