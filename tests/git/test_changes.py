"""TreeChanges: changes composed one after the other; renames as `git diff -M` finds them."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit import git as mgit
from memkit.git import TreeChanges
from tests.conftest import commit_files, git, write_files
from tests.staleness.clones import clone, missing


def test_tree_changes_compose() -> None:
    first = TreeChanges(
        modified=frozenset({"m.py", "gone.py"}),
        added=frozenset({"new.py"}),
        deleted=frozenset({"d.py"}),
        renamed={"r.py": "s.py", "x.py": "y.py"},
    )
    later = TreeChanges(
        modified=frozenset({"other.py"}),
        added=frozenset({"d.py"}),
        deleted=frozenset({"gone.py", "y.py"}),
        renamed={"s.py": "t.py", "new.py": "newer.py"},
    )
    assert first.then(later) == TreeChanges(
        modified=frozenset({"m.py", "other.py", "d.py"}),
        added=frozenset({"newer.py"}),
        deleted=frozenset({"gone.py", "x.py"}),
        renamed={"r.py": "t.py"},
    )


# Two renames near git's 50% similarity threshold, on which libgit2's own scoring (line
# hashes, not git's byte spans) disagrees with `git diff -M`, one each way.
_LONG = "".join(f"    message_{i:03d} = 'a sentence long enough for a line'\n" for i in range(50))
_FUNCS = [f"def f{i}(x):\n    return x * {i} + {i * i}\n" for i in range(100)]
_NEAR = {
    # 52% of the bytes kept, in few long lines: git renames, libgit2 does not
    "long_lines": (
        _LONG + "".join(f"a{i}=1\n" for i in range(360)),
        _LONG + "".join(f"b{i}=2\n" for i in range(360)),
    ),
    # 52 functions of 100 kept, the rest replaced by notes: libgit2 renames, git does not
    "short_kept": (
        "".join(_FUNCS),
        "".join(_FUNCS[:52]) + "".join(f"# note {i}: something different\n" for i in range(96)),
    ),
}


def _near_rename(repo: Path, shape: str) -> None:
    old, new = _NEAR[shape]
    commit_files(repo, {"old.py": old}, "before")
    (repo / "old.py").unlink()
    commit_files(repo, {"pkg/core.py": new}, "moved")


def _git_says(repo: Path) -> str:
    return git(repo, "diff", "-M", "--name-status", "HEAD~1", "HEAD").split()[0]


def test_a_rename_git_finds_near_its_threshold_is_a_rename(repo: Path) -> None:
    _near_rename(repo, "long_lines")
    assert _git_says(repo) == "R052"
    opened = mgit.open_repo(repo)
    changes = mgit.range_changes(opened, "HEAD~1", "HEAD")
    assert dict(changes.renamed) == {"old.py": "pkg/core.py"}
    assert (changes.deleted, changes.added) == (set(), set())
    since = mgit.changes_since(opened, git(repo, "rev-parse", "HEAD~1").strip())
    assert since is not None and dict(since.renamed) == {"old.py": "pkg/core.py"}


def test_a_pair_git_does_not_rename_is_a_deletion_and_an_addition(repo: Path) -> None:
    _near_rename(repo, "short_kept")
    assert _git_says(repo) == "D"
    changes = mgit.range_changes(mgit.open_repo(repo), "HEAD~1", "HEAD")
    assert (dict(changes.renamed), changes.deleted, changes.added) == (
        {},
        {"old.py"},
        {"pkg/core.py"},
    )


def test_without_git_renames_are_still_found(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    commit_files(repo, {"old.py": "".join(_FUNCS)}, "before")
    (repo / "old.py").unlink()
    commit_files(repo, {"pkg/core.py": "".join(_FUNCS[:90])}, "moved")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    changes = mgit.range_changes(mgit.open_repo(repo), "HEAD~1", "HEAD")
    assert dict(changes.renamed) == {"old.py": "pkg/core.py"}


@pytest.mark.parametrize(("shape", "renamed"), [("long_lines", True), ("short_kept", False)])
def test_a_staged_rename_is_the_one_git_status_shows(repo: Path, shape: str, renamed: bool) -> None:
    old, new = _NEAR[shape]
    commit_files(repo, {"old.py": old}, "before")
    git(repo, "rm", "-q", "old.py")
    write_files(repo, {"pkg/core.py": new})
    git(repo, "add", "pkg/core.py")
    assert git(repo, "status", "--porcelain").startswith("R " if renamed else "D ")
    opened = mgit.open_repo(repo)
    expected = {"old.py": "pkg/core.py"} if renamed else {}
    assert dict(mgit.staged_changes(opened).renamed) == expected
    assert dict(mgit.local_changes(opened).renamed) == expected


def test_a_blobless_clone_fetches_the_sides_then_renames_as_git_does(
    repo: Path, tmp_path: Path
) -> None:
    _near_rename(repo, "long_lines")
    commit_files(repo, {"later.py": "n = 1\n"}, "later")  # HEAD checks out none of old.py
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    partial = clone(bare, tmp_path / "partial", "--filter=blob:none")
    old_blob = git(partial, "rev-parse", "HEAD~2:old.py").strip()
    assert old_blob in missing(partial)
    changes = mgit.range_changes(mgit.open_repo(partial), "HEAD~2", "HEAD")
    assert (dict(changes.renamed), changes.unseen) == ({"old.py": "pkg/core.py"}, {})
    assert old_blob not in missing(partial)


def test_staged_renames_read_the_index_libgit2_reads(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = _NEAR["long_lines"]
    commit_files(repo, {"old.py": old}, "before")
    other = tmp_path / "hook-index"
    git(repo, "read-tree", "HEAD", GIT_INDEX_FILE=str(other))  # what a hook may name
    git(repo, "rm", "-q", "old.py")
    write_files(repo, {"pkg/core.py": new})
    git(repo, "add", "pkg/core.py")
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    changes = mgit.staged_changes(mgit.open_repo(repo))
    assert dict(changes.renamed) == {"old.py": "pkg/core.py"}
