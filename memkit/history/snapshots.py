"""The memory files of a revision or of the work tree, and their parses kept by blob id.

A snapshot is {memory id: File (store path, blob id)}: two snapshots compare without reading
a file, and a memory file is read and parsed only when a review shows it. Parses are
kept in the parse cache by blob id and path (the same bytes at the same path parse to
the same memory), so a second `memkit diff` of the same range parses nothing.
Files on disk get the id git would give them, in the repository's object format.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from memkit.walk import MEMORY_DIR

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.store import Store
    from memkit.store.parse_cache import ParseCache


class File(NamedTuple):
    """A memory file of a snapshot: its path in the store and its blob id."""

    path: str
    oid: str


Snapshot = dict[str, File]  # {memory id: its file}


def is_memory_path(rel: str) -> bool:
    """Whether `rel` (relative to the store folder) is a memory file, as the store lists."""
    parts = rel.split("/")
    return (
        rel.endswith(".md")
        and not any(p.startswith(".") for p in parts)
        and not (len(parts) > 1 and parts[0] == "templates")
    )


def by_id(folder: str, files: dict[str, str]) -> Snapshot:
    """The memories among `files` ({path from the top: blob id}) under `folder`; the
    first path of an id in sorted order wins."""
    out: Snapshot = {}
    for path, oid in sorted(files.items()):
        rel = path[len(folder) + 1 :]
        if path.startswith(folder + "/") and is_memory_path(rel):
            out.setdefault(stem(rel), File(f"{MEMORY_DIR}/{rel}", oid))
    return out


def stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")


def blob_id(data: bytes, sha256: bool = False) -> str:
    """The id git gives a blob holding `data` (SHA-1, or SHA-256 repositories' format)."""
    header = f"blob {len(data)}\0".encode()
    if sha256:
        return hashlib.sha256(header + data).hexdigest()
    return hashlib.sha1(header + data, usedforsecurity=False).hexdigest()


class Memories:
    """Memory files by blob id: their bytes (read on demand) and their parses (cached).

    `read` gives the bytes of a blob of the repository; files on disk are added by
    on_disk(). Call save() at the end to keep what was parsed.
    """

    def __init__(self, store: Store, read: Callable[[str], bytes]) -> None:
        from memkit.store.parse_cache import CACHE_NAME, ParseCache

        self._read = read
        self.disk: dict[str, bytes] = {}
        self.cache: ParseCache = ParseCache(store.private_dir() / CACHE_NAME, bulk=False)
        self._parsed: dict[tuple[str, str], Memory | None] = {}

    def data(self, oid: str) -> bytes:
        found = self.disk.get(oid)
        return found if found is not None else self._read(oid)

    def missing(self, entries: list[File]) -> list[str]:
        """The blob ids among `entries` ((path, blob id)) to read from the repository: not
        on disk and with no cached parse (the parses looked up at once, for load)."""
        self.cache.prefetch_blobs([(oid, path) for path, oid in entries])
        blobs = self.cache.blobs
        return sorted({o for p, o in entries if o not in self.disk and blobs.get((o, p)) is None})

    def load(self, mid: str, path: str, oid: str) -> Memory | None:
        """The memory the blob `oid` holds at `path` (None: it does not parse)."""
        key = (oid, path)
        if key in self._parsed:
            return self._parsed[key]
        mem = self.cache.get_blob(oid, path)
        if mem is None or mem.id != mid:
            from memkit import memory as mm

            data = self.data(oid)
            mem, problems = mm.parse_all(data, mid=mid, path=path)
            if mem is not None and not problems:
                self.cache.put_blob(oid, path, len(data), mem)
        self._parsed[key] = mem
        return mem

    def save(self) -> None:
        self.cache.save()
        self.cache.close()


def at_revision(repo: object, folder: str, rev: str) -> Snapshot:
    """The memories at revision `rev` (`folder`: the store folder from the top)."""
    from memkit import git

    return by_id(folder, git.files_at(repo, rev, folder))


def on_disk(store: Store, memories: Memories, sha256: bool) -> Snapshot:
    """The memories in the work tree; their bytes go to `memories`."""
    out: Snapshot = {}
    for p in store.files():
        data = p.read_bytes()
        oid = blob_id(data, sha256)
        memories.disk[oid] = data
        out.setdefault(p.stem, File(store.rel(p), oid))
    return out
