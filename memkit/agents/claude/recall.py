"""The point-of-action index, read side: which memories a file touch or a prompt calls for.

`agents-poa.idx` in memkit's private folder, written by memkit.agents.claude.indexer. Its
first line is a JSON header: the stamps (size, mtime) of the sources it was built from
(.memory/ and its folders, config.toml, what Claude Code loads), the MEMKIT_AGENTS_*
variables, the dates it holds for, a digest of the memory files' stamps, the budgets and
where each bucket starts. Then JSON buckets, hashed by key: `f` file and glob keys -> ids
with their entries, `w` words -> ids, `e` id -> entry (fields: PATH ... LINKED below), and
`s` the SessionStart candidates. A hook reads a few kilobytes, not the store. Standard
library only; a file that fails any check is as good as missing, and is rebuilt.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # on the hook's fast path: not even `typing`
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO

NAME = "agents-poa.idx"
VERSION = 9
MAX_HEADER = 8 * 1024 * 1024
MAX_SECTION = 64 * 1024 * 1024
SECTIONS = ("f", "w", "e")
ENV_PREFIX = "MEMKIT_AGENTS_"
_WILD = "*?[{"
# An entry's fields, in order (a JSON list in the file).
PATH, SIZE, MTIME, OFFSET, TITLE, TYPE, ABOUT, COMPILED, RANK, LINKED = range(10)


def index_file(root: str) -> str:
    from memkit.cachedir import cache_dir

    return os.path.join(cache_dir(str(root)), NAME)


def stamp(path: str) -> list[int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def fnv(key: str) -> int:
    """A stable 32-bit hash (FNV-1a) of `key`: which bucket it lives in."""
    h = 0x811C9DC5
    for b in key.encode("utf-8", "surrogateescape"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def env() -> list[list[str]]:
    """The MEMKIT_AGENTS_* variables (they override the budgets in config.toml)."""
    return sorted([k, v] for k, v in os.environ.items() if k.startswith(ENV_PREFIX))


def today_iso() -> str:
    """Today as memkit.clock sees it (MEMKIT_TODAY, else the local date), as YYYY-MM-DD."""
    pinned = os.environ.get("MEMKIT_TODAY")
    if pinned:
        return pinned
    import time

    return time.strftime("%Y-%m-%d")


class Index:
    """An open index file: its header and the buckets read so far."""

    def __init__(self, root: str, f: BinaryIO, header: dict[str, Any], start: int) -> None:
        self.root = root
        self.f = f
        self.header = header
        self.start = start
        self.buckets = int(header["b"])
        self._read: dict[tuple[str, int], dict[str, Any]] = {}

    def close(self) -> None:
        self.f.close()

    def chunk(self, kind: str, n: int) -> dict[str, Any]:
        """Bucket `n` of section `kind` (ValueError when the file is not what it says)."""
        got = self._read.get((kind, n))
        if got is None:
            offs = self.header["off"][kind]
            got = self._read[(kind, n)] = self._section(offs[n], offs[n + 1])
        return got

    def _section(self, a: Any, b: Any) -> dict[str, Any]:
        """The JSON object between offsets `a` and `b` ({} when empty); ValueError when the
        offsets or the bytes are not what they should be."""
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a <= b <= a + MAX_SECTION):
            raise ValueError("bad offsets")
        self.f.seek(self.start + a)
        data = self.f.read(b - a)
        got = json.loads(data) if data else {}
        if len(data) != b - a or not isinstance(got, dict):
            raise ValueError("bad section")
        return got

    def chunk_start(self) -> dict[str, Any]:
        """The SessionStart candidates: {"ids": [...], "m": {id: entry}, "n": count}."""
        got = self._section(*self.header["off"]["s"])
        ids, entries = got.get("ids"), got.get("m")
        if not (
            isinstance(ids, list)
            and isinstance(entries, dict)
            and isinstance(got.get("n"), int)
            and all(isinstance(i, str) and _entry_ok(entries.get(i)) for i in ids)
        ):
            raise ValueError("bad start section")
        return got

    def bucket(self, kind: str, key: str) -> dict[str, Any]:
        return self.chunk(kind, fnv(key) % self.buckets)

    def entry(self, mid: str) -> list[Any] | None:
        got = self.bucket("e", mid).get(mid)
        return got if _entry_ok(got) else None

    def budget(self, name: str) -> int:
        value = self.header["budget"].get(name)
        return value if isinstance(value, int) else 0

    @property
    def count(self) -> int:
        return int(self.header["n"])


def _entry_ok(e: Any) -> bool:
    """[path, size, mtime_ns, offset, title, type, about, compiled, rank, linked files]."""
    return (
        isinstance(e, list)
        and len(e) == 10
        and isinstance(e[PATH], str)
        and e[PATH].startswith(".memory/")
        and ".." not in e[PATH].split("/")
        and all(isinstance(e[i], int) for i in (SIZE, MTIME, OFFSET))
        and all(isinstance(e[i], str) for i in (TITLE, TYPE, ABOUT))
        and isinstance(e[LINKED], list)
        and all(isinstance(x, str) and ".." not in x.split("/") for x in e[LINKED])
    )


def from_bytes(root: str, data: bytes) -> Index:
    """An index just built (written or not), read from memory."""
    import io

    got = _read_header(root, io.BytesIO(data))
    if got is None:
        raise ValueError("the point-of-action index just built does not read back")
    return got


def open_index(root: str) -> Index | None:
    """The index file with its header read (not yet checked against the sources)."""
    try:
        f = open(index_file(root), "rb")  # noqa: SIM115 (kept open for the buckets)
    except OSError:
        return None
    return _read_header(root, f)


def _read_header(root: str, f: BinaryIO) -> Index | None:
    try:
        head = f.readline(MAX_HEADER)
        header = json.loads(head)
        ok = (
            isinstance(header, dict)
            and header.get("version") == VERSION
            and isinstance(header.get("b"), int)
            and header["b"] > 0
            and isinstance(header.get("off"), dict)
            and all(len(header["off"].get(k, ())) == header["b"] + 1 for k in SECTIONS)
            and isinstance(header.get("sources"), dict)
            and isinstance(header.get("budget"), dict)
            and isinstance(header.get("n"), int)
        )
    except (ValueError, RecursionError, OSError):
        ok = False
    if not ok:
        f.close()
        return None
    return Index(root, f, header, len(head))


def fresh(index: Index, today: str) -> bool:
    """Whether the index still holds: same sources, variables and a date it covers."""
    h = index.header
    if h.get("env") != env() or not isinstance(h.get("today"), str):
        return False
    until = h.get("until")
    if today < h["today"] or (isinstance(until, str) and today > until):
        return False
    root = index.root
    return all(stamp(os.path.join(root, rel)) == st for rel, st in h["sources"].items())


def _matches(index: Index, rel: str) -> Iterator[tuple[dict[str, Any], Any, int, int, bool]]:
    """(bucket, id, linked, literal, names_file) for each index entry about `rel`: keyed
    by the file or a folder holding it (names_file: the key is the file itself), then by
    a `paths` glob that matches it (linked 0).

    Linear in the length of `rel`: each folder's bucket comes from one running hash
    (`prefix_hashes`), and a bucket's keys are checked against `rel` by length and
    prefix, so no folder's key is ever built or hashed on its own."""
    import re

    ends = [i for i, c in enumerate(rel) if c == "/"] + [len(rel)]
    base = rel[ends[-2] + 1 :] if len(ends) > 1 else rel
    ext = "." + base.rsplit(".", 1)[1] if "." in base else ""
    n = len(ends)
    keys = _keyed(index, rel, "k", "k:", ends)
    for i in range(n, 0, -1):  # the file, then each folder holding it, deepest first
        if ends[i - 1] in keys:
            chunk, key = keys[ends[i - 1]]
            for mid, linked, literal in chunk.get("k", {}).get(key, ()):
                yield chunk, mid, linked, literal, i == n
    folders = [0, *ends[: n - 1]]  # "", then each folder holding the file
    tails = (ext, "") if ext else ("",)
    globs = [_keyed(index, rel, "g", f"g:{tail}\x00", folders) for tail in tails]
    for i in range(n - 1, -1, -1):
        for found in globs:
            if folders[i] not in found:
                continue
            chunk, key = found[folders[i]]
            for pattern, ids in chunk.get("g", {}).get(key, {}).items():
                if re.fullmatch(pattern, rel):
                    for mid, literal in ids:
                        yield chunk, mid, 0, literal, False


def prefix_hashes(head: str, rel: str, ends: list[int]) -> list[int]:
    """fnv(head + rel[:e]) for each e in `ends` (ascending), in one pass over `rel`."""
    h = fnv(head)
    out: list[int] = []
    done = 0
    for e in ends:  # the bytes between the last end and this one
        for b in rel[done:e].encode("utf-8", "surrogateescape"):
            h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
        done = e
        out.append(h)
    return out


def _keyed(
    index: Index, rel: str, kind: str, head: str, ends: list[int]
) -> dict[int, tuple[dict[str, Any], str]]:
    """{end: (bucket, key)} for each key `rel[:end]` (hashed as `head + rel[:end]`) that
    section `kind` of the index holds, `ends` ascending. Each bucket these keys fall in
    is read and its keys compared once, by length, then as a prefix of `rel`. The "g"
    section stores its keys with their head, the "k" section without."""
    stored = head if kind == "g" else ""
    hashes = dict(zip(ends, prefix_hashes(head, rel, ends), strict=True))
    at = {len(stored) + e: e for e in hashes}
    whole = stored + rel
    out: dict[int, tuple[dict[str, Any], str]] = {}
    for n in dict.fromkeys(h % index.buckets for h in hashes.values()):
        chunk = index.chunk("f", n)
        held = chunk.get(kind)
        for key in held if isinstance(held, dict) else ():
            e = at.get(len(key))
            if e is not None and hashes[e] % index.buckets == n and whole.startswith(key):
                out[e] = (chunk, key)
    return out


def about_file(index: Index, rel: str) -> list[tuple[str, list[Any], tuple[Any, ...]]]:
    """(id, entry, order) of the memories linked to `rel` (or a folder holding it) or
    scoped to it by `paths`, best first (pinned, linked, priority, specific glob, recent)."""
    found: dict[str, tuple[Any, ...]] = {}
    entries: dict[str, list[Any]] = {}
    for chunk, mid, linked, literal, _ in _matches(index, rel):
        e = chunk.get("m", {}).get(mid)
        if not isinstance(mid, str) or not _entry_ok(e):
            continue
        rank = e[RANK] if isinstance(e[RANK], list) and len(e[RANK]) == 3 else [1, 0, 0]
        order = (rank[0], 1 - linked, rank[1], -literal, rank[2], mid)
        if mid not in found or order < found[mid]:
            found[mid], entries[mid] = order, e
    return [(mid, entries[mid], found[mid]) for mid in sorted(found, key=found.__getitem__)]


def for_context(index: Index, rel: str) -> dict[str, str]:
    """{id: memory file} of the memories `memkit context --file rel` takes for a file
    (not a folder): linked to it, or with a `paths` entry matching it."""
    out: dict[str, str] = {}
    for chunk, mid, linked, _, names_file in _matches(index, rel):
        if names_file or not linked:  # a link names the file; a path may hold it
            e = chunk.get("m", {}).get(mid)
            if isinstance(mid, str) and _entry_ok(e):
                out[mid] = e[PATH]
    return out
