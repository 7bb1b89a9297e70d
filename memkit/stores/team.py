"""Shared team stores: memories of other git repositories, pinned like a lock file.

A project names them in `.memory/config.toml`:

    [stores.acme]
    url = "https://github.com/acme/memory.git"   # any URL or path `git fetch` takes
    ref = "main"                                 # branch, tag or commit to follow
    folder = ".memory"                           # where its memories are (default)
    tags = ["python"]                            # keep only memories with one of these
    paths = ["backend/"]                         # keep only files under these folders

`memkit sync` fetches each store into a bare mirror in memkit's private folder and
records the commit in `.memory/stores.lock`, which is committed: every clone then reads
the same memories, and moving the pin (`memkit sync --update`) is a reviewed change.
Reading needs no network once the mirror has the locked commit. Nothing fetched is
checked out or run: only the memory files are read, from git objects, and they are
parsed and secret-scanned like the project's own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from memkit import memory as mm
from memkit.config import Config
from memkit.errors import ConfigError, InvalidMemoryError, MemkitError
from memkit.fsutil import atomic_write, read_inside
from memkit.memory import Memory
from memkit.walk import MEMORY_DIR, SKIP_DIRS

LOCK = f"{MEMORY_DIR}/stores.lock"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_CACHE_VERSION = 2
# A store's memory never outranks the project's own: its `pin` is dropped and its
# `priority` kept at or below this, and compile ranks the project's memories first.
MAX_SHARED_PRIORITY = 0


@dataclass(frozen=True)
class Source:
    """One `[stores.NAME]` entry of the config."""

    name: str
    url: str
    ref: str = "HEAD"
    folder: str = MEMORY_DIR
    tags: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()

    def keeps(self, mem: Memory, rel: str) -> bool:
        """The config's filters: a tag in common, a file under one of the folders."""
        if self.tags and not set(self.tags) & set(mem.tags):
            return False
        inside = rel[len(self.folder) + 1 :] if self.folder else rel
        return not self.paths or any(inside.startswith(p.rstrip("/") + "/") for p in self.paths)


@dataclass(frozen=True)
class Pin:
    url: str
    commit: str


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


def sources(config: Config) -> list[Source]:
    """The configured stores, checked; ConfigError names the key and the fix."""
    where = config.path or f"{MEMORY_DIR}/config.toml"
    section = config.data.get("stores", {})
    out = []
    for name, entry in sorted(section.items()):
        key = f"{where}: [stores.{name}]"
        if not _NAME.match(name):
            raise ConfigError(f"{key}: a store name is lower-case letters, digits, - and _")
        if not isinstance(entry, dict):
            raise ConfigError(f"{key} must be a table with url = ... and ref = ...")
        unknown = set(entry) - {"url", "ref", "folder", "tags", "paths"}
        if unknown:
            raise ConfigError(f"{key}: unknown key {sorted(unknown)[0]!r}; use url, ref, "
                              "folder, tags, paths")  # fmt: skip
        url, ref = entry.get("url"), entry.get("ref", "HEAD")
        if not isinstance(url, str) or not url.strip():
            raise ConfigError(f'{key}: url is missing; add url = "<git URL or path>"')
        if not isinstance(ref, str) or not ref or ref.startswith("-"):
            raise ConfigError(f"{key}: ref must be a branch, tag or commit")
        folder = entry.get("folder", MEMORY_DIR)
        if not isinstance(folder, str) or folder.startswith("/") or ".." in folder.split("/"):
            raise ConfigError(f"{key}: folder must be a relative path inside that repository")
        lists = {}
        for k in ("tags", "paths"):
            v = entry.get(k, [])
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ConfigError(f"{key}: {k} must be a list of strings")
            lists[k] = tuple(v)
        at = f"{_line_of(config, name, 'url')}: [stores.{name}] url"
        out.append(Source(name, _url(url.strip(), at), ref, folder.strip("/"), **lists))
    return out


# What a store needs: https, ssh (also git@host:path) and local paths. Not git's remote
# helpers (`ext::`, `fd::`, any `NAME::`), which run commands or wait on a descriptor,
# nor plain http or git://, which nothing authenticates.
SCHEMES = ("https", "ssh", "git+ssh", "ssh+git", "file")
_HELPER = re.compile(r"^([A-Za-z0-9][A-Za-z0-9+.-]*)::")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def _url(url: str, at: str) -> str:
    """`url` if it is a transport a store needs; ConfigError naming the line otherwise."""
    fix = "use an https:// or ssh:// URL, git@host:path, or a local path"
    if url.startswith("-"):
        raise ConfigError(f"{at} {url!r} must not start with '-'; {fix}")
    helper, scheme = _HELPER.match(url), _SCHEME.match(url)
    if helper:
        raise ConfigError(f"{at} {url!r} names git's {helper.group(1)!r} remote helper, "
                          f"which memkit does not run; {fix}")  # fmt: skip
    if scheme and scheme.group(1).lower() not in SCHEMES:
        raise ConfigError(f"{at} {url!r}: memkit does not fetch stores over "
                          f"{scheme.group(1)}://; {fix}")  # fmt: skip
    if not url.isprintable():
        raise ConfigError(f"{at} holds a control character; {fix}")
    return url


def _line_of(config: Config, name: str, key: str) -> str:
    """`path:line` of `key` in the [stores.NAME] table of the config file (or the path)."""
    where = config.path or f"{MEMORY_DIR}/config.toml"
    try:
        lines = Path(config.path).read_text("utf-8").splitlines() if config.path else []
    except (OSError, UnicodeDecodeError):
        return where
    header = re.compile(rf"^\s*\[\s*stores\s*\.\s*\"?{re.escape(name)}\"?\s*\]")
    inside = False
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("["):
            inside = bool(header.match(line))
        elif inside and re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return f"{where}:{n}"
    return where


def read_lock(root: Path) -> dict[str, Pin]:
    """`.memory/stores.lock`: {name: Pin}. A damaged lock is a ConfigError naming the line."""
    try:
        raw = read_inside(root, LOCK, limit=1 << 20).decode("utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        raise ConfigError(f"{LOCK} is not UTF-8; restore it with git") from None
    import tomllib

    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(
            f"{LOCK}: {e}; restore it with git or run `memkit sync --update`"
        ) from None
    out = {}
    for name, entry in data.get("stores", {}).items():
        ok = isinstance(entry, dict) and isinstance(entry.get("url"), str)
        commit = entry.get("commit") if ok else None
        if not isinstance(commit, str) or not re.fullmatch(r"[0-9a-f]{40}", commit):
            raise ConfigError(f"{LOCK}: [stores.{name}] needs url and a 40-hex commit; "
                              "run `memkit sync --update`")  # fmt: skip
        out[name] = Pin(entry["url"], commit)
    return out


def write_lock(root: Path, pins: dict[str, Pin]) -> None:
    lines = ["# Written by `memkit sync`: the commit of each shared store this project reads.",
             "# Commit it; `memkit sync --update` moves the pins (review it like a lock file).",
             ""]  # fmt: skip
    for name in sorted(pins):
        pin = pins[name]
        lines += [f"[stores.{name}]", f"url = {json.dumps(pin.url)}",
                  f'commit = "{pin.commit}"', ""]  # fmt: skip
    atomic_write(root / LOCK, "\n".join(lines).encode("utf-8"))


def mirror_of(private: Path, name: str) -> Path:
    return private / "stores" / f"{name}.git"


def sync(
    root: Path, config: Config, private: Path, *, update: bool = False,
    names: Iterable[str] | None = None,
) -> list[Synced]:  # fmt: skip
    """Fetch every configured store (or those named) at its pin; with `update`, move the
    pin to what `ref` names now. One store's failure is reported, the others go on."""
    from memkit.git import remote

    wanted = set(names or ())
    pins = read_lock(root)
    locked = dict(pins)
    configured = sources(config)
    unknown = wanted - {s.name for s in configured}
    if unknown:
        raise ConfigError(f"no store named {sorted(unknown)[0]!r} in [stores] of "
                          f"{config.path or 'config.toml'}")  # fmt: skip
    results = []
    for src in configured:
        if wanted and src.name not in wanted:
            continue
        mirror = mirror_of(private, src.name)
        old = pins.get(src.name)
        try:
            if old is not None and old.url == src.url and not update:
                commit = remote.fetch(mirror, src.url, old.commit)
                action = "unchanged"
            else:
                commit = remote.fetch(mirror, src.url, src.ref)
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
                action = (
                    "fetched" if old is None else "unchanged" if old.commit == commit else "updated"
                )
            count = len(_parsed(mirror, src, commit)[0])  # a store memkit cannot read is not pinned
            pins[src.name] = Pin(src.url, commit)
            results.append(Synced(src.name, action, commit, old.commit if old else "", count=count))
        except MemkitError as e:
            results.append(Synced(src.name, "error", message=str(e)))
    for name in [n for n in pins if n not in {s.name for s in configured}]:
        del pins[name]  # a store removed from the config loses its pin
    if pins != locked:
        write_lock(root, pins)
    return results


def _parsed(mirror: Path, src: Source, commit: str) -> tuple[list[Memory], list[str]]:
    """The store's memories at `commit` (filters applied), cached per commit."""
    cache = mirror.parent / f"{src.name}-{commit}.json"
    key = [_CACHE_VERSION, src.folder, list(src.tags), list(src.paths)]
    try:
        data = json.loads(cache.read_text("utf-8"))
        if data["key"] == key:
            mems = [replace(Memory.from_record(r), origin=src.name) for r in data["memories"]]
            return mems, list(data["problems"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    from memkit.git.bounded import TreeLimitError

    try:
        mems, problems = _read(mirror, src, commit)
    except TreeLimitError as e:
        raise TreeLimitError(
            f"store {src.name} ({src.url} at {commit[:12]}): {e}; ask its "
            "owners to trim it, or point its folder at the memories"
        ) from None
    records = [m.to_record() for m in mems]
    atomic_write(cache, json.dumps({"key": key, "memories": records, "problems": problems})
                 .encode("utf-8"), fsync=False)  # fmt: skip
    return mems, problems


def _read(mirror: Path, src: Source, commit: str) -> tuple[list[Memory], list[str]]:
    from memkit.git import remote
    from memkit.store.secrets_guard import secret_findings

    start = len(src.folder) + 1 if src.folder else 0

    def descend(path: str) -> bool:  # a folder of memories, not templates/, archive/, .x/
        parts = path[start:].split("/")
        return not parts[-1].startswith(".") and not (len(parts) == 1 and parts[0] in SKIP_DIRS)

    def want(path: str) -> bool:
        return path.endswith(".md") and not path.rsplit("/", 1)[-1].startswith(".")

    found = remote.files(mirror, commit, src.folder, want, descend)
    problems = [f"{src.name}:{rel}: larger than {mm.MAX_BYTES} bytes; left out"
                for rel in sorted(found.too_large)]  # fmt: skip
    mems = []
    for rel, raw in sorted(found.data.items()):
        where = f"{src.name}:{rel}"
        got, errs = mm.parse_all(raw, mid=rel.rsplit("/", 1)[-1][:-3], path=where)
        if errs or got is None:
            problems += [str(e) for e in errs[:1]]
            continue
        found_secret = secret_findings(raw.decode("utf-8", "replace"), got)
        if found_secret:
            line, kind = found_secret[0]
            problems.append(f"{where}:{line}: looks like a {kind}; left out")
            continue
        if not src.keeps(got, rel):
            continue
        # Verification records speak of that repository's code, not this one's.
        mems.append(_shared(got, src.name))
    return mems, problems


def _shared(mem: Memory, name: str) -> Memory:
    """A store's memory as this project sees it: from `name`, unverified here, never
    pinned, its priority capped (the project's own memories rank first)."""
    return replace(mem, origin=name, verified=None, pin=False,
                   priority=min(mem.priority, MAX_SHARED_PRIORITY))  # fmt: skip


def load(root: Path, config: Config, private: Path) -> Shared:
    """Every configured store's memories at its pinned commit, read from the mirrors
    (no network). A store not synced yet is a problem saying to run `memkit sync`."""
    configured = sources(config)
    if not configured:
        return Shared((), ())
    pins = read_lock(root)
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
            got, bad = _parsed(mirror, src, pin.commit)
        except MemkitError as e:
            text = str(e)
            problems.append(
                text if text.startswith(f"store {src.name} ") else f"store {src.name}: {text}"
            )
            continue
        memories += got
        problems += bad
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
            first = ids[m.id]
            notes.append(f"{m.path}: id {m.id!r} is also in {_where(first)}, which wins")
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


def find(shared: Shared, mid: str) -> Memory | None:
    return next((m for m in shared.memories if m.id == mid), None)


def not_here(mem: Memory, url: str) -> InvalidMemoryError:
    """The error for changing a shared memory from this project."""
    return InvalidMemoryError(mem.path, 1, "file", f"comes from the shared store {mem.origin} "
                              f"({url}); change it there, in a pull request")  # fmt: skip
