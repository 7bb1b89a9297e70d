"""What changed between two states of the repository, with git's rename detection.

TreeChanges holds the paths modified, added, deleted and renamed; local_changes,
staged_changes, changes_since and range_changes compute them from HEAD, the index,
the work tree (untracked files included) or two revisions. Used by memkit.staleness.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.git.bounded import MAX_TREE_BYTES, too_large
from memkit.git.objects import tree_of
from memkit.git.repo import load_pygit2, resolve


@dataclass(frozen=True)
class TreeChanges:
    """Paths (relative to the work tree) that differ between two states of the repository."""

    modified: frozenset[str] = frozenset()
    added: frozenset[str] = frozenset()
    deleted: frozenset[str] = frozenset()
    renamed: Mapping[str, str] = field(default_factory=dict)  # old path -> new path
    # files rename detection could not read (a partial clone that could not fetch them):
    # {path: why}; a path deleted here may then have been renamed
    unseen: Mapping[str, str] = field(default_factory=dict)

    def touches(self, path: str) -> bool:
        """Whether `path` (as named at either end) may differ: a link whose file did not
        exist at the older side (a hand-edited link, say) is looked at, not assumed."""
        return (
            path in self.modified
            or path in self.deleted
            or path in self.renamed
            or path in self.added
            or path in self._renamed_to
        )

    @functools.cached_property
    def _renamed_to(self) -> frozenset[str]:
        return frozenset(self.renamed.values())

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
        unseen = {**self.unseen, **later.unseen}
        return TreeChanges(
            frozenset(modified), frozenset(added), frozenset(deleted), renamed, unseen
        )

    def new_paths(self) -> frozenset[str]:
        """Paths whose content is new or changed on the newer side."""
        return self.modified | self.added | frozenset(self.renamed.values())


def _changes(repo: Any, how: str | tuple[str, ...], diff: Any, renames: bool = True) -> TreeChanges:
    """libgit2's `diff` as a change. `how` is "work" when its new side is the work tree,
    or the arguments of the `git` command that diffs the same two sides (a tree-to-tree
    diff, whose large files skip rename detection, or the index against a tree)."""
    pygit2 = load_pygit2()
    status = pygit2.enums.DeltaStatus
    unseen: dict[str, str] = {}
    found: dict[str, tuple[str, int]] | None = None
    if renames:
        unseen, found = find_renames(repo, diff, how)
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
    if found:
        renamed = {old: new for old, (new, _) in found.items()}
        deleted -= found.keys()
        added -= set(renamed.values())
    return TreeChanges(frozenset(modified), frozenset(added), frozenset(deleted), renamed, unseen)


def find_renames(
    repo: Any, diff: Any, how: str | tuple[str, ...], limit: int = MAX_TREE_BYTES
) -> tuple[dict[str, str], dict[str, tuple[str, int]] | None]:
    """git's rename detection on `diff`. It reads every file added or deleted: those a
    partial clone lacks are fetched first, in one batch; when some cannot be, renames
    are only the exact ones (the same blob under a new name) and {path: why} of the
    files it could not read is returned first. Between two trees (no renames looked for
    when a file is over `limit` bytes), or the index and a tree, the `git` command itself
    is asked (`how`), so that a rename is the one `git diff`, `git status` and `git log
    --follow` show (libgit2's similarity scores differently: near git's 50% threshold
    the two disagree both ways); its {old path: (new path, git's similarity)} is
    returned second, and None when libgit2 marked the renames in `diff` (no git, or the
    work tree: git does not pair untracked files)."""
    from memkit.git.objects import objects_of

    find = load_pygit2().enums.DiffFind
    objects = objects_of(repo)
    work = how == "work"  # added files are read from disk, not from the objects
    sides = {
        str(f.id): f.path
        for d in diff.deltas
        if d.status_char() in "AD" and not (work and d.status_char() == "A")
        for f in [d.new_file if d.status_char() == "A" else d.old_file]
        if f.mode != GITLINK  # a submodule's commit lives in another repository
    }
    unseen = objects.prefetch(sides)
    flags = find.FIND_RENAMES | find.FIND_FOR_UNTRACKED
    if unseen:
        diff.find_similar(flags=flags | find.FIND_EXACT_MATCH_ONLY)
        why = {sides[o]: objects.why(o, f"the blob of {sides[o]} ({o[:12]})") for o in unseen}
        return why, None
    trees = isinstance(how, tuple) and how[0] == "diff-tree"
    if trees and too_large(objects, sides, limit):  # similarity reads each in full
        return {}, None
    if isinstance(how, tuple):
        found = git_renames(repo, diff, how)
        if found is not None:
            return {}, found
    diff.find_similar(flags=flags)
    return {}, None


def git_renames(repo: Any, diff: Any, how: tuple[str, ...]) -> dict[str, tuple[str, int]] | None:
    """git's renames in libgit2's `diff` (not yet paired by find_similar), asking the
    `git` command `how` that diffs the same two sides: {old path: (new path, git's
    similarity 0-100)}. None: git could not say, or paired files `diff` does not have
    as deleted and added. git is not started when nothing was both. Its blobs must be
    present (a partial clone's fetched first): git is not let fetch them one by one."""
    from pathlib import Path

    from memkit.git import plain

    deleted = {d.old_file.path for d in diff.deltas if d.status_char() == "D"}
    added = {d.new_file.path for d in diff.deltas if d.status_char() == "A"}
    if not (deleted and added):
        return {}
    found = plain.scored_renames(Path(repo.path), *how)
    if found is None or not (
        found.keys() <= deleted and {new for new, _ in found.values()} <= added
    ):
        return None
    return found


GITLINK = 0o160000  # the mode of a submodule entry


def local_changes(repo: Any) -> TreeChanges:
    """What the index and the work tree (untracked files included) change relative to HEAD."""
    staged = staged_changes(repo)  # reads the index first
    option = load_pygit2().enums.DiffOption
    untracked = option.INCLUDE_UNTRACKED | option.RECURSE_UNTRACKED_DIRS
    return staged.then(_changes(repo, "work", repo.index.diff_to_workdir(flags=untracked)))


def changes_since(
    repo: Any, commit: str | None, local: TreeChanges | None = None
) -> TreeChanges | None:
    """What changed from `commit` to the work tree (committed, staged, unstaged, untracked).

    None when there is no such commit in this repository (the caller then checks
    everything). `local` is local_changes(repo), passed in when already known.
    """
    pygit2 = load_pygit2()
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
    return _tree_changes(repo, tree_of(repo, old), tree_of(repo, head)).then(local)


def staged_changes(repo: Any) -> TreeChanges:
    """What the index changes relative to HEAD (all staged files when there is no commit)."""
    index = repo.index
    index.read()
    if repo.head_is_unborn:
        return TreeChanges(added=frozenset(entry.path for entry in index))
    head = _head_tree(repo)
    return _changes(repo, ("diff-index", "--cached", str(head.id)), index.diff_to_tree(head))


def range_changes(repo: Any, base: str, head: str | None, *, renames: bool = True) -> TreeChanges:
    """What changed from revision `base` to `head` (None: to the work tree).

    `renames=False` (two revisions only) skips git's rename detection: a renamed file
    is then deleted at its old path and added at its new one, which touches() answers
    for exactly as with renames; only `renamed` is left empty.
    """
    base_tree = tree_of(repo, resolve(repo, base))
    if head is not None:
        return _tree_changes(repo, base_tree, tree_of(repo, resolve(repo, head)), renames)
    if repo.head_is_unborn:
        return _changes(repo, "work", repo.diff(base_tree, None))
    return _tree_changes(repo, base_tree, _head_tree(repo)).then(local_changes(repo))


def _head_tree(repo: Any) -> Any:
    return tree_of(repo, repo.head.peel(load_pygit2().Commit))


def _tree_changes(repo: Any, old: Any, new: Any, renames: bool = True) -> TreeChanges:
    """What changed from tree `old` to tree `new`, diffed by libgit2 once what differs
    is known to be within memkit.git.bounded's limits (a branch can hold a tree naming
    a billion paths); renames are git's own (see find_renames)."""
    from memkit.git.bounded import check_changes
    from memkit.git.objects import objects_of

    old_id, new_id = str(old.id), str(new.id)
    check_changes(objects_of(repo), old_id, new_id)
    return _changes(repo, ("diff-tree", old_id, new_id), repo.diff(old, new), renames)
