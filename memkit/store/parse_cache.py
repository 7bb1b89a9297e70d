"""The parse cache: parsed memories kept as JSON in memkit's private folder.

Entries are keyed by path relative to the root, size and mtime, so a full load parses
only the files that changed. Files modified just before the cache is written are not
kept (their mtime cannot tell a second write within the same tick).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from memkit.fsutil import atomic_write
from memkit.memory import Memory

CACHE_VERSION = 3  # 3: control characters refused, `revises`
RACY_NS = 2_000_000_000  # entries modified this close to the cache write are not trusted


class ParseCache:
    """Parsed memories keyed by relative path, size and mtime (JSON: safe to load)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.dirty = False
        self.entries: dict[str, list[Any]] = {}
        self.now_ns = 0
        try:
            data = json.loads(path.read_bytes())
            if data.get("version") == CACHE_VERSION:
                self.entries = data["entries"]
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            self.dirty = True
        self.used: set[str] = set()

    def get(self, rel: str, st: os.stat_result) -> Memory | None:
        """The memory cached for `rel` if its size and mtime still match, else None."""
        entry = self.entries.get(rel)
        if not entry or entry[0] != st.st_size or entry[1] != st.st_mtime_ns:
            return None
        self.used.add(rel)
        try:
            return Memory.from_record(entry[3], head=entry[2], body=entry[4])
        except (KeyError, ValueError, TypeError, IndexError):
            return None

    def put(self, rel: str, st: os.stat_result, mem: Memory) -> None:
        """Remember `mem` as the parse of `rel` (unless the file changed too recently)."""
        self.used.add(rel)
        if not self.now_ns:
            self.now_ns = time.time_ns()
        if self.now_ns - st.st_mtime_ns < RACY_NS:
            self.entries.pop(rel, None)
            self.dirty = True
            return
        rec = mem.to_record()
        body = mem.body
        rec.pop("body")
        self.entries[rel] = [st.st_size, st.st_mtime_ns, mem.head, rec, body]
        self.dirty = True

    def save(self) -> None:
        """Drop the entries of files not seen since loading, and write the cache if it changed."""
        stale = set(self.entries) - self.used
        for rel in stale:
            del self.entries[rel]
        if not (self.dirty or stale):
            return
        data = json.dumps({"version": CACHE_VERSION, "entries": self.entries})
        with contextlib.suppress(OSError):  # a read-only checkout just goes without a cache
            atomic_write(self.path, data.encode("utf-8"))
