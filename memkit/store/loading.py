"""Loading a whole store: every memory parsed (through the parse cache), problems listed.

`load(store)` is Store.load, and the one way memkit reads a store once:
- a store made with `once=True` (a hook run, a session start: they write no memory
  file, so one reading is the store they see) answers every load with its first;
- any other second load in the same process, with every memory file's size and mtime
  unchanged (none modified too recently to trust) and the parse cache file untouched
  since, returns the first one's result (compile and the checks load it several times).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit import memory as mm
from memkit.errors import InvalidMemoryError, MemkitError, MemoryNotFoundError
from memkit.fsutil import read_regular
from memkit.gcpause import paused
from memkit.memory import Memory
from memkit.store.parse_cache import CACHE_NAME, RACY_NS, ParseCache

BATCH = 1000  # files read, then parsed, at a time
FRESH_MAX = 64  # Loaded.fresh keeps the bytes of at most this many files parsed afresh
_LINK_PROBLEM = (
    "is a symbolic link; memkit does not follow links in .memory/ (one could point "
    "outside the repository): replace it with the file itself"
)
NAME_PROBLEM = (
    "the file name is not UTF-8, so memkit cannot record it (nor git show it as typed): "
    "rename it with lowercase letters, digits and dashes"
)


@dataclass(frozen=True)
class Loaded:
    """Every memory that parsed, and every problem with the ones that did not.

    `stats` are the stat results (lstat) of the memory files, taken before each was
    read, keyed by path relative to the root; `digests` the SHA-256 of the bytes of every
    file read rather than taken from the parse cache (memkit.compile.current records
    both for the files changed just before it listed .memory/);
    `fresh` the bytes of the memories this load parsed rather than took from the parse
    cache (the few edited since the last load), empty when more than FRESH_MAX were
    (compile remembers the valid ones for the pre-commit hook: memkit.hookvalid).
    """

    memories: tuple[Memory, ...]
    problems: tuple[InvalidMemoryError, ...]
    stats: Mapping[str, os.stat_result] = field(default_factory=dict, compare=False, repr=False)
    digests: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    fresh: Mapping[str, bytes] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class _Key:
    """What a full load read: the root, the links and undecodable names it found, each
    memory file's (path, size, mtime) and the parse cache file's stamp."""

    root: str
    links: tuple[str, ...]
    bad_names: tuple[str, ...]
    stamps: tuple[tuple[str, int, int], ...]
    cache: tuple[int, ...]


@dataclass(frozen=True)
class _Last:
    """This process's last full load and what it was of."""

    key: _Key
    loaded: Loaded


_LAST: list[_Last] = []  # at most one


def load(store: Any) -> Loaded:
    """Parse every memory (through the cache); invalid files become problems, and a
    second load may be the first's (module docstring).

    The cyclic garbage collector is paused meanwhile: a load makes hundreds of
    thousands of objects and no cycles, and the collections those allocations set off
    (each one walking every object still alive) cost a quarter to a third of a load
    at 10,000 memories.
    """
    if store.held is not None:
        held: Loaded = store.held
        return held
    with paused():
        loaded = _load_all(store)
    if store.once:
        store.held = loaded
    return loaded


def _load_all(store: Any) -> Loaded:
    files = []
    for rel, full in store._walk():
        try:
            files.append((rel, full, os.stat(full, follow_symlinks=False)))
        except OSError:
            continue  # deleted while we listed
    stamps = tuple((rel, st.st_size, st.st_mtime_ns) for rel, _, st in files)
    key = _Key(
        str(store.root), tuple(store.links), tuple(store.bad_names), stamps, _cache_stamp(store)
    )
    if _LAST and _LAST[0].key == key:
        return _LAST[0].loaded
    loaded = _load(store, files)
    _LAST.clear()
    now = time.time_ns()
    if all(now - st.st_mtime_ns >= RACY_NS for _, _, st in files):
        key = dataclasses.replace(key, cache=_cache_stamp(store))  # as this load left it
        _LAST.append(_Last(key, loaded))
    return loaded


def _cache_stamp(store: Any) -> tuple[int, ...]:
    try:
        st = os.stat(store.cache_dir / CACHE_NAME)
    except OSError:
        return ()
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _load(store: Any, files: list[tuple[str, str, os.stat_result]]) -> Loaded:
    """Every file through the cache, in batches: look up or read the batch, then parse
    what was read, then cache it (each step over the whole batch keeps the processor's
    caches warm: a third faster than file by file at 10,000 memories)."""
    cache = ParseCache(store.private_dir() / CACHE_NAME)
    memories: list[Memory] = []
    problems: list[InvalidMemoryError] = []
    digests: dict[str, str] = {}
    fresh: dict[str, bytes] | None = {}
    for start in range(0, len(files), BATCH):
        batch = files[start : start + BATCH]
        # the cached memory, else the file's bytes; a problem, or None if it is gone
        found = [cache.get(rel, st) or _read(rel, full, st.st_size) for rel, full, st in batch]
        for (rel, _, _), raw in zip(batch, found, strict=True):
            if isinstance(raw, bytes):
                import hashlib

                digests[rel] = hashlib.sha256(raw).hexdigest()
        parsed = [
            mm.parse_all(got, mid=rel.rsplit("/", 1)[-1][:-3], path=rel)
            if isinstance(got, bytes)
            else got
            for (rel, _, _), got in zip(batch, found, strict=True)
        ]
        for (rel, _, st), got, raw in zip(batch, parsed, found, strict=True):
            if isinstance(got, Memory):
                memories.append(got)
            elif isinstance(got, InvalidMemoryError):
                problems.append(got)
            elif isinstance(got, tuple):
                mem, errs = got
                if errs:
                    problems.extend(errs)
                else:
                    assert mem is not None and isinstance(raw, bytes)
                    cache.put(rel, st, mem)
                    memories.append(mem)
                    if fresh is not None:
                        fresh[rel] = raw
                        fresh = fresh if len(fresh) <= FRESH_MAX else None
    cache.save()
    cache.close()
    problems.extend(
        InvalidMemoryError(rel, 1, "file", _LINK_PROBLEM) for rel in sorted(store.links)
    )
    problems.extend(
        InvalidMemoryError(rel, 1, "file", NAME_PROBLEM) for rel in sorted(store.bad_names)
    )
    problems.extend(_duplicates(memories))
    stats = {rel: st for rel, _, st in files}
    return Loaded(tuple(memories), tuple(problems), stats, digests, fresh or {})


def _read(rel: str, full: str, size: int) -> bytes | InvalidMemoryError | None:
    try:
        mm.check_size(size, rel)
        return read_regular(full, limit=mm.MAX_BYTES, what=rel)
    except InvalidMemoryError as e:
        return e
    except FileNotFoundError:
        return None  # deleted while we listed
    except MemkitError as e:
        return InvalidMemoryError(rel, 1, "file", str(e))


def load_one(root: str, rel: str, size: int) -> tuple[Memory | None, list[InvalidMemoryError]]:
    """One memory file (`rel` under `root`, `size` bytes when listed) as a full load reads
    it, without the parse cache: (memory, []) or (None, its problems); (None, []) when
    it is gone."""
    got = _read(rel, os.path.join(root, rel), size)
    if got is None:
        return None, []
    if isinstance(got, InvalidMemoryError):
        return None, [got]
    mem, problems = mm.parse_all(got, mid=rel.rsplit("/", 1)[-1][:-3], path=rel)
    return (None, problems) if problems else (mem, [])


def read_few(store: Any, found: Mapping[str, str]) -> list[Memory]:
    """The memories `found` names (id -> path relative to the root; files checked to be
    regular), in its order: each from the parse cache when its size and mtime match,
    else read and parsed, and cached (Store.get_many, for a few memories)."""
    cache = ParseCache(store.private_dir() / CACHE_NAME, bulk=False)
    try:
        cache.prefetch(list(found.values()))
        got = []
        for mid, rel in found.items():
            try:
                st = os.stat(f"{store.root}/{rel}", follow_symlinks=False)
            except FileNotFoundError:
                raise MemoryNotFoundError(f"{rel} no longer exists (see `memkit list`)") from None
            mem = cache.get(rel, st)
            if mem is None or mem.id != mid:
                mem = store._parse(store.root / rel, mid)
                cache.put(rel, st, mem)
            got.append(mem)
        cache.save()
    finally:
        cache.close()
    return got


def _duplicates(memories: list[Memory]) -> list[InvalidMemoryError]:
    """A problem for each memory whose id an earlier one has."""
    first: dict[str, Memory] = {}
    return [
        InvalidMemoryError(
            mem.path,
            1,
            "id",
            f"duplicate id {mem.id!r}: {had.path} has the same file name; rename one of them",
        )
        for mem in memories
        if (had := first.setdefault(mem.id, mem)) is not mem
    ]
