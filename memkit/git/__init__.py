"""Everything memkit asks of git, through pygit2. The only module that imports pygit2.

pygit2 errors become GitError (a MemkitError) with a message that says what to do.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator, Mapping
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


def signature(repo: Any, role: str = "COMMITTER") -> Any:
    """Who makes memkit's commits: GIT_AUTHOR_* / GIT_COMMITTER_* first, as git does, then
    the configured user.name and user.email. GitError when neither names someone."""
    pygit2 = _pygit2()
    name = os.environ.get(f"GIT_{role}_NAME")
    email = os.environ.get(f"GIT_{role}_EMAIL")
    if not (name and email):
        try:
            default = repo.default_signature
        except (KeyError, pygit2.GitError):
            raise GitError(
                'git has no identity configured; run `git config user.name "Your Name"` and '
                "`git config user.email you@example.com` (or set GIT_AUTHOR_NAME and "
                "GIT_AUTHOR_EMAIL); nothing was written"
            ) from None
        name = name or default.name
        email = email or default.email
    when = _git_date(os.environ.get(f"GIT_{role}_DATE"), f"GIT_{role}_DATE")
    if when is None:
        return pygit2.Signature(name, email)
    return pygit2.Signature(name, email, when[0], when[1])


def _git_date(value: str | None, var: str) -> tuple[int, int] | None:
    """(seconds since the epoch, offset in minutes) from git's date formats, or None."""
    import datetime as dt

    if not value:
        return None
    text = value.strip().removeprefix("@")
    m = re.fullmatch(r"(\d+)(?:\s+([+-])(\d\d)(\d\d))?", text)
    if m:
        sign = -1 if m.group(2) == "-" else 1
        offset = sign * (int(m.group(3) or 0) * 60 + int(m.group(4) or 0))
        return int(m.group(1)), offset
    for parse in (dt.datetime.fromisoformat, _rfc2822):
        try:
            when = parse(text)
        except (ValueError, TypeError):
            continue
        if when.tzinfo is None:
            when = when.astimezone()
        delta = when.utcoffset()
        return int(when.timestamp()), int(delta.total_seconds() // 60) if delta else 0
    raise GitError(f"{var}={value!r} is not a date git understands; use ISO 8601 or @EPOCH +ZZZZ")


def _rfc2822(text: str) -> Any:
    from email.utils import parsedate_to_datetime

    return parsedate_to_datetime(text)


def check_identity(root: Path) -> None:
    """Raise GitError now if a commit here could not be made (before anything is written)."""
    repo = open_repo(root)
    signature(repo, "AUTHOR")
    signature(repo, "COMMITTER")


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
    author, committer = signature(repo, "AUTHOR"), signature(repo, "COMMITTER")
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
    oid = repo.create_commit(ref, author, committer, message, tree, parents)
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


# --- history ---------------------------------------------------------------
# Provenance, review and rollback read git history through these functions:
# one file's history (first parent, following renames, stopping at its creation),
# blobs at a revision, the files of a folder at a revision, the merge base with
# the default branch, and shallow-clone detection.


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


def require_commits(repo: Any, what: str) -> str:
    """HEAD's commit id; GitError naming `what` in a repository without commits."""
    head = head_commit(repo)
    if head is None:
        raise GitError(
            f"{what} needs git history, but the repository at {workdir(repo)} has no commits "
            "yet; commit the memories first (`git add .memory && git commit`)"
        )
    return head


def is_shallow(repo: Any) -> bool:
    return bool(repo.is_shallow)


def shallow_commits(repo: Any) -> frozenset[str]:
    """The commits whose parents a shallow clone does not have."""
    try:
        text = (Path(repo.path) / "shallow").read_text("ascii")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


_TREE_MODE = b"40000"
_BLOB_MODES = (b"100644", b"100755")


def _entry(odb: Any, tree: bytes, name: str, want_tree: bool) -> bytes | None:
    """The raw id of entry `name` in tree `tree`, read from the raw tree object.

    Reading the raw bytes costs a fraction of building pygit2 objects for every
    entry, which matters for a folder of thousands of memories read once per commit.
    """
    data = odb.read(tree.hex())[1]
    needle = b" " + name.encode("utf-8") + b"\x00"
    modes = (_TREE_MODE,) if want_tree else _BLOB_MODES
    start = 0
    while (at := data.find(needle, start)) >= 0:
        end = at + len(needle)
        if any(data[max(0, at - len(m)) : at] == m for m in modes):
            before = at - len(next(m for m in modes if data[max(0, at - len(m)) : at] == m))
            if before == 0 or before >= 20:  # an entry starts after the previous entry's id
                return bytes(data[end : end + 20])
        start = at + 1
    return None


def _chain(
    odb: Any, tree: bytes, parts: list[str], known: list[bytes | None], folder: bool = False
) -> list[bytes | None]:
    """Raw object ids along `parts` from root tree `tree` (None past a missing entry).

    `known` is the chain of a neighbouring commit: where an id is equal, the rest is
    equal too, so only the trees that changed are read. The last part is a file, or
    a folder if `folder`.
    """
    out: list[bytes | None] = [tree]
    for i, name in enumerate(parts):
        cur = out[i]
        if cur == known[i]:
            return out + known[i + 1 :]
        assert cur is not None
        found = _entry(odb, cur, name, want_tree=folder or i < len(parts) - 1)
        if found is None:
            return out + [None] * (len(parts) - i)
        out.append(found)
    return out


def _hex(raw: bytes | None) -> str | None:
    return None if raw is None else raw.hex()


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
    known: Mapping[tuple[str, str], FileHistory] | None = None,
) -> FileHistory:
    """Every commit from `start` back that changed `path`, following renames.

    The walk follows first parents, except at a merge whose file came unchanged from
    another parent: it follows that parent, so a merged change is credited to the
    commit that made it. No topological sort: one parent chain, read newest first.
    It reads only the trees that differ along the path, and stops at the commit that
    created the file (or at the start of a shallow clone's history). `known` holds
    histories computed before, keyed by (commit, path): the walk stops at one of them.
    """
    pygit2 = _pygit2()
    odb = repo.odb
    c = repo[start].peel(pygit2.Commit)
    parts = path.split("/")
    cur = _chain(odb, c.tree_id.raw, parts, [None] * (len(parts) + 1))
    changes: list[FileChange] = []
    boundary = None
    while True:
        if known and (hit := known.get((str(c.id), path))) is not None:
            changes.extend(hit.changes)
            boundary = hit.boundary
            break
        if not c.parent_ids:
            if cur[-1] is not None:
                changes.append(_change(c, path, None, _hex(cur[-1]), None))
                if str(c.id) in shallow_commits(repo):
                    boundary = str(c.id)
            break
        p = repo[c.parent_ids[0]]
        prev = _chain(odb, p.tree_id.raw, parts, cur)
        if prev[-1] == cur[-1]:
            c, cur = p, prev
            continue
        side = _same_side(repo, c, parts, cur)
        if side is not None:  # a merge brought the change: follow the branch that made it
            c, cur = side
            continue
        if cur[-1] is None:
            changes.append(_change(c, None, path, None, _hex(prev[-1])))
        elif prev[-1] is None:
            old = _rename_source(p, c, path, folder)
            if old is None:
                changes.append(_change(c, path, None, _hex(cur[-1]), None))
                break
            parts = old.split("/")
            prev = _chain(odb, p.tree_id.raw, parts, [None] * (len(parts) + 1))
            changes.append(_change(c, path, old, _hex(cur[-1]), _hex(prev[-1])))
            path = old
        else:
            changes.append(_change(c, path, path, _hex(cur[-1]), _hex(prev[-1])))
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
        other = repo[oid]
        chain = _chain(repo.odb, other.tree_id.raw, parts, cur)
        if chain[-1] == cur[-1]:
            return other, chain
    return None


def _rename_source(parent: Any, commit: Any, path: str, folder: str) -> str | None:
    """The path `path` was renamed from in `commit` (within `folder`), if git finds one."""
    old_tree, new_tree = _subtree(parent.tree, folder), _subtree(commit.tree, folder)
    if old_tree is None or new_tree is None or not path.startswith(f"{folder}/"):
        return None
    diff = old_tree.diff_to_tree(new_tree)
    diff.find_similar()
    rel = path[len(folder) + 1 :]
    for delta in diff.deltas:
        if delta.status_char() == "R" and delta.new_file.path == rel:
            return f"{folder}/{delta.old_file.path}"
    return None


def find_deletion(repo: Any, folder: str, name: str, start: str) -> tuple[str, str] | None:
    """The newest first-parent commit that deleted a file called `name` under `folder`.

    Returns (commit, path) or None. Used for the history of a file no longer there.
    """
    for c, old, new in _folder_steps(repo, folder, start):
        if old is None:
            continue
        if new is None:
            paths = [p for p, _ in _walk_tree(old, "")]
            gone = [p for p in paths if p.rsplit("/", 1)[-1] == name]
        else:
            diff = old.diff_to_tree(new)
            diff.find_similar()
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
    pygit2 = _pygit2()
    odb = repo.odb
    parts = folder.split("/")
    c = repo[start].peel(pygit2.Commit)
    cur = _chain(odb, c.tree_id.raw, parts, [None] * (len(parts) + 1), folder=True)
    while True:
        p = repo[c.parent_ids[0]] if c.parent_ids else None
        prev: list[bytes | None] = [None] * len(cur)
        if p is not None:
            prev = _chain(odb, p.tree_id.raw, parts, cur, folder=True)
        if prev[-1] != cur[-1]:
            yield c, _tree_or_none(repo, prev[-1]), _tree_or_none(repo, cur[-1])
        if p is None:
            return
        c, cur = p, prev


def _tree_or_none(repo: Any, raw: bytes | None) -> Any | None:
    return None if raw is None else repo[raw.hex()]


def _subtree(tree: Any, folder: str) -> Any | None:
    try:
        obj = tree[folder]
    except KeyError:
        return None
    return obj if obj.type_str == "tree" else None


def _walk_tree(tree: Any, prefix: str) -> Iterator[tuple[str, str]]:
    for entry in tree:
        name = f"{prefix}{entry.name}"
        if entry.type_str == "tree":
            yield from _walk_tree(entry, f"{name}/")
        elif entry.type_str == "blob":
            yield name, str(entry.id)


def folder_changes(repo: Any, folder: str, start: str, limit: int) -> list[FileChange]:
    """Changes to files under `folder` in the newest `limit` first-parent commits touching it."""
    out: list[FileChange] = []
    for n, (c, old, new) in enumerate(_folder_steps(repo, folder, start)):
        if n == limit:
            break
        out.extend(_tree_delta_changes(repo, c, folder, old, new))
    return out


def _tree_delta_changes(repo: Any, c: Any, folder: str, old: Any, new: Any) -> list[FileChange]:
    empty = repo[repo.TreeBuilder().write()]
    diff = (old or empty).diff_to_tree(new or empty)
    diff.find_similar()
    out = []
    for d in diff.deltas:
        st = d.status_char()
        old_path = None if st == "A" else f"{folder}/{d.old_file.path}"
        new_path = None if st == "D" else f"{folder}/{d.new_file.path}"
        old_blob = None if old_path is None else str(d.old_file.id)
        new_blob = None if new_path is None else str(d.new_file.id)
        out.append(_change(c, new_path, old_path, new_blob, old_blob))
    return sorted(out, key=lambda x: x.path or x.old_path or "")


def blob_at(repo: Any, rev: str, path: str) -> bytes | None:
    """The bytes of `path` at revision `rev`, or None if it did not exist there."""
    commit = resolve(repo, rev)
    try:
        obj = commit.tree[path]
    except KeyError:
        return None
    return bytes(obj.data) if obj.type_str == "blob" else None


def read_blob(repo: Any, oid: str) -> bytes:
    return bytes(repo[oid].data)


def files_at(repo: Any, rev: str, folder: str) -> dict[str, str]:
    """{path: blob id} of every file under `folder` at revision `rev` ({} if none)."""
    commit = resolve(repo, rev)
    tree = _subtree(commit.tree, folder)
    if tree is None:
        return {}
    return {f"{folder}/{p}": oid for p, oid in _walk_tree(tree, "")}


def default_branch(repo: Any) -> str | None:
    """The default branch's ref: origin/HEAD, else main, master, origin/main, origin/master."""
    try:
        target = repo.lookup_reference("refs/remotes/origin/HEAD").target
        if isinstance(target, str):
            return target
    except (KeyError, ValueError):
        pass
    for ref in (
        "refs/heads/main",
        "refs/heads/master",
        "refs/remotes/origin/main",
        "refs/remotes/origin/master",
    ):
        if ref in repo.references:
            return ref
    return None


def merge_base_with_default(repo: Any, head: str) -> str | None:
    """The merge base of `head` and the default branch (None: no default branch or base)."""
    ref = default_branch(repo)
    if ref is None:
        return None
    other = repo.lookup_reference(ref).peel(_pygit2().Commit).id
    base = repo.merge_base(other, resolve(repo, head).id)
    return None if base is None else str(base)
