"""Rollback: put back a memory's exact bytes from any revision, deleted memories included."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memkit import git
from memkit.errors import GitError
from memkit.fsutil import atomic_write
from memkit.history.provenance import memory_log, on_disk, repo_and_folder, repo_path, version_at
from memkit.store import Store


@dataclass(frozen=True)
class Reverted:
    path: str
    rev: str  # the commit whose version was put back
    changed: bool  # False: the file already had that content
    kept: str | None = None  # where uncommitted text it replaced was saved


def revert(store: Store, mid: str, to: str | None = None) -> Reverted:
    """Put back memory `mid`'s bytes as they were at `to` (default: before its last change).

    Writes only that memory's file: where it is now, or where it was before it was
    deleted. The history keeps every version, the reverted one included.
    """
    repo, folder = repo_and_folder(store)
    git.require_commits(repo, "`memkit revert`")
    with store.lock():  # an MCP update racing the revert must not be lost or undone
        return _revert(store, repo, folder, mid, to)


def _revert(store: Store, repo: Any, folder: str, mid: str, to: str | None) -> Reverted:
    rev = to if to is not None else _before_last_change(store, repo, folder, mid)
    data, old_path, commit = version_at(store, mid, rev)
    target = store.root / (on_disk(store, mid) or old_path)
    try:
        current = target.read_bytes()
    except FileNotFoundError:
        current = None
    kept = None
    if current is not None and current != data:
        head = git.head_commit(repo)
        if head and git.blob_at(repo, head, repo_path(folder, store.rel(target))) != current:
            kept = _keep(store, mid, current)  # text no commit has: never lose it
    if current != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, data)
    return Reverted(store.rel(target), commit, current != data, kept)


def _keep(store: Store, mid: str, data: bytes) -> str:
    path = store.private_dir() / "revert" / f"{mid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data)
    return store.display(path)


def _before_last_change(store: Store, repo: Any, folder: str, mid: str) -> str:
    """The revision holding the version before `mid`'s latest change."""
    head = git.require_commits(repo, "`memkit revert`")
    rel = on_disk(store, mid)
    if rel is not None:
        data = (store.root / rel).read_bytes()
        if git.blob_at(repo, head, repo_path(folder, rel)) not in (None, data):
            return head  # the latest change is not committed yet
    entries = memory_log(store, mid, rel=rel).entries
    if not entries or entries[0].action == "added":
        raise GitError(
            f"memory {mid!r} has no earlier version than the one that created it (in "
            f"{entries[0].commit[:12] if entries else 'HEAD'}); use `memkit rm {mid}` to drop it"
        )
    return f"{entries[0].commit}^"
