"""The parse cache: parsed memories kept as JSON in memkit's private folder.

Entries are keyed by path relative to the root, size and mtime, so a full load parses
only the files that changed. Files modified just before the cache is written are not
kept (their mtime cannot tell a second write within the same tick).

Each entry is positional, [size, mtime_ns, head, body, id, path, *fields] with the
fields in memkit.fields.REGISTRY order, and a memory is rebuilt from it without the
dataclass constructor: at 10,000 memories the generic from_record cost more than
reading the files. The cache's `fields` list names the registry it was written with;
another registry (a field added, renamed, moved) makes the whole cache unused.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import json
import os
import time
from pathlib import Path
from typing import Any

from memkit.fields import REGISTRY
from memkit.fsutil import atomic_write
from memkit.memory import Memory, Verification

CACHE_VERSION = 4  # 4: positional entries; 3: control characters refused, `revises`
RACY_NS = 2_000_000_000  # entries modified this close to the cache write are not trusted
_NAMES = [f.name for f in REGISTRY]
_FIRST = 6  # entry items before the fields: size, mtime_ns, head, body, id, path


def _verified(v: Any) -> Verification:
    d = v["date"]
    return Verification(v["commit"], None if d is None else dt.date.fromisoformat(d), v["links"])


_KEYS = ("head", "body", "id", "path", *_NAMES)  # entry[2:], by name
# Memory's other attributes (not front matter, not cached) keep their defaults.
_REST: dict[str, Any] = {
    f.name: f.default for f in dataclasses.fields(Memory) if f.name not in _KEYS
}
_LISTS = tuple(f.name for f in REGISTRY if f.kind == "list")
_DATES = tuple(f.name for f in REGISTRY if f.kind == "date")
_VERIFIED = tuple(f.name for f in REGISTRY if f.kind == "verified")
PLAIN_KINDS = frozenset({"text", "choice", "int", "bool", "ref"})  # JSON holds these as they are


def encode(mem: Memory) -> list[Any]:
    """The cached fields of `mem` (registry order, JSON values)."""
    rec = mem.to_record()
    return [mem.id, mem.path, *(rec[name] for name in _NAMES)]


def decode(entry: list[Any]) -> Memory:
    """The memory of a cache entry (trusted: written by encode)."""
    if len(entry) != _FIRST + len(_NAMES):
        raise ValueError("entry of another registry")
    d = dict(_REST)
    d.update(zip(_KEYS, entry[2:], strict=True))
    for name in _LISTS:
        d[name] = tuple(d[name])
    for name in _DATES:
        if (v := d[name]) is not None:
            d[name] = dt.date.fromisoformat(v)
    for name in _VERIFIED:
        if (v := d[name]) is not None:
            d[name] = _verified(v)
    mem: Memory = object.__new__(Memory)  # frozen: the constructor sets each field by hand
    mem.__dict__.update(d)
    return mem


class ParseCache:
    """Parsed memories keyed by relative path, size and mtime (JSON: safe to load)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.dirty = False
        self.entries: dict[str, list[Any]] = {}
        self.now_ns = 0
        try:
            data = json.loads(path.read_bytes())
            if data.get("version") == CACHE_VERSION and data.get("fields") == _NAMES:
                self.entries = data["entries"]
            else:
                self.dirty = True
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
            return decode(entry)
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
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
        self.entries[rel] = [st.st_size, st.st_mtime_ns, mem.head, mem.body, *encode(mem)]
        self.dirty = True

    def save(self) -> None:
        """Drop the entries of files not seen since loading, and write the cache if it changed."""
        stale = set(self.entries) - self.used
        for rel in stale:
            del self.entries[rel]
        if not (self.dirty or stale):
            return
        data = json.dumps(
            {"version": CACHE_VERSION, "fields": _NAMES, "entries": self.entries},
            separators=(",", ":"),
        )
        with contextlib.suppress(OSError):  # a read-only checkout just goes without a cache
            atomic_write(self.path, data.encode("utf-8"))
