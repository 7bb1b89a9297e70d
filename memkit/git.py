"""Everything memkit asks of git, through pygit2. The only module that imports pygit2.

pygit2 errors become GitError (a MemkitError) with a message that says what to do.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memkit.errors import GitError


def _pygit2() -> Any:
    import pygit2

    return pygit2


def open_repo(path: Path | str) -> Any:
    """The repository containing `path`; GitError if there is none."""
    pygit2 = _pygit2()
    found = pygit2.discover_repository(str(path))
    if found is None:
        raise GitError(f"{path} is not inside a git repository; run `git init` first")
    try:
        return pygit2.Repository(found)
    except pygit2.GitError as e:
        raise GitError(f"cannot open the git repository at {found}: {e}") from None


def find_repo(path: Path | str) -> Any | None:
    """Like open_repo, but None outside a repository."""
    try:
        return open_repo(path)
    except GitError:
        return None


def workdir(repo: Any) -> Path:
    if repo.workdir is None:
        raise GitError(f"{repo.path} is a bare repository; memkit needs a work tree")
    return Path(repo.workdir).resolve()


def head_commit(repo: Any) -> str | None:
    """The commit id HEAD points at, or None in a repository without commits."""
    if repo.head_is_unborn:
        return None
    return str(repo.head.target)


def resolve(repo: Any, rev: str) -> Any:
    """The commit named by `rev` (id, branch, tag, HEAD~2...)."""
    pygit2 = _pygit2()
    try:
        obj = repo.revparse_single(rev)
        return obj.peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
        raise GitError(f"unknown revision {rev!r}; use a commit id, branch or tag") from None


def signature(repo: Any) -> Any:
    try:
        return repo.default_signature
    except (KeyError, _pygit2().GitError):
        raise GitError(
            'git has no identity configured; run `git config user.name "Your Name"` and '
            "`git config user.email you@example.com`"
        ) from None


def commit_paths(root: Path, paths: Iterable[str], message: str) -> str:
    """Commit exactly `paths` (relative to the work tree) as they are on disk.

    Other changes the user has staged stay staged and out of the commit: the new
    tree is HEAD's tree plus these paths, and only their index entries are updated.
    A path missing on disk is committed as deleted. Returns the new commit id.
    """
    from memkit.fsutil import file_lock

    repo = open_repo(root)
    # Concurrent memkit commits would race on HEAD ("current tip is not the first
    # parent") and on the index (one process dropping another's entries).
    with file_lock(Path(repo.path) / "memkit-commit.lock"):
        return _commit_paths(repo, root, paths, message)


def _commit_paths(repo: Any, root: Path, paths: Iterable[str], message: str) -> str:
    pygit2 = _pygit2()
    top = workdir(repo)
    rels = sorted({(Path(root) / p).resolve().relative_to(top).as_posix() for p in paths})
    sig = signature(repo)
    parents = [] if repo.head_is_unborn else [repo.head.target]
    tree_index = pygit2.Index()
    if parents:
        tree_index.read_tree(repo[parents[0]].peel(pygit2.Commit).tree)
    index = repo.index
    index.read()
    for rel in rels:
        full = top / rel
        if full.is_file():
            blob = repo.create_blob_fromdisk(str(full))
            mode = (
                pygit2.GIT_FILEMODE_BLOB_EXECUTABLE
                if os.access(full, os.X_OK)
                else pygit2.GIT_FILEMODE_BLOB
            )
            entry = pygit2.IndexEntry(rel, blob, mode)
            tree_index.add(entry)
            index.add(entry)
        else:
            for idx in (tree_index, index):
                if rel in idx:
                    idx.remove(rel)
    tree = tree_index.write_tree(repo)
    if parents and tree == repo[parents[0]].peel(pygit2.Commit).tree.id:
        raise GitError("nothing to commit: the files memkit wrote are unchanged from HEAD")
    ref = "HEAD" if not repo.head_is_unborn else repo.lookup_reference("HEAD").target
    oid = repo.create_commit(ref, sig, sig, message, tree, parents)
    index.write()
    return str(oid)
