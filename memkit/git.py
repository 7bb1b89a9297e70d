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

    def then(self, later: TreeChanges) -> TreeChanges:
        """These changes followed by `later` ones, as one set of changes."""
        modified: set[str] = set()
        added: set[str] = set()
        deleted = set(self.deleted)
        renamed: dict[str, str] = {}
        for old, new in [*self.renamed.items(), *((p, p) for p in self.modified)]:
            if new in later.deleted:
                deleted.add(old)
            elif new in later.renamed:
                renamed[old] = later.renamed[new]
            elif old != new:
                renamed[old] = new
            else:
                modified.add(old)
        for path in self.added - later.deleted:
            added.add(later.renamed.get(path, path))
        seen = set(self.renamed.values()) | self.modified | self.added
        modified |= later.modified - seen
        deleted |= later.deleted - seen
        renamed.update((p, q) for p, q in later.renamed.items() if p not in seen)
        for path in later.added:
            (modified if path in deleted else added).add(path)
            deleted.discard(path)
        return TreeChanges(frozenset(modified), frozenset(added), frozenset(deleted), renamed)

    def new_paths(self) -> frozenset[str]:
        """Paths whose content is new or changed on the newer side."""
        return self.modified | self.added | frozenset(self.renamed.values())


def _changes(*diffs: Any) -> TreeChanges:
    """Diffs applied one after the other (e.g. tree -> index -> work tree), as one change."""
    out = TreeChanges()
    for diff in diffs:
        out = out.then(_one(diff))
    return out


def _one(diff: Any) -> TreeChanges:
    pygit2 = _pygit2()
    status = pygit2.enums.DeltaStatus
    diff.find_similar(
        flags=pygit2.enums.DiffFind.FIND_RENAMES | pygit2.enums.DiffFind.FIND_FOR_UNTRACKED
    )
    modified: set[str] = set()
    added: set[str] = set()
    deleted: set[str] = set()
    renamed: dict[str, str] = {}
    for delta in diff.deltas:
        old, new, st = delta.old_file.path, delta.new_file.path, delta.status
        if st == status.RENAMED:
            renamed[old] = new
        elif st in (status.ADDED, status.UNTRACKED, status.COPIED):
            added.add(new)
        elif st == status.DELETED:
            deleted.add(old)
        elif st != status.UNMODIFIED:
            modified.add(old)
    return TreeChanges(frozenset(modified), frozenset(added), frozenset(deleted), renamed)


_UNTRACKED = "INCLUDE_UNTRACKED", "RECURSE_UNTRACKED_DIRS"


def _flags(*names: str) -> int:
    option = _pygit2().enums.DiffOption
    out = 0
    for name in names:
        out |= getattr(option, name)
    return out


def local_changes(repo: Any) -> TreeChanges:
    """What the index and the work tree (untracked files included) change relative to HEAD."""
    index = repo.index
    index.read()
    work = index.diff_to_workdir(flags=_flags(*_UNTRACKED))
    if repo.head_is_unborn:
        staged = TreeChanges(added=frozenset(entry.path for entry in index))
        return staged.then(_changes(work))
    return _changes(index.diff_to_tree(repo.head.peel(_pygit2().Commit).tree), work)


def changes_since(
    repo: Any, commit: str | None, local: TreeChanges | None = None
) -> TreeChanges | None:
    """What changed from `commit` to the work tree (committed, staged, unstaged, untracked).

    None when there is no such commit in this repository (the caller then checks
    everything). `local` is local_changes(repo), passed in when already known.
    """
    pygit2 = _pygit2()
    if commit is None or repo.head_is_unborn:
        return None
    try:
        old = repo.revparse_single(commit).peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
        return None
    head = repo.head.peel(pygit2.Commit)
    local = local if local is not None else local_changes(repo)
    if old.id == head.id:
        return local
    return _changes(repo.diff(old.tree, head.tree)).then(local)


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
    if repo.head_is_unborn:
        return _changes(repo.diff(base_tree, None))
    head_tree = repo.head.peel(_pygit2().Commit).tree
    return _changes(repo.diff(base_tree, head_tree)).then(local_changes(repo))


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
