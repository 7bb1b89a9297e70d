"""Fingerprints of Python files by content, kept between runs (`prints.json`).

A symbol's fingerprint is a function of its file's bytes alone, so it is kept under a
digest of those bytes: `memkit verify` and `memkit diff` then parse a file only when
its content is new to them (a range whose newer side is the code the store was
verified against reads no file twice across the two commands). The key also holds
the Python version (its parser decides the tree) and a digest of memkit's own
fingerprinting code, so a change to either starts a new cache. Only files that
parsed are kept; a file new to the cache is parsed at once, as without it, so a
syntax error is reported where it always was.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.staleness.fingerprints import SymbolPrint, parse_print
from memkit.staleness.parsed import Parsed

if TYPE_CHECKING:
    from memkit.store import Store

VERSION = 1
MAX_FILES = 20_000  # digests kept; beyond, only what this run used is written
_ABSENT = ""  # a symbol the file does not define


def _code_digest() -> str:
    """Digest of the modules that compute Python fingerprints, and of the interpreter."""
    from memkit.staleness import astdump, fingerprints, python

    h = hashlib.blake2b(digest_size=8)
    h.update(f"{VERSION} {sys.version_info[:2]}".encode())
    for module in (astdump, fingerprints, python, sys.modules[__name__]):
        with contextlib.suppress(OSError, TypeError):
            h.update(Path(str(module.__file__)).read_bytes())
    return h.hexdigest()


class PrintCache:
    """Content digest -> {"": file print, name: symbol print or "" when absent}."""

    def __init__(self, path: Path | None, data: Any = None) -> None:
        self.path = path
        self.code = _code_digest()
        ok = isinstance(data, dict) and data.get("code") == self.code
        files: Any = data.get("files") if ok else None
        self.files: dict[str, dict[str, str]] = files if _valid(files) else {}
        self.used: set[str] = set()
        self.dirty = False

    @classmethod
    def of(cls, store: Store) -> PrintCache:
        """The cache in `store`'s private folder; one kept in memory only without it."""
        from memkit.errors import MemkitError

        try:
            folder = store.private_dir()
        except (MemkitError, OSError):  # a read-only checkout works without one
            return cls(None)
        return cls.open(folder)

    @classmethod
    def open(cls, folder: Path) -> PrintCache:
        path = folder / "prints.json"
        data = None
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(path.read_bytes())
        return cls(path, data)

    def get(self, key: str, name: str) -> str | None:
        return self.files.get(key, {}).get(name)

    def put(self, key: str, name: str, text: str) -> None:
        entry = self.files.setdefault(key, {})
        if entry.get(name) != text:
            entry[name] = text
            self.dirty = True

    def parsed(self, data: bytes, parse: Callable[[], Parsed]) -> Parsed:
        """`parse()`'s Parsed for a Python file of bytes `data`, prints taken from the
        cache where known; `parse` runs only when a print is not (and at once when the
        content is new: it raises Unparsable as before)."""
        key = hashlib.blake2b(data, digest_size=16).hexdigest()
        real: list[Parsed] = []

        def load() -> Parsed:
            if not real:
                real.append(parse())
            return real[0]

        self.used.add(key)
        if key not in self.files:
            load()
            self.files.setdefault(key, {})
            self.dirty = True
        symbols = _Symbols(self, key, load)
        return Parsed(
            lambda: symbols.file(),
            symbols,
            lambda name: load().tokens(name),
            lambda name: load().body_size(name),
        )

    def save(self) -> None:
        """Write the cache if anything was added (never fails a command)."""
        if not self.dirty or self.path is None:
            return
        from memkit.fsutil import atomic_write

        files = self.files
        if len(files) > MAX_FILES:
            files = {k: v for k, v in files.items() if k in self.used}
        data = {"code": self.code, "files": files}
        with contextlib.suppress(OSError):
            atomic_write(self.path, json.dumps(data).encode("utf-8"), fsync=False)


def _valid(files: Any) -> bool:
    """Every entry a dict of str -> str (anything else: a new, empty cache)."""
    return isinstance(files, dict) and all(
        isinstance(key, str)
        and isinstance(entry, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in entry.items())
        for key, entry in files.items()
    )


class _Symbols(Mapping[str, SymbolPrint]):
    """A file's symbol prints: from the cache, else from the parse (and then kept)."""

    def __init__(self, cache: PrintCache, key: str, load: Callable[[], Parsed]) -> None:
        self.cache = cache
        self.key = key
        self.load = load

    def file(self) -> str:
        text = self.cache.get(self.key, "")
        if text is None:
            text = self.load().file
            self.cache.put(self.key, "", text)
        return text

    def _print(self, name: str) -> SymbolPrint | None:
        if not name:
            return None
        text = self.cache.get(self.key, name)
        if text is None:
            found = self.load().symbols.get(name)
            text = _ABSENT if found is None else str(found)
            self.cache.put(self.key, name, text)
        return parse_print(text) if text != _ABSENT else None

    def __getitem__(self, name: str) -> SymbolPrint:
        found = self._print(name)
        if found is None:
            raise KeyError(name)
        return found

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._print(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.load().symbols)

    def __len__(self) -> int:
        return len(self.load().symbols)
