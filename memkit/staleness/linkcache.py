"""Link states `memkit check` worked out before, reused while nothing they depend on changed.

A check where nothing changed should not cost a git library, a repository and a diff of
the work tree. The state of most links depends on their own file alone: unchanged,
docs, body and signature (changed and unchanged for file links) follow from the
recorded fingerprint, the commit it was recorded at, the commit HEAD names, the index
and the file's own bytes. Those states are kept in `links.json` in memkit's private
folder, with the stamp of the repository (HEAD, the branch it names, packed refs, the
index, the shallow list) and the stat of each file (size, mtime, ctime, inode). A state
is reused only when the stamp and its file's stat are as they were.

Moved and removed links depend on other files (where the code went) and anchors on
manifests or on every source file: they are never kept. A file changed less than two
seconds before the cache is written is not kept either (a second change within the
clock's tick could keep its size and times). Outside git, with GIT_DIR or
GIT_INDEX_FILE set, or with a `.git` that cannot be read plainly, nothing is cached.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.staleness.verdict import LinkStatus

if TYPE_CHECKING:
    from memkit.store import Store

VERSION = 1
RACY_NS = 2_000_000_000
KEPT = frozenset({"unchanged", "docs", "body", "signature", "changed"})
_GIT_ENV = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR")


def _stat(path: str) -> list[int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode]


def _read(path: str, limit: int = 4096) -> str | None:
    try:
        with open(path, "rb") as f:
            return f.read(limit).decode("utf-8", "replace")
    except OSError:
        return None


def git_stamp(root: Path) -> list[Any] | None:
    """What HEAD, the refs and the index are now, read as plain files (None: unknown)."""
    from memkit.cachedir import git_dir

    if any(os.environ.get(name) for name in _GIT_ENV):
        return None
    top = next((f for f in (root, *root.parents) if os.path.lexists(f / ".git")), None)
    gitdir = git_dir(str(top)) if top is not None else None
    if gitdir is None:
        return None
    common = gitdir
    pointer = _read(os.path.join(gitdir, "commondir"))
    if pointer is not None:
        common = os.path.normpath(os.path.join(gitdir, pointer.strip()))
    head = _read(os.path.join(gitdir, "HEAD"))
    if head is None:
        return None
    ref = None
    if head.startswith("ref:"):
        name = head[4:].strip()
        if ".." in name.split("/"):
            return None
        ref = _read(os.path.join(common, name)) or _read(os.path.join(gitdir, name))
    return [
        gitdir,
        head,
        ref,
        _stat(os.path.join(common, "packed-refs")),
        _stat(os.path.join(gitdir, "index")),
        _stat(os.path.join(common, "shallow")),
    ]


class LinkCache:
    """Link states by (recorded commit, link, recorded fingerprint), for one git stamp."""

    def __init__(self, path: Path, root: Path, stamp: list[Any], data: Any) -> None:
        self.path = path
        self.root = root
        self.stamp = stamp
        ok = isinstance(data, dict) and data.get("version") == VERSION
        ok = ok and data.get("stamp") == stamp
        self.files: dict[str, list[int]] = dict(data["files"]) if ok else {}
        self.links: dict[str, list[str]] = dict(data["links"]) if ok else {}
        self.dirty = not ok
        self.opened = time.time_ns()
        self._now: dict[str, list[int] | None] = {}
        self._paths: dict[str, str | None] = {}  # link -> _path(link)
        self._made: dict[tuple[str, str, str | None], LinkStatus] = {}  # frozen: shared

    @classmethod
    def open(cls, store: Store) -> LinkCache | None:
        """The cache of `store`'s repository, None where states cannot be cached."""
        stamp = git_stamp(store.root)
        if stamp is None:
            return None
        path = store.private_dir() / "links.json"
        data = None
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(path.read_bytes())
        return cls(path, store.root, stamp, data)

    def _stat_now(self, path: str) -> list[int] | None:
        """The file's stat, taken once, before anything reads the file."""
        if path not in self._now:
            self._now[path] = _stat(os.path.join(self.root, path))
        return self._now[path]

    def get(self, text: str, recorded: str, since: str | None) -> LinkStatus | None:
        path = self._paths.get(text, "")
        if path == "":
            path = self._paths[text] = _path(text)
        if path is None:
            return None
        now = self._stat_now(path)
        entry = self.links.get(_key(text, recorded, since))
        if entry is None or now is None or self.files.get(path) != now:
            return None
        made = self._made.get((text, entry[0], since))
        if made is None:
            made = self._made[text, entry[0], since] = LinkStatus(text, entry[0], None, since)
        return made

    def put(self, status: LinkStatus, recorded: str, since: str | None) -> None:
        """Keep a state that depends on its own file only (looked up with get() first)."""
        path = _path(status.link)
        if path is None or status.state not in KEPT or status.moved_to:
            return
        now = self._now.get(path)
        if now is None:
            return
        if self.files.get(path) != now:  # what was kept for this file described other bytes
            self.links = {k: v for k, v in self.links.items() if v[1] != path}
            self.files[path] = now
        self.links[_key(status.link, recorded, since)] = [status.state, path]
        self.dirty = True

    def save(self) -> None:
        """Write the cache (when anything changed), leaving out files changed just now."""
        if not self.dirty:
            return
        from memkit.fsutil import atomic_write

        limit = self.opened - RACY_NS
        files = {
            path: kept
            for path, kept in self.files.items()
            if max(kept[1], kept[2]) < limit and self._now.get(path, kept) == kept
        }
        links = {k: v for k, v in self.links.items() if v[1] in files}
        data = {"version": VERSION, "stamp": self.stamp, "files": files, "links": links}
        with contextlib.suppress(OSError):
            atomic_write(self.path, json.dumps(data).encode("utf-8"), fsync=False)


def _path(text: str) -> str | None:
    """The file a link's state depends on alone (None for anchors: they read more)."""
    from memkit.staleness import anchors
    from memkit.staleness.links import Link

    return None if anchors.is_anchor(text) else Link.parse(text).path


def _key(text: str, recorded: str, since: str | None) -> str:
    return f"{since or ''}\x1f{text}\x1f{recorded}"
