"""The texts Store.put_many writes: each memory dumped (memory.dumps), parsed back and
checked for secrets; the good ones written at once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from memkit import memory as mm
from memkit.errors import MemkitError
from memkit.memory import Memory
from memkit.store.secrets_guard import check_secrets


class Staged(NamedTuple):
    """A file to write: where, its bytes, and the memory they parse to."""

    path: str | Path
    data: bytes
    saved: Memory


class Refused(NamedTuple):
    """A memory not written, and why."""

    id: str
    error: MemkitError


def put_many(store: Any, mems: list[Memory]) -> tuple[list[Memory], list[Refused]]:
    """Store.put_many (`store` is that Store): place each memory, dump and parse it and
    check it for secrets, write the good ones at once; each refused one with its error
    (its place was wrong, it is invalid or holds a secret)."""
    from memkit.fsutil import atomic_write_many

    staged: list[Staged] = []
    refused: list[Refused] = []
    root = str(store.root)
    for mem in mems:
        try:
            if mem.path and _plain_rel(mem.path):  # as the store's load writes it
                path: str | Path = os.path.join(root, mem.path)
                rel = mem.path
            else:
                path = store.root / mem.path if mem.path else store.path_of(mem.id)
                rel = store.rel(path)
            text = mm.dumps(mem)
            saved = mm.parse(text, mid=mem.id, path=rel)
            check_secrets(text, rel, False, mem=saved)
        except MemkitError as e:
            refused.append(Refused(mem.id, e))
            continue
        staged.append(Staged(path, text.encode("utf-8"), saved))
    atomic_write_many([(s.path, s.data) for s in staged])
    return [s.saved for s in staged], refused


def _plain_rel(path: str) -> bool:
    """Whether `path` is already what Store.rel would make of root / path: a relative
    POSIX path without empty, `.` or `..` parts (the paths the store's load gives)."""
    return (
        not path.startswith("/")
        and "\\" not in path
        and all(part not in ("", ".", "..") for part in path.split("/"))
    )
