"""History walks: one file's commits (following renames), a folder's changes, deletions.

file_history walks first parents from a commit, following renames and crediting a
merged change to the commit that made it; folder_changes and find_deletion walk the
commits that changed a folder. Provenance, review and rollback (memkit.history)
read git history through these.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from memkit.git.objects import objects_of, tree_of
from memkit.git.repo import load_pygit2, shallow_commits
from memkit.git.trees import chain, hex_id, subtree, tree_or_none


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
        str(c.id), a.name, a.email, int(a.time), int(a.offset), c.message, path, old, blob, old_blob
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
    rel = path[len(folder) + 1 :]
    for delta in _deltas(repo, old_tree, new_tree):
        if delta.status == "R" and delta.new_path == rel:
            renamed = delta.old_path.rsplit("/", 1)[-1] != rel.rsplit("/", 1)[-1]
            if renamed and delta.similarity < RENAMED_ID_SIMILARITY:
                return None  # another memory deleted as this one was added, not this one
            return f"{folder}/{delta.old_path}"
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
        raw = _raw_diff(repo, old, new)
        gone = [d.old_path for d in _listed(raw) if d.status == "D" and _named(d.old_path, name)]
        if gone:  # unless git pairs it with a file of the same name (a move)
            gone = [
                d.old_path
                for d in _paired(repo, raw, old, new)
                if d.status in "DR"
                and _named(d.old_path, name)
                and not (d.status == "R" and _named(d.new_path, name))
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
    """Changes to files under `folder` in the newest `limit` first-parent commits touching
    it (newest first; a commit's by path)."""
    out: list[FileChange] = []
    for c, old, new in islice(_folder_steps(repo, folder, start), limit):
        step = []
        for d in _deltas(repo, old, new):
            old_path = None if d.status == "A" else f"{folder}/{d.old_path}"
            new_path = None if d.status == "D" else f"{folder}/{d.new_path}"
            old_blob = None if old_path is None else d.old_blob
            new_blob = None if new_path is None else d.new_blob
            step.append(_change(c, new_path, old_path, new_blob, old_blob))
        out += sorted(step, key=lambda x: x.path or x.old_path or "")
    return out


def _named(path: str, name: str) -> bool:
    return path.rsplit("/", 1)[-1] == name


@dataclass(frozen=True)
class _Delta:
    """One file's change between two folder trees; status is git's letter (A D M T R)."""

    status: str
    old_path: str  # relative to the folder
    new_path: str
    old_blob: str
    new_blob: str
    similarity: int = 100  # of a rename (R), as git scores it


def _listed(diff: Any) -> list[_Delta]:
    return [
        _Delta(
            d.status_char(),
            d.old_file.path,
            d.new_file.path,
            str(d.old_file.id),
            str(d.new_file.id),
            d.similarity if d.status_char() == "R" else 100,
        )
        for d in diff.deltas
    ]


def _deltas(repo: Any, old: Any, new: Any) -> list[_Delta]:
    """What changed between two folder trees (None: absent), renames paired."""
    return _paired(repo, _raw_diff(repo, old, new), old, new)


def _raw_diff(repo: Any, old: Any, new: Any) -> Any:
    """libgit2's diff of two folder trees (None: absent), renames not yet paired, once
    the change is known to be within memkit.git.bounded's limits (TreeLimitError past
    them: libgit2 would expand a tree bomb in full)."""
    from memkit.git.bounded import check_changes

    check_changes(objects_of(repo), str(old.id) if old else None, str(new.id) if new else None)
    empty = repo[repo.TreeBuilder().write()]
    return (old or empty).diff_to_tree(new or empty)


def _paired(repo: Any, diff: Any, old: Any, new: Any) -> list[_Delta]:
    """`diff` (of folder trees `old` and `new`) with its renames paired as `git diff -M`
    pairs them, the renames `memkit check` and `git log --follow` see
    (memkit.git.changes.find_renames); libgit2's find_similar only when git cannot say.
    Renames are not looked for when a file added or deleted is over MAX_FILE_BYTES:
    similarity reads each in full. The files added and deleted are fetched first where
    a partial clone lacks them; those it cannot get leave renames to exact matches
    (the same blob under a new name)."""
    from memkit.git.bounded import MAX_FILE_BYTES
    from memkit.git.changes import find_renames

    if old is None or new is None:
        return _listed(diff)  # all added or all deleted: nothing to pair
    how = ("diff-tree", str(old.id), str(new.id))
    found = find_renames(repo, diff, how, MAX_FILE_BYTES)[1]
    listed = _listed(diff)
    if not found:
        return listed
    ids = {(d.status, d.old_path if d.status == "D" else d.new_path): d for d in listed}
    targets = {new for new, _ in found.values()}
    out = [d for d in listed if not (d.status == "D" and d.old_path in found)]
    out = [d for d in out if not (d.status == "A" and d.new_path in targets)]
    for was, (now, score) in found.items():
        gone, made = ids[("D", was)], ids[("A", now)]
        out.append(_Delta("R", was, now, gone.old_blob, made.new_blob, score))
    return out
