"""Histories already walked, kept as derived data (history.json in memkit's private folder)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from typing import Any

from memkit import git
from memkit.fsutil import atomic_write
from memkit.store import Store


class HistoryCache:
    """Histories already walked, by path: commits never change, so they stay true.

    Derived data in memkit's private folder: the next `memkit log` or `show` walks only the
    commits made since, then stops at the cached start.
    """

    LIMIT = 1000  # paths kept

    def __init__(self, store: Store) -> None:
        self.file = store.cache_dir / "history.json"
        self.entries: dict[str, Any] = {}
        try:
            data = json.loads(self.file.read_bytes())
            if data.get("version") == 1 and isinstance(data.get("paths"), dict):
                self.entries = data["paths"]
        except (OSError, ValueError, AttributeError):
            pass

    def known(self, path: str) -> dict[tuple[str, str], git.FileHistory]:
        entry = self.entries.get(path)
        if entry is None:
            return {}
        try:
            changes = tuple(git.FileChange(**c) for c in entry["changes"])
            return {(entry["start"], path): git.FileHistory(changes)}
        except (TypeError, KeyError):
            return {}

    def save(self, path: str, start: str, hist: git.FileHistory) -> None:
        entry = self.entries.get(path)
        if hist.boundary or (entry and entry.get("start") == start):
            return  # a shallow clone's history may grow; an unchanged entry needs no write
        self.entries.pop(path, None)
        self.entries[path] = {
            "start": start,
            "changes": [dataclasses.asdict(c) for c in hist.changes],
        }
        while len(self.entries) > self.LIMIT:
            del self.entries[next(iter(self.entries))]
        data = json.dumps({"version": 1, "paths": self.entries}, sort_keys=False)
        with contextlib.suppress(OSError):  # a read-only checkout goes without the cache
            self.file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.file, data.encode("utf-8"))
