"""A memory's provenance from git history: its log, its text at any revision, revert.

git is memkit's database: every commit that touched a memory file is an entry of its
history. The history follows renames and moves between folders, walks first parents
only and stops at the commit that created the file, so it stays fast in long histories.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from memkit import git
from memkit import memory as mm
from memkit.errors import GitError, MemoryNotFoundError
from memkit.history.snapshots import is_memory_path, stem
from memkit.memory import Memory
from memkit.store import Store
from memkit.walk import MEMORY_DIR

DEFAULT_LIMIT = 20


@dataclass(frozen=True)
class LogEntry:
    """One commit that changed one memory file."""

    commit: str
    author: str
    email: str
    date: str  # ISO 8601 with the author's UTC offset
    message: str
    id: str
    action: str  # added | modified | renamed | deleted | present (a shallow clone's start)
    path: str | None  # after the commit (None: deleted)
    old_path: str | None  # before the commit (None: added)
    fields: tuple[str, ...] = ()  # front-matter fields that changed
    body: bool = False  # the text changed

    @property
    def day(self) -> str:
        return self.date[:10]

    @property
    def summary(self) -> str:
        return self.message.split("\n", 1)[0]

    def what(self) -> str:
        """What changed, in words: `modified: status, body`, `renamed from X`..."""
        parts = [*self.fields, *(["body"] if self.body else [])]
        if self.action == "renamed":
            moved = f"renamed from {self.old_path}"
            return f"{moved}; {', '.join(parts)}" if parts else moved
        if self.action == "modified":
            return f"modified: {', '.join(parts)}" if parts else "modified: formatting"
        if self.action == "present":
            return "present (a shallow clone's history starts here)"
        return self.action

    def to_record(self) -> dict[str, Any]:
        message = self.message.rstrip("\n")
        return {**dataclasses.asdict(self), "message": message, "fields": list(self.fields)}


@dataclass(frozen=True)
class Log:
    """Newest first. `boundary`: where a shallow clone's history starts, if reached."""

    entries: tuple[LogEntry, ...]
    boundary: str | None = None
    shallow: bool = False


def repo_and_folder(store: Store) -> tuple[Any, str]:
    """The store's repository and the store folder's path inside it."""
    repo = git.open_repo(store.root)
    folder = store.dir.relative_to(git.workdir(repo)).as_posix()
    return repo, folder


def repo_path(folder: str, rel: str) -> str:
    """A path relative to the store root -> relative to the repository's top."""
    return f"{folder}/{rel[len(MEMORY_DIR) + 1 :]}"


def _store_path(folder: str, path: str | None) -> str | None:
    return None if path is None else f"{MEMORY_DIR}/{path[len(folder) + 1 :]}"


def _iso(seconds: int, offset: int) -> str:
    tz = dt.timezone(dt.timedelta(minutes=offset))
    return dt.datetime.fromtimestamp(seconds, tz).isoformat()


def _parse(data: bytes | None, path: str) -> Memory | None:
    if data is None:
        return None
    mem, _ = mm.parse_all(data, mid=stem(path), path=path)
    return mem


def changed_parts(old: Memory | None, new: Memory | None) -> tuple[tuple[str, ...], bool]:
    """The front-matter fields that differ, and whether the text differs."""
    if old is None or new is None:
        return (), False
    a, b = old.fields(), new.fields()
    fields = tuple(k for k in mm.FIELDS if a.get(k) != b.get(k))
    return fields, old.text != new.text


def _entry(repo: Any, folder: str, ch: git.FileChange, boundary: str | None = None) -> LogEntry:
    path, old_path = _store_path(folder, ch.path), _store_path(folder, ch.old_path)
    if ch.path is None:
        action = "deleted"
    elif ch.old_path is None:
        action = "present" if ch.commit == boundary else "added"
    elif ch.old_path != ch.path:
        action = "renamed"
    else:
        action = "modified"
    fields: tuple[str, ...] = ()
    body = False
    if ch.blob is not None and ch.old_blob is not None:
        old = _parse(git.read_blob(repo, ch.old_blob), old_path or "")
        new = _parse(git.read_blob(repo, ch.blob), path or "")
        fields, body = changed_parts(old, new)
    date, mid = _iso(ch.time, ch.offset), stem(path or old_path or "")
    return LogEntry(
        ch.commit, ch.author, ch.email, date, ch.message, mid, action, path, old_path, fields, body
    )


def on_disk(store: Store, mid: str) -> str | None:
    """Memory `mid`'s path relative to the store root, or None if it has no file now."""
    try:
        return store.rel(store.path_of(mid))
    except MemoryNotFoundError:
        return None


def _locate(
    store: Store, repo: Any, folder: str, mid: str, start: str, rel: str | None = None
) -> str:
    """The repository path of memory `mid` at `start`, or where it was before its deletion.

    `rel`: the memory's path relative to the store root, when the caller has it.
    """
    rel = rel or on_disk(store, mid)
    current = None
    if rel is not None:
        current = repo_path(folder, rel)
        if git.blob_at(repo, start, current) is not None:
            return current
    if at_start := [p for p in git.files_at(repo, start, folder) if stem(p) == mid]:
        return sorted(at_start)[0]
    if current is not None:
        return current  # new, or put back after a deletion: the walk tells
    found = git.find_deletion(repo, folder, f"{mid}.md", start)
    if found is None:
        gap = "" if not git.is_shallow(repo) else f" this shallow clone has ({git.DEEPEN})"
        raise MemoryNotFoundError(
            f"no memory with id {mid!r} now or in the history of {start[:12]}{gap} "
            "(see `memkit list` and `memkit log`)"
        )
    return found[1]


def memory_log(store: Store, mid: str, rev: str | None = None, rel: str | None = None) -> Log:
    """The history of memory `mid` (newest first), following renames, from `rev` or HEAD.

    A memory deleted since is found where it was; its history starts with the deletion.
    `rel`: the memory's path now (relative to the store root), when the caller has it.
    """
    repo, folder = repo_and_folder(store)
    head = git.require_commits(repo, "`memkit log`")
    start = str(git.resolve(repo, rev).id) if rev else head
    path = _locate(store, repo, folder, mid, start, rel)
    hist = git.file_history(repo, path, start, folder)
    if not hist.changes:
        raise GitError(
            f"{_store_path(folder, path)} is not committed yet, so it has no history; commit "
            "it first (`memkit add --commit`, or `git add` and `git commit`)"
        )
    entries = tuple(_entry(repo, folder, ch, hist.boundary) for ch in hist.changes)
    return Log(entries, hist.boundary, git.is_shallow(repo))


def store_log(store: Store, limit: int = DEFAULT_LIMIT) -> Log:
    """Memory changes in the newest `limit` commits that touched the store."""
    repo, folder = repo_and_folder(store)
    head = git.require_commits(repo, "`memkit log`")
    changes = git.folder_changes(repo, folder, head, limit)
    entries = tuple(
        _entry(repo, folder, ch)
        for ch in changes
        if is_memory_path((ch.path or ch.old_path or "")[len(folder) + 1 :])
    )
    return Log(entries, None, git.is_shallow(repo))


def memory_at(store: Store, mid: str, rev: str) -> Memory:
    """Memory `mid` as it was at revision `rev` (also one deleted since)."""
    data, path, _ = version_at(store, mid, rev)
    mem = mm.parse(data, mid=mid, path=f"{path} at {rev}")
    return dataclasses.replace(mem, path=path)


def version_at(store: Store, mid: str, rev: str) -> tuple[bytes, str, str]:
    """(bytes, store-relative path, commit id) of memory `mid` at `rev`."""
    repo, folder = repo_and_folder(store)
    git.require_commits(repo, "reading a memory at a revision")
    commit = str(git.resolve(repo, rev).id)
    candidates = [p for p in git.files_at(repo, commit, folder) if stem(p) == mid]
    if not candidates:
        for entry in memory_log(store, mid).entries:
            for p in (entry.old_path, entry.path):
                if p and git.blob_at(repo, commit, repo_path(folder, p)) is not None:
                    candidates.append(repo_path(folder, p))
    if not candidates:
        raise MemoryNotFoundError(
            f"memory {mid!r} did not exist at {rev} ({commit[:12]}); "
            f"see `memkit log {mid}` for the commits that have it"
        )
    path = sorted(candidates)[0]
    data = git.blob_at(repo, commit, path)
    assert data is not None
    return data, _store_path(folder, path) or path, commit


@dataclass(frozen=True)
class Provenance:
    """Where a memory comes from: its first and latest commits (None if not committed)."""

    created: LogEntry | None
    changed: LogEntry | None  # the latest change, if later than the creation
    uncommitted: bool  # the file differs from HEAD
    boundary: str | None  # a shallow clone's history starts here
    reason: str = ""  # why there is no history: "no commits", "not committed"

    def lines(self) -> list[tuple[str, str]]:
        """(label, text) lines for `memkit show`."""
        out = [] if self.created else [("committed", f"not yet ({self.reason})")]
        for label, c in (("committed", self.created), ("changed", self.changed)):
            if c is not None:
                out.append((label, f"{c.day} by {c.author} in {c.commit[:12]} ({c.what()})"))
        if self.boundary:
            out.append(("history", f"shallow clone, starts at {self.boundary[:12]}"))
        if self.uncommitted and self.created is not None:
            out.append(("uncommitted", "the file differs from HEAD"))
        return out


def provenance(store: Store, mem: Memory, rev: str | None = None) -> Provenance | None:
    """The provenance of `mem` (read at `rev`, default HEAD); None outside a git repository."""
    repo = git.find_repo(store.root)
    if repo is None:
        return None
    head = git.head_commit(repo)
    if head is None:
        return Provenance(None, None, True, None, "the repository has no commits")
    committed = None
    if rev is None:
        committed = git.blob_at(repo, head, repo_path(repo_and_folder(store)[1], mem.path))
        if committed is None:
            return Provenance(None, None, True, None, "the file is not in HEAD")
    try:
        log = memory_log(store, mem.id, rev, None if rev else mem.path)
    except (GitError, MemoryNotFoundError):
        return Provenance(None, None, True, None, "the file is not in git history")
    entries = [e for e in log.entries if e.action != "deleted"]
    created = entries[-1] if entries else None
    changed = entries[0] if len(entries) > 1 else None
    # the file differs from HEAD (removed meanwhile: MemoryNotFoundError)
    dirty = rev is None and committed != store.read(store.root / mem.path)
    return Provenance(created, changed, dirty, log.boundary)
