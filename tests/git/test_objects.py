"""memkit.git.objects: reading by id in real blobless partial and depth-1 clones."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memkit import git as mgit
from memkit.git.objects import MissingObjectError, objects_of
from tests.conftest import git, isolated, write_files
from tests.staleness.clones import build, clone, missing


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> tuple[Path, str]:
    with isolated(tmp_path_factory):
        _, bare, verified = build(tmp_path_factory.mktemp("origin"), empty_git_dir)
    return bare, verified


def _old_blob(repo: Path) -> str:
    """The blob of pkg/auth.py as first committed, which a blobless clone lacks."""
    oid = git(repo, "rev-parse", "HEAD~5:pkg/auth.py").strip()
    assert oid in missing(repo)
    return oid


def test_a_missing_blob_is_fetched_from_the_promisor_remote(
    origin: tuple[Path, str], tmp_path: Path
) -> None:
    repo = clone(origin[0], tmp_path / "partial", "--filter=blob:none")
    oid = _old_blob(repo)
    data = mgit.read_blob(mgit.open_repo(repo), oid)
    assert data.startswith(b"def login(user, password):")
    assert oid not in missing(repo)


def test_rename_sides_are_fetched_in_one_batch(origin: tuple[Path, str], tmp_path: Path) -> None:
    repo = clone(origin[0], tmp_path / "partial", "--filter=blob:none")
    before = missing(repo)
    opened = mgit.open_repo(repo)
    changes = mgit.range_changes(opened, "HEAD~5", "HEAD")
    assert dict(changes.renamed) == {"pkg/auth.py": "pkg/login.py"}
    assert not changes.unseen
    assert len(before - missing(repo)) == 1  # the deleted side, the added one is checked out


def test_index_renaming_a_file_whose_blob_is_missing(
    origin: tuple[Path, str], tmp_path: Path
) -> None:
    repo = clone(origin[0], tmp_path / "partial", "--filter=blob:none")
    git(repo, "reset", "-q", "--soft", "HEAD~2")  # HEAD's pkg/auth.py was never fetched
    changes = mgit.local_changes(mgit.open_repo(repo))
    assert dict(changes.renamed) == {"pkg/auth.py": "pkg/login.py"}


def test_unreachable_promisor_names_the_object_and_the_remote(
    origin: tuple[Path, str], tmp_path: Path
) -> None:
    served = tmp_path / "served.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin[0]), str(served))
    git(served, "config", "uploadpack.allowFilter", "true")
    repo = clone(served, tmp_path / "partial", "--filter=blob:none")
    os.rename(served, tmp_path / "gone.git")
    oid = _old_blob(repo)
    opened = mgit.open_repo(repo)
    with pytest.raises(MissingObjectError) as caught:
        mgit.read_at(opened, "HEAD~5", "pkg/auth.py")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"the blob of pkg/auth.py ({oid[:12]}) is not in this partial clone")
    assert message.endswith("run again where origin can be reached")
    changes = mgit.range_changes(opened, "HEAD~5", "HEAD")  # no exception: exact renames only
    assert "pkg/auth.py" in changes.deleted and "pkg/auth.py" in changes.unseen
    assert objects_of(opened).prefetch([oid]) == {oid}  # tried once, not again


def test_no_lazy_fetch_is_honoured(
    origin: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = clone(origin[0], tmp_path / "partial", "--filter=blob:none")
    oid = _old_blob(repo)
    monkeypatch.setenv("GIT_NO_LAZY_FETCH", "1")
    with pytest.raises(MissingObjectError, match="GIT_NO_LAZY_FETCH forbids fetching it"):
        mgit.read_blob(mgit.open_repo(repo), oid)
    assert oid in missing(repo)


def test_shallow_clone_names_the_missing_commit(origin: tuple[Path, str], tmp_path: Path) -> None:
    bare, verified = origin
    repo = mgit.open_repo(clone(bare, tmp_path / "shallow", "--depth", "1"))
    assert mgit.changes_since(repo, verified) is None
    assert mgit.missing_commit(repo, verified) == (
        f"commit {verified[:12]} is not in this shallow clone; fetch more history: "
        "`git fetch --deepen=N` (N commits more) or `git fetch --unshallow`"
    )
    head = str(repo.head.target)
    assert mgit.missing_commit(repo, head) is None
    full = mgit.open_repo(clone(bare, tmp_path / "full"))
    assert mgit.missing_commit(full, "0" * 40) is None  # a full clone: rewritten history


def test_a_submodule_added_beside_a_rename(repo: Path) -> None:
    """A submodule's commit is in another repository: never fetched, never missing."""
    write_files(repo, {"a.py": "def f():\n    return 1\n" * 20})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a")
    git(repo, "mv", "a.py", "b.py")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},sub")
    git(repo, "commit", "-q", "-m", "rename, and a submodule")
    changes = mgit.range_changes(mgit.open_repo(repo), "HEAD~1", "HEAD")
    assert (dict(changes.renamed), changes.added, changes.unseen) == ({"a.py": "b.py"}, {"sub"}, {})
