"""History walks: one file's commits (following renames), a folder's changes, deletions.

file_history walks first parents from a commit, following renames and crediting a
merged change to the commit that made it; folder_changes and find_deletion walk the
commits that changed a folder. Provenance, review and rollback (memkit.history)
read git history through these.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memkit.git.objects import objects_of, tree_of
from memkit.git.repo import load_pygit2, shallow_commits
from memkit.git.trees import chain, hex_id, subtree, tree_or_none, walk_tree


@dataclass(frozen=True)
class FileChange:
    """One commit that changed a file: the blobs before and after (None if absent)."""

    commit: str
    author: str
    email: str
    time: int  # seconds since the epoch
    offset: int  # the author's UTC offset in minutes
    message: str
    path: str | None  # the file's path after the commit (None: deleted)
    old_path: str | None  # before the commit (None: created)
    blob: str | None
    old_blob: str | None


@dataclass(frozen=True)
class FileHistory:
    """Newest first. `boundary`: the oldest commit a shallow clone has, if reached."""

    changes: tuple[FileChange, ...]
    boundary: str | None = None


def _change(c: Any, path: str | None, old: str | None, blob: Any, old_blob: Any) -> FileChange:
    a = c.author
    return FileChange(
        commit=str(c.id),
        author=a.name,
        email=a.email,
        time=int(a.time),
        offset=int(a.offset),
        message=c.message,
        path=path,
        old_path=old,
        blob=blob,
        old_blob=old_blob,
    )


def file_history(
    repo: Any,
    path: str,
    start: str,
    folder: str,
) -> FileHistory:
    """Every commit from `start` back that changed `path`, following renames.

    The walk follows first parents, except at a merge whose file came unchanged from
    another parent: it follows that parent, so a merged change is credited to the
    commit that made it. No topological sort: one parent chain, read newest first.
    It reads only the trees that differ along the path, and stops at the commit that
    created the file (or at the start of a shallow clone's history).
    """
    pygit2 = load_pygit2()
    odb = objects_of(repo)
    c = odb.lookup(start).peel(pygit2.Commit)
    parts = path.split("/")
    cur = chain(odb, c.tree_id.raw, parts, [None] * (len(parts) + 1))
    changes: list[FileChange] = []
    boundary = None
    while True:
        if not c.parent_ids:
            if cur[-1] is not None:
                changes.append(_change(c, path, None, hex_id(cur[-1]), None))
                if str(c.id) in shallow_commits(repo):
                    boundary = str(c.id)
            break
        p = odb.lookup(str(c.parent_ids[0]))
        prev = chain(odb, p.tree_id.raw, parts, cur)
        if prev[-1] == cur[-1]:
            c, cur = p, prev
            continue
        side = _same_side(repo, c, parts, cur)
        if side is not None:  # a merge brought the change: follow the branch that made it
            c, cur = side
            continue
        if cur[-1] is None:
            changes.append(_change(c, None, path, None, hex_id(prev[-1])))
        elif prev[-1] is None:
            old = _rename_source(repo, p, c, path, folder)
            if old is None:
                changes.append(_change(c, path, None, hex_id(cur[-1]), None))
                break
            parts = old.split("/")
            prev = chain(odb, p.tree_id.raw, parts, [None] * (len(parts) + 1))
            changes.append(_change(c, path, old, hex_id(cur[-1]), hex_id(prev[-1])))
            path = old
        else:
            changes.append(_change(c, path, path, hex_id(cur[-1]), hex_id(prev[-1])))
        c, cur = p, prev
    return FileHistory(tuple(changes), boundary)


def _same_side(
    repo: Any, merge: Any, parts: list[str], cur: list[bytes | None]
) -> tuple[Any, list[bytes | None]] | None:
    """A parent of `merge` other than the first whose file is the merge's, if any.

    The commits of a merged branch are then the file's history (like git's default
    history simplification), rather than the merge commit.
    """
    for oid in merge.parent_ids[1:]:
        other = objects_of(repo).lookup(str(oid))
        ids = chain(objects_of(repo), other.tree_id.raw, parts, cur)
        if ids[-1] == cur[-1]:
            return other, ids
    return None


def _rename_source(repo: Any, parent: Any, commit: Any, path: str, folder: str) -> str | None:
    """The path `path` was renamed from in `commit` (within `folder`), if git finds one."""
    old_tree = subtree(tree_of(repo, parent), folder)
    new_tree = subtree(tree_of(repo, commit), folder)
    if old_tree is None or new_tree is None or not path.startswith(f"{folder}/"):
        return None
    diff = _diff(repo, old_tree, new_tree)
    rel = path[len(folder) + 1 :]
    for delta in diff.deltas:
        if delta.status_char() == "R" and delta.new_file.path == rel:
            renamed = delta.old_file.path.rsplit("/", 1)[-1] != rel.rsplit("/", 1)[-1]
            if renamed and delta.similarity < RENAMED_ID_SIMILARITY:
                return None  # another memory deleted as this one was added, not this one
            return f"{folder}/{delta.old_file.path}"
    return None


# A file name is a memory's id: git's rename guess (50% similar) across two names
# often pairs a deleted memory with an unrelated new one, so it must be this close.
RENAMED_ID_SIMILARITY = 90


def find_deletion(repo: Any, folder: str, name: str, start: str) -> tuple[str, str] | None:
    """The newest first-parent commit that deleted a file called `name` under `folder`.

    Returns (commit, path) or None. Used for the history of a file no longer there.
    """
    for c, old, new in _folder_steps(repo, folder, start):
        if old is None:
            continue
        if new is None:
            paths = [p for p, _ in walk_tree(repo, old, "")]
            gone = [p for p in paths if p.rsplit("/", 1)[-1] == name]
        else:
            diff = _diff(repo, old, new)
            gone = [
                d.old_file.path
                for d in diff.deltas
                if d.status_char() in "DR"
                and d.old_file.path.rsplit("/", 1)[-1] == name
                and not (d.status_char() == "R" and d.new_file.path.rsplit("/", 1)[-1] == name)
            ]
        if gone:
            return str(c.id), f"{folder}/{sorted(gone)[0]}"
    return None


def _folder_steps(repo: Any, folder: str, start: str) -> Iterator[tuple[Any, Any, Any]]:
    """(commit, folder tree in its first parent, folder tree in it), newest first, for
    the first-parent commits that changed the folder; trees are None where it is absent.

    Compares tree ids along the folder's path; reads a tree object only when yielding.
    """
    pygit2 = load_pygit2()
    odb = objects_of(repo)
    parts = folder.split("/")
    c = odb.lookup(start).peel(pygit2.Commit)
    cur = chain(odb, c.tree_id.raw, parts, [None] * (len(parts) + 1), folder=True)
    while True:
        p = odb.lookup(str(c.parent_ids[0])) if c.parent_ids else None
        prev: list[bytes | None] = [None] * len(cur)
        if p is not None:
            prev = chain(odb, p.tree_id.raw, parts, cur, folder=True)
        if prev[-1] != cur[-1]:
            yield c, tree_or_none(repo, prev[-1]), tree_or_none(repo, cur[-1])
        if p is None:
            return
        c, cur = p, prev


def folder_changes(repo: Any, folder: str, start: str, limit: int) -> list[FileChange]:
    """Changes to files under `folder` in the newest `limit` first-parent commits touching it."""
    out: list[FileChange] = []
    for n, (c, old, new) in enumerate(_folder_steps(repo, folder, start)):
        if n == limit:
            break
        out.extend(_tree_delta_changes(repo, c, folder, old, new))
    return out


def _tree_delta_changes(repo: Any, c: Any, folder: str, old: Any, new: Any) -> list[FileChange]:
    diff = _diff(repo, old, new)
    out = []
    for d in diff.deltas:
        st = d.status_char()
        old_path = None if st == "A" else f"{folder}/{d.old_file.path}"
        new_path = None if st == "D" else f"{folder}/{d.new_file.path}"
        old_blob = None if old_path is None else str(d.old_file.id)
        new_blob = None if new_path is None else str(d.new_file.id)
        out.append(_change(c, new_path, old_path, new_blob, old_blob))
    return sorted(out, key=lambda x: x.path or x.old_path or "")


def _diff(repo: Any, old: Any, new: Any) -> Any:
    """libgit2's diff of two folder trees (None: absent) with rename detection, once the
    change is known to be within memkit.git.bounded's limits (TreeLimitError past them:
    libgit2 would expand a tree bomb in full). Renames are not looked for when a file
    added or deleted is over MAX_FILE_BYTES: git's similarity reads each in full. The
    files added and deleted are fetched first where a partial clone lacks them; those
    it cannot get leave renames to exact matches (the same blob under a new name)."""
    from memkit.git.bounded import check_changes, too_large

    pygit2 = load_pygit2()
    odb = objects_of(repo)
    check_changes(odb, str(old.id) if old else None, str(new.id) if new else None)
    empty = repo[repo.TreeBuilder().write()]
    diff = (old or empty).diff_to_tree(new or empty)
    sides = [
        str(f.id)
        for d in diff.deltas
        if d.status_char() in "AD"
        for f in [d.new_file if d.status_char() == "A" else d.old_file]
        if f.mode != 0o160000
    ]  # fmt: skip (a submodule's commit is not ours to read)
    find = pygit2.enums.DiffFind
    if odb.prefetch(sides):
        diff.find_similar(flags=find.FIND_RENAMES | find.FIND_EXACT_MATCH_ONLY)
    elif not too_large(odb, sides):
        diff.find_similar(flags=find.FIND_RENAMES)
    return diff
