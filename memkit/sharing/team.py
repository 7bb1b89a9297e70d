"""Shared team stores: memories of other git repositories, pinned like a lock file.

Which stores, pinned at which commit: memkit.sharing.pins.

`memkit sync` fetches each store into a bare mirror in memkit's private folder and
records the commit in `.memory/stores.lock`, which is committed: every clone then reads
the same memories, and moving the pin (`memkit sync --update`) is a reviewed change.
Reading needs no network once the mirror has the locked commit. Nothing fetched is
checked out or run: only the memory files are read, from git objects, and they are
parsed and secret-scanned like the project's own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from memkit import memory as mm
from memkit.errors import ConfigError, MemkitError
from memkit.fsutil import atomic_write
from memkit.memory import Memory
from memkit.sharing.pins import LOCK, Pin, Source, read_lock, sources, write_lock
from memkit.walk import SKIP_DIRS

if TYPE_CHECKING:
    from memkit.store import Store

_CACHE_VERSION = 2
# A store's memory never outranks the project's own: its `pin` is dropped and its
# `priority` kept at or below this, and compile ranks the project's memories first.
MAX_SHARED_PRIORITY = 0


@dataclass(frozen=True)
class Synced:
    """What `sync` did with one store: action is fetched, updated, unchanged or error."""

    name: str
    action: str
    commit: str = ""
    old: str = ""
    message: str = ""
    count: int = 0


@dataclass(frozen=True)
class Shared:
    """The shared memories in force, and what was wrong or left out."""

    memories: tuple[Memory, ...]
    problems: tuple[str, ...]


def mirror_of(private: Path, name: str) -> Path:
    return private / "stores" / f"{name}.git"


def sync(store: Store, *, update: bool = False, names: Iterable[str] = ()) -> list[Synced]:
    """Fetch every configured store (or those named) at its pin; with `update`, move the
    pin to what `ref` names now. One store's failure is reported, the others go on."""
    wanted, private = set(names), store.private_dir()
    pins = read_lock(store.root)
    locked = dict(pins)
    configured = sources(store.config)
    unknown = wanted - {s.name for s in configured}
    if unknown:
        where = store.config.path or "config.toml"
        raise ConfigError(f"no store named {sorted(unknown)[0]!r} in [stores] of {where}")
    results = []
    for src in configured:
        if wanted and src.name not in wanted:
            continue
        try:
            done = _sync_one(mirror_of(private, src.name), src, pins.get(src.name), update)
        except MemkitError as e:
            results.append(Synced(src.name, "error", message=str(e)))
            continue
        pins[src.name] = Pin(src.url, done.commit)
        results.append(done)
    for name in [n for n in pins if n not in {s.name for s in configured}]:
        del pins[name]  # a store removed from the config loses its pin
    if pins != locked:
        write_lock(store.root, pins)
    return results


def _sync_one(mirror: Path, src: Source, old: Pin | None, update: bool) -> Synced:
    """Fetch one store at its pin `old`, or (`update`, no pin) at what its ref names now."""
    from memkit.git import remote

    ref = old.commit if old is not None and old.url == src.url and not update else src.ref
    commit = remote.fetch(mirror, src.url, ref)
    if old is not None and old.commit != commit and old.url == src.url:
        remote.fetch_history(mirror, src.url, src.ref)
        if not remote.has_commit(mirror, old.commit) or not remote.is_ancestor(
            mirror, old.commit, commit
        ):
            raise MemkitError(
                f"store {src.name}: {src.url} {src.ref} no longer contains the "
                f"pinned commit {old.commit[:12]} (its history was rewritten); "
                "check with its owners, then remove the pin from "
                f"{LOCK} and run `memkit sync --update`"
            )
    action = "fetched" if old is None else "unchanged" if old.commit == commit else "updated"
    count = len(_parsed(mirror, src, commit).memories)  # a store memkit cannot read is not pinned
    return Synced(src.name, action, commit, old.commit if old else "", count=count)


def _parsed(mirror: Path, src: Source, commit: str) -> Shared:
    """The store's memories at `commit` (filters applied), cached per commit."""
    cache = mirror.parent / f"{src.name}-{commit}.json"
    key = [_CACHE_VERSION, src.folder, list(src.tags), list(src.paths)]
    try:
        data = json.loads(cache.read_text("utf-8"))
        if data["key"] == key:
            mems = [replace(Memory.from_record(r), origin=src.name) for r in data["memories"]]
            return Shared(tuple(mems), tuple(data["problems"]))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    from memkit.git.bounded import TreeLimitError

    try:
        read = _read(mirror, src, commit)
    except TreeLimitError as e:
        raise TreeLimitError(
            f"store {src.name} ({src.url} at {commit[:12]}): {e}; ask its "
            "owners to trim it, or point its folder at the memories"
        ) from None
    records = [m.to_record() for m in read.memories]
    data = {"key": key, "memories": records, "problems": list(read.problems)}
    atomic_write(cache, json.dumps(data).encode("utf-8"), fsync=False)
    return read


def _read(mirror: Path, src: Source, commit: str) -> Shared:
    from memkit.git.bounded import read_files
    from memkit.store.secrets_guard import secret_findings

    start = len(src.folder) + 1 if src.folder else 0

    def descend(path: str) -> bool:  # a folder of memories, not templates/, archive/, .x/
        parts = path[start:].split("/")
        return not parts[-1].startswith(".") and not (len(parts) == 1 and parts[0] in SKIP_DIRS)

    def want(path: str) -> bool:
        return path.endswith(".md") and not path.rsplit("/", 1)[-1].startswith(".")

    found = read_files(mirror, commit, src.folder, want, descend)
    problems = [
        f"{src.name}:{rel}: larger than {mm.MAX_BYTES} bytes; left out"
        for rel in sorted(found.too_large)
    ]
    mems = []
    for rel, raw in sorted(found.data.items()):
        where = f"{src.name}:{rel}"
        got, errs = mm.parse_all(raw, mid=rel.rsplit("/", 1)[-1][:-3], path=where)
        if errs or got is None:
            problems += [str(e) for e in errs[:1]]
            continue
        if found_secret := secret_findings(raw.decode("utf-8", "replace"), got):
            line, kind = found_secret[0]
            problems.append(f"{where}:{line}: looks like a {kind}; left out")
            continue
        if not src.keeps(got, rel):
            continue
        # As this project sees it: from that store, unverified here (verification records
        # speak of that repository's code), never pinned, its priority capped (the
        # project's own memories rank first).
        capped = min(got.priority, MAX_SHARED_PRIORITY)
        mems.append(replace(got, origin=src.name, verified=None, pin=False, priority=capped))
    return Shared(tuple(mems), tuple(problems))


def load(store: Store) -> Shared:
    """Every configured store's memories at its pinned commit, read from the mirrors
    (no network). A store not synced yet is a problem saying to run `memkit sync`."""
    configured, private = sources(store.config), store.private_dir()
    if not configured:
        return Shared((), ())
    pins = read_lock(store.root)
    memories: list[Memory] = []
    problems: list[str] = []
    from memkit.git import remote

    for src in configured:
        pin = pins.get(src.name)
        mirror = mirror_of(private, src.name)
        if pin is None or pin.url != src.url:
            problems.append(f"store {src.name} is not pinned in {LOCK}; run `memkit sync`")
            continue
        if not (mirror / "HEAD").exists() or not remote.has_commit(mirror, pin.commit):
            problems.append(f"store {src.name} is not fetched here; run `memkit sync`")
            continue
        try:
            got = _parsed(mirror, src, pin.commit)
        except MemkitError as e:
            text = str(e)
            problems.append(
                text if text.startswith(f"store {src.name} ") else f"store {src.name}: {text}"
            )
            continue
        memories += got.memories
        problems += got.problems
    return Shared(tuple(memories), tuple(problems))


def merge(own: Iterable[Memory], shared: Shared) -> tuple[list[Memory], list[str]]:
    """The project's memories, then the shared ones whose id is not taken yet (the
    project wins, then stores in config order). Shadowed ids and titles found in two
    stores are reported."""
    out = list(own)
    ids = {m.id: m for m in out}
    titles = {m.title.casefold(): m for m in out}
    notes = []
    for m in shared.memories:
        if m.id in ids:
            notes.append(f"{m.path}: id {m.id!r} is also in {_where(ids[m.id])}, which wins")
            continue
        other = titles.get(m.title.casefold())
        if other is not None:
            notes.append(f"{m.path}: same title as {_where(other)}; check they agree")
        ids[m.id] = m
        titles.setdefault(m.title.casefold(), m)
        out.append(m)
    return out, notes


def _where(m: Memory) -> str:
    return m.path or m.id
