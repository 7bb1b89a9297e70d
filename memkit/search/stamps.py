"""What the search index compares to tell it is current: stamps of the memory files, of
their folders, and of the shared stores (memkit.search.index).

A stamp is a size and a modification time; one too recent to trust (a file written
again within the same clock tick would keep it) is -1, so the next look sees a change.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

RACY_NS = 20_000_000  # a file modified this close to its scan may change again unseen
# The stamp of the shared stores (no memory file is named like it).
SHARED = "@shared-stores"


def file_stamps(store: Any) -> tuple[dict[str, list[int]], list[str]]:
    """rel path -> [size, mtime_ns] of every memory file now (as memkit.walk lists them),
    with SHARED's stamp when shared stores are configured; and the memory files left
    out, their names not UTF-8."""
    from memkit.walk import memory_entries

    out: dict[str, list[int]] = {}
    now = time.time_ns()
    bad: list[str] = []
    for rel, entry in memory_entries(str(store.root), bad):
        if entry.is_symlink():
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except FileNotFoundError:  # removed while listed: as if listed a moment later
            continue
        out[rel] = [st.st_size, trusted(st.st_mtime_ns, now)]
    shared = shared_stamp(store)
    if shared is not None:
        out[SHARED] = [shared, 0]
    return out, sorted(bad)


def folder_times(root: str) -> dict[str, int]:
    """rel path -> mtime_ns of `.memory/` and every folder under it (-1: too recent)."""
    from memkit.walk import MEMORY_DIR, SKIP_DIRS, undecodable

    now = time.time_ns()
    out: dict[str, int] = {}
    stack = [MEMORY_DIR]
    while stack:
        rel = stack.pop()
        try:
            st = os.stat(os.path.join(root, rel), follow_symlinks=False)
            entries = os.scandir(os.path.join(root, rel))
        except OSError:
            continue
        out[rel] = trusted(st.st_mtime_ns, now)
        with entries:
            for e in entries:
                skip = e.name.startswith(".") or (rel == MEMORY_DIR and e.name in SKIP_DIRS)
                skip = skip or undecodable(e.name)
                if not skip and e.is_dir(follow_symlinks=False):
                    stack.append(f"{rel}/{e.name}")
    return out


def trusted(mtime: int, now: int) -> int:
    """`mtime`, or -1 when it is too recent to trust (two seconds on 1 s file systems)."""
    window = 2_000_000_000 if mtime % 1_000_000_000 == 0 else RACY_NS
    return -1 if now - mtime < window else mtime


def shared_stamp(store: Any) -> int | None:
    """A number that changes when the shared stores' pins, config or mirrors do."""
    if "stores" not in store.config.data:
        return None
    import zlib

    from memkit.sharing import pins, team

    try:
        lock = (store.root / pins.LOCK).read_bytes()
    except OSError:
        lock = b""
    names = sorted(store.config.data["stores"])
    fetched = [(team.mirror_of(store.private_dir(), n) / "HEAD").exists() for n in names]
    key = json.dumps([str(store.config.data["stores"]), fetched], sort_keys=True).encode()
    return zlib.crc32(lock + key)
