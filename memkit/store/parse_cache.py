"""The parse cache: parsed memories kept in an SQLite file in memkit's private folder.

Entries are keyed by path relative to the root, size and mtime, so a full load parses
only the files that changed, and a few memories (Store.get_many) are looked up one by
one without reading the rest. Saving writes only the entries that changed. Files
modified just before the cache is written are not kept (their mtime cannot tell a
second write within the same tick).

Each entry is positional, [size, mtime_ns, head, body, id, path, *fields] with the
fields in memkit.fields.REGISTRY order, and a memory is rebuilt from it without the
dataclass constructor: at 10,000 memories the generic from_record cost more than
reading the files. A row holds the head and the body as text columns of their own
and the rest as JSON (JSON would escape and unescape the whole of every memory).
The file records the registry's field names and CACHE_VERSION; another registry (a
field added, renamed, moved) or version makes it start empty. The file is derived
data and never trusted: it is used only when its schema is exactly the one written
here (memkit.store.sqlite), else it is replaced.

A second table keeps parses by git blob id and path (`memkit diff` reads memory files
at revisions, where there is no size and mtime): the same bytes at the same path always
parse to the same memory. Past BLOB_ROWS rows it keeps only those one run used.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memkit.fields import REGISTRY
from memkit.memory import Memory, Verification
from memkit.store import sqlite

CACHE_VERSION = 8  # 8: links normalised; 7: blobs; 6: head and body columns; 5: SQLite
CACHE_NAME = "parsed.db"  # in memkit's private folder
LEGACY = "parsed.json"  # an older memkit's cache: removed
RACY_NS = 2_000_000_000  # entries modified this close to the cache write are not trusted
_NAMES = [f.name for f in REGISTRY]
_FIRST = 6  # entry items before the fields: size, mtime_ns, head, body, id, path
BLOB_ROWS = 20_000  # blob rows kept (a run looking up more than half as many keeps its own)


_KEYS = ("head", "body", "id", "path", *_NAMES)  # entry[2:], by name
# Memory's other attributes (not front matter, not cached) keep their defaults.
_REST: dict[str, Any] = {
    f.name: f.default for f in dataclasses.fields(Memory) if f.name not in _KEYS
}
_LISTS = tuple(f.name for f in REGISTRY if f.kind == "list")
_DATES = tuple(f.name for f in REGISTRY if f.kind == "date")
_VERIFIED = tuple(f.name for f in REGISTRY if f.kind == "verified")
PLAIN_KINDS = frozenset({"text", "choice", "int", "bool", "ref"})  # JSON holds these as they are


_COLUMNS = "size, mtime, head, body, entry"  # entry: JSON of the id, path and fields
_JSON = json.JSONEncoder(separators=(",", ":")).encode
_ENCODED = ("id", "path", *_NAMES)
_ISO_AT = [i for i, k in enumerate(_ENCODED) if k in _DATES]
_RECORD_AT = [i for i, k in enumerate(_ENCODED) if k in _VERIFIED]


def encode(mem: Memory) -> list[Any]:
    """The cached fields of `mem` in registry order, as JSON writes Memory.to_record's
    values (a list field stays a tuple: JSON writes both as an array)."""
    d = mem.__dict__
    out = [d[k] for k in _ENCODED]
    for i in _ISO_AT:
        if (v := out[i]) is not None:
            out[i] = v.isoformat()
    for i in _RECORD_AT:
        if (v := out[i]) is not None:
            out[i] = v.to_record()
    return out


def _decoder() -> Any:
    """decode() written out for this registry: one dict display, no loop over the fields.

    Like namedtuple, the function is generated from memkit's own field names (never
    from cached data), and it is about twice as fast as looping over the kinds.
    """
    items = []
    for i, key in enumerate(_KEYS, start=2):
        value = f"e[{i}]"
        if key in _LISTS:
            value = f"tuple({value})"
        elif key in _DATES:
            value = f"None if {value} is None else iso({value})"
        elif key in _VERIFIED:
            value = f"None if {value} is None else verified({value})"
        items.append(f"{key!r}: {value}")
    items += [f"{key!r}: rest[{key!r}]" for key in _REST]
    source = (
        "def decode(e):\n"
        f"    if len(e) != {_FIRST + len(_NAMES)}:\n"
        "        raise ValueError('entry of another registry')\n"
        "    mem = new(Memory)  # frozen: its __dict__ is set whole\n"
        f"    setattr(mem, '__dict__', {{{', '.join(items)}}})\n"
        "    return mem\n"
    )
    scope = {
        "new": object.__new__,
        "Memory": Memory,
        "setattr": object.__setattr__,
        "iso": dt.date.fromisoformat,
        "verified": Verification.from_record,
        "rest": _REST,
    }
    exec(source, scope)
    return scope["decode"]


decode: Callable[[list[Any]], Memory] = _decoder()  # an entry (trusted: written by encode)


def _decoded(entry: list[Any] | None) -> Memory | None:
    """The memory of a cached entry; None for no entry, or one that does not decode."""
    if not entry:
        return None
    try:
        return decode(entry)
    except (KeyError, ValueError, TypeError, IndexError, AttributeError):
        return None


class ParseCache:
    """Parsed memories keyed by relative path, size and mtime (see the module docstring).

    `bulk` reads every entry at once (a full load); without it, get() looks each one up.
    """

    def __init__(self, path: Path, *, bulk: bool = True) -> None:
        self.path = path
        self.bulk = bulk
        self.entries: dict[str, list[Any]] = {}
        self.changed: dict[str, list[Any] | None] = {}  # rel -> new entry, None: drop it
        self.now_ns = 0
        self.used: set[str] = set()
        self.fetched: set[str] = set()  # looked up by prefetch: entries has them, or none is
        self.blobs: dict[tuple[str, str], list[Any] | None] = {}  # (blob id, path) -> entry
        self.new_blobs: set[tuple[str, str]] = set()
        self.con = _open(path)
        if self.con is not None and bulk:
            try:
                rows = self.con.execute(f"SELECT path, {_COLUMNS} FROM entries").fetchall()
                values = json.loads("[" + ",".join(r[5] for r in rows) + "]")
                self.entries = {
                    r[0]: [r[1], r[2], r[3], r[4], *v] for r, v in zip(rows, values, strict=True)
                }
            except (sqlite3.Error, ValueError, TypeError):
                self.entries = {}
                self._reset()

    def prefetch(self, rels: list[str]) -> None:
        """Read the entries of `rels` in a few queries, for the get() calls that follow."""
        if self.con is None or self.bulk:
            return
        try:
            for i in range(0, len(rels), 500):  # well under SQLite's limit of parameters
                chunk = rels[i : i + 500]
                sql = f"SELECT path, {_COLUMNS} FROM entries WHERE path IN (%s)"
                rows = self.con.execute(sql % ",".join("?" * len(chunk)), chunk).fetchall()
                for r in rows:
                    self.entries[r[0]] = [*r[1:5], *json.loads(r[5])]
                self.fetched.update(chunk)
        except (sqlite3.Error, ValueError, TypeError):
            self.entries, self.fetched = {}, set()

    def get(self, rel: str, st: os.stat_result) -> Memory | None:
        """The memory cached for `rel` if its size and mtime still match, else None."""
        entry = self.entries.get(rel) if self.bulk or rel in self.fetched else self._lookup(rel)
        if not entry or entry[0] != st.st_size or entry[1] != st.st_mtime_ns:
            return None
        self.used.add(rel)
        return _decoded(entry)

    def _lookup(self, rel: str) -> list[Any] | None:
        if self.con is None:
            return None
        try:
            sql = f"SELECT {_COLUMNS} FROM entries WHERE path = ?"
            row = self.con.execute(sql, (rel,)).fetchone()
            return None if row is None else [*row[:4], *json.loads(row[4])]
        except (sqlite3.Error, ValueError, TypeError):
            return None

    def put(self, rel: str, st: os.stat_result, mem: Memory) -> None:
        """Remember `mem` as the parse of `rel` (unless the file changed too recently)."""
        self.used.add(rel)
        if not self.now_ns:
            self.now_ns = time.time_ns()
        if self.now_ns - st.st_mtime_ns < RACY_NS:
            self.changed[rel] = None
            return
        self.changed[rel] = [st.st_size, st.st_mtime_ns, mem.head, mem.body, *encode(mem)]

    def prefetch_blobs(self, keys: list[tuple[str, str]]) -> None:
        """Read the blob entries of `keys` ((blob id, path)) in a few queries."""
        wanted = [k for k in keys if k not in self.blobs]
        for k in wanted:
            self.blobs[k] = None
        if self.con is None or not wanted:
            return
        try:
            oids = sorted({oid for oid, _ in wanted})
            for i in range(0, len(oids), 500):  # well under SQLite's limit of parameters
                chunk = oids[i : i + 500]
                sql = f"SELECT oid, path, {_COLUMNS} FROM blobs WHERE oid IN (%s)"
                for r in self.con.execute(sql % ",".join("?" * len(chunk)), chunk).fetchall():
                    if (r[0], r[1]) in self.blobs:
                        self.blobs[(r[0], r[1])] = [*r[2:6], *json.loads(r[6])]
        except (sqlite3.Error, ValueError, TypeError):
            self.blobs = dict.fromkeys(self.blobs)

    def get_blob(self, oid: str, path: str) -> Memory | None:
        """The memory cached for the blob `oid` at `path`, else None (prefetch first)."""
        return _decoded(self.blobs.get((oid, path)))

    def put_blob(self, oid: str, path: str, size: int, mem: Memory) -> None:
        """Remember `mem` as the parse of the blob `oid` (`size` bytes) at `path`."""
        self.blobs[(oid, path)] = [size, 0, mem.head, mem.body, *encode(mem)]
        self.new_blobs.add((oid, path))

    def save(self) -> None:
        """Write the changed entries; after a full load, drop those of files not seen."""
        if self.bulk:
            for rel in set(self.entries) - self.used:
                self.changed[rel] = None
        if self.new_blobs and self._write(self._write_blobs):
            self.new_blobs = set()
        if self.changed and self._write(self._write_entries):
            self.changed = {}

    def _write(self, work: Callable[[sqlite3.Connection], None]) -> bool:
        """Run `work` in one write transaction; False when the cache cannot be written (a
        read-only checkout goes without)."""
        with contextlib.suppress(OSError, sqlite3.Error):
            if self.con is None:
                self._reset()
            if self.con is None:
                return False
            con = self.con
            con.execute("BEGIN IMMEDIATE")
            try:
                work(con)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            return True
        return False

    def _write_entries(self, con: sqlite3.Connection) -> None:
        gone = [(rel,) for rel, e in self.changed.items() if e is None]
        con.executemany("DELETE FROM entries WHERE path = ?", gone)
        con.executemany(
            "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?)",
            [
                (rel, e[0], e[1], e[2], e[3], _JSON(e[4:]))
                for rel, e in self.changed.items()
                if e is not None
            ],
        )

    def _write_blobs(self, con: sqlite3.Connection) -> None:
        """The new blob entries; past BLOB_ROWS rows (or twice what this run looked up),
        only this run's are kept."""
        rows = con.execute("SELECT count(*) FROM blobs").fetchone()[0]
        if rows + len(self.new_blobs) > max(BLOB_ROWS, 2 * len(self.blobs)):
            con.execute("DELETE FROM blobs")
            keep = [k for k, e in self.blobs.items() if e is not None]
        else:
            keep = sorted(self.new_blobs)
        con.executemany(
            "INSERT OR REPLACE INTO blobs VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(*k, *e[:4], _JSON(e[4:])) for k in keep if (e := self.blobs[k])],
        )

    def _reset(self) -> None:
        """Start an empty cache file in place of a missing, damaged or other one."""
        self.close()
        with contextlib.suppress(OSError):
            (self.path.parent / LEGACY).unlink(missing_ok=True)
        self.con = sqlite.create(self.path, SCHEMA, CACHE_VERSION)
        if self.con is not None:
            self.con.execute("INSERT INTO fields VALUES (?)", (json.dumps(_NAMES),))

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None


SCHEMA = """
CREATE TABLE entries (
    path TEXT PRIMARY KEY, size INTEGER, mtime INTEGER, head TEXT, body TEXT, entry TEXT
);
CREATE TABLE fields (names TEXT);
CREATE TABLE blobs (
    oid TEXT, path TEXT, size INTEGER, mtime INTEGER, head TEXT, body TEXT, entry TEXT,
    PRIMARY KEY (oid, path)
);
"""


def _open(path: Path) -> sqlite3.Connection | None:
    """The cache at `path` if it is ours, of this version and this registry; else None."""
    con = sqlite.open_checked(path, SCHEMA, CACHE_VERSION)
    if con is None:
        return None
    with contextlib.suppress(sqlite3.Error):
        if con.execute("SELECT names FROM fields").fetchall() == [(json.dumps(_NAMES),)]:
            return con
    con.close()
    return None
