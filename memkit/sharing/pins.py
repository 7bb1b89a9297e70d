"""Which shared stores a project reads, and at which commit: the config and the lock.

A project names them in `.memory/config.toml`:

    [stores.acme]
    url = "https://github.com/acme/memory.git"   # any URL or path `git fetch` takes
    ref = "main"                                 # branch, tag or commit to follow
    folder = ".memory"                           # where its memories are (default)
    tags = ["python"]                            # keep only memories with one of these
    paths = ["backend/"]                         # keep only files under these folders

`sources(config)` checks those entries; `.memory/stores.lock` (`read_lock`,
`write_lock`) records the commit each store is pinned at, and is committed: every
clone then reads the same memories (memkit.sharing.team fetches and reads them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.config import Config
from memkit.errors import ConfigError
from memkit.fsutil import atomic_write, read_inside
from memkit.walk import MEMORY_DIR

if TYPE_CHECKING:
    from memkit.memory import Memory

LOCK = f"{MEMORY_DIR}/stores.lock"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


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
        if unknown := set(entry) - {"url", "ref", "folder", "tags", "paths"}:
            raise ConfigError(
                f"{key}: unknown key {sorted(unknown)[0]!r}; use url, ref, folder, tags, paths"
            )
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
        raise ConfigError(
            f"{at} {url!r} names git's {helper.group(1)!r} remote helper, "
            f"which memkit does not run; {fix}"
        )
    if scheme and scheme.group(1).lower() not in SCHEMES:
        raise ConfigError(
            f"{at} {url!r}: memkit does not fetch stores over {scheme.group(1)}://; {fix}"
        )
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
            raise ConfigError(
                f"{LOCK}: [stores.{name}] needs url and a 40-hex commit; run `memkit sync --update`"
            )
        out[name] = Pin(entry["url"], commit)
    return out


def write_lock(root: Path, pins: dict[str, Pin]) -> None:
    lines = [
        "# Written by `memkit sync`: the commit of each shared store this project reads.",
        "# Commit it; `memkit sync --update` moves the pins (review it like a lock file).",
        "",
    ]
    for name, pin in sorted(pins.items()):
        lines += [
            f"[stores.{name}]",
            f"url = {json.dumps(pin.url)}",
            f'commit = "{pin.commit}"',
            "",
        ]
    atomic_write(root / LOCK, "\n".join(lines).encode("utf-8"))
