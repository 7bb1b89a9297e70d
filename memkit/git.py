"""Everything memkit asks of git, through pygit2. The only module that imports pygit2.

pygit2 errors become GitError (a MemkitError) with a message that says what to do.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
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
    pygit2 = _pygit2()
    repo = open_repo(root)
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


# --- staleness ---
# What changed between a commit and the work tree (or the index, or another commit),
# with git's rename detection; blobs at a revision. Used by memkit.staleness.


@dataclass(frozen=True)
class TreeChanges:
    """Paths (relative to the work tree) that differ between two states of the repository."""

    modified: frozenset[str] = frozenset()
    added: frozenset[str] = frozenset()
    deleted: frozenset[str] = frozenset()
    renamed: Mapping[str, str] = field(default_factory=dict)  # old path -> new path

    def touches(self, path: str) -> bool:
        return path in self.modified or path in self.deleted or path in self.renamed

    def new_paths(self) -> frozenset[str]:
        """Paths whose content is new or changed on the newer side."""
        return self.modified | self.added | frozenset(self.renamed.values())


def _changes(*diffs: Any) -> TreeChanges:
    """Combine diffs applied one after the other (e.g. tree -> index -> work tree)."""
    pygit2 = _pygit2()
    status = pygit2.enums.DeltaStatus
    modified: set[str] = set()
    added: set[str] = set()
    deleted: set[str] = set()
    renamed: dict[str, str] = {}
    for diff in diffs:
        diff.find_similar(
            flags=pygit2.enums.DiffFind.FIND_RENAMES | pygit2.enums.DiffFind.FIND_FOR_UNTRACKED
        )
        back = {new: old for old, new in renamed.items()}
        for delta in diff.deltas:
            old, new, st = delta.old_file.path, delta.new_file.path, delta.status
            origin = back.get(old, old)
            if st == status.RENAMED:
                renamed[origin] = new
                added.discard(old)
                modified.discard(old)
                if origin == old and old in added:
                    added.discard(old)
            elif st in (status.ADDED, status.UNTRACKED, status.COPIED):
                (modified if new in deleted else added).add(new)
                deleted.discard(new)
            elif st == status.DELETED:
                if old in added:
                    added.discard(old)
                elif origin != old:
                    del renamed[origin]
                    deleted.add(origin)
                else:
                    deleted.add(old)
                    modified.discard(old)
            elif origin != old:
                continue  # a renamed file changed again: still the rename
            elif old not in added:
                modified.add(old)
    return TreeChanges(frozenset(modified), frozenset(added), frozenset(deleted), renamed)


_UNTRACKED = "INCLUDE_UNTRACKED", "RECURSE_UNTRACKED_DIRS"


def _flags(*names: str) -> int:
    option = _pygit2().enums.DiffOption
    out = 0
    for name in names:
        out |= getattr(option, name)
    return out


def changes_since(repo: Any, commit: str | None) -> TreeChanges | None:
    """What changed from `commit` to the work tree (committed, staged, unstaged, untracked).

    None when the commit is not in this repository (so the caller checks everything).
    A repository without commits counts everything in the index and work tree as added.
    """
    pygit2 = _pygit2()
    index = repo.index
    index.read()
    if commit is None:
        return None
    try:
        tree = repo.revparse_single(commit).peel(pygit2.Commit).tree
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
        return None
    staged = index.diff_to_tree(tree)
    work = index.diff_to_workdir(flags=_flags(*_UNTRACKED))
    return _changes(staged, work)


def staged_changes(repo: Any) -> TreeChanges:
    """What the index changes relative to HEAD (all staged files when there is no commit)."""
    index = repo.index
    index.read()
    if repo.head_is_unborn:
        return TreeChanges(added=frozenset(entry.path for entry in index))
    return _changes(index.diff_to_tree(repo.head.peel(_pygit2().Commit).tree))


def range_changes(repo: Any, base: str, head: str | None) -> TreeChanges:
    """What changed from revision `base` to `head` (None: to the work tree)."""
    base_tree = resolve(repo, base).tree
    if head is not None:
        return _changes(repo.diff(base_tree, resolve(repo, head).tree))
    index = repo.index
    index.read()
    return _changes(index.diff_to_tree(base_tree), index.diff_to_workdir(flags=_flags(*_UNTRACKED)))


def read_at(repo: Any, rev: str | None, path: str) -> bytes | None:
    """The content of `path` at revision `rev` ("" = the index, None = the work tree)."""
    if rev is None:
        full = workdir(repo) / path
        try:
            return full.read_bytes() if full.is_file() else None
        except OSError:
            return None
    if rev == "":
        try:
            entry = repo.index[path]
        except KeyError:
            return None
        return bytes(repo[entry.id].data)
    try:
        obj = resolve(repo, rev).tree[path]
    except KeyError:
        return None
    return bytes(obj.data) if obj.type_str == "blob" else None


def tracked_paths(repo: Any) -> list[str]:
    """Every path in the index, sorted."""
    index = repo.index
    index.read()
    return sorted(entry.path for entry in index)
