"""The texts Store.put_many writes: each memory's file proven and checked for secrets.

A memory whose head `memkit verify` already rewrote (memkit.staleness.restamp) is
written as head + body once that text parses back to the very memory and holds no
secret; any other is dumped (memory.dumps) and parsed.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, NamedTuple

from memkit import memory as mm
from memkit.errors import MemkitError
from memkit.memory import Memory
from memkit.store.secrets_guard import check_secrets


class Place(NamedTuple):
    """Where a memory's file goes, and its path relative to the root."""

    path: str | Path
    rel: str


class Staged(NamedTuple):
    """A file to write: where, its bytes, and the memory they parse to."""

    path: str | Path
    data: bytes
    saved: Memory


class Refused(NamedTuple):
    """A memory not written, and why."""

    id: str
    error: MemkitError


class Head(NamedTuple):
    """A memory with a head to prove: its place in the batch and its relative path."""

    at: int
    mem: Memory
    rel: str


def put_many(store: Any, mems: list[Memory]) -> tuple[list[Memory], list[Refused]]:
    """Store.put_many (`store` is that Store): place each memory, prove or dump it,
    write the good ones at once."""
    from memkit.fsutil import atomic_write_many

    places: list[Place | MemkitError] = []
    root = str(store.root)
    for mem in mems:
        try:
            if mem.path and _plain_rel(mem.path):  # as the store's load writes it
                places.append(Place(os.path.join(root, mem.path), mem.path))
            else:
                path = store.root / mem.path if mem.path else store.path_of(mem.id)
                places.append(Place(path, store.rel(path)))
        except MemkitError as e:
            places.append(e)
    staged, refused = prepare(mems, places)
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


def prepare(
    mems: list[Memory], places: list[Place | MemkitError]
) -> tuple[list[Staged], list[Refused]]:
    """Each memory that may be written, in order, and each refused: its place was
    wrong, it is invalid or holds a secret."""
    heads = [
        Head(i, mem, p.rel)
        for i, (mem, p) in enumerate(zip(mems, places, strict=True))
        if mem.head and not isinstance(p, MemkitError)
    ]
    proven = set(_prove(heads))
    staged: list[Staged] = []
    refused: list[Refused] = []
    for i, (mem, place) in enumerate(zip(mems, places, strict=True)):
        if isinstance(place, MemkitError):
            refused.append(Refused(mem.id, place))
            continue
        if i in proven:
            staged.append(Staged(place.path, (mem.head + mem.body).encode("utf-8"), mem))
            continue
        try:
            text, saved = _text_and_parse(mem, place.rel)
            check_secrets(text, place.rel, False, mem=saved)
        except MemkitError as e:
            refused.append(Refused(mem.id, e))
            continue
        staged.append(Staged(place.path, text.encode("utf-8"), saved))
    return staged, refused


def _prove(heads: list[Head]) -> list[int]:
    out = []
    for head in heads:
        text = _head_text(head.mem, head.rel)
        if text is not None:
            try:
                check_secrets(text, head.rel, False, mem=head.mem)
            except MemkitError:
                continue
            out.append(head.at)
    return out


def _head_text(mem: Memory, rel: str) -> str | None:
    """head + body when that text parses back as the very memory (a head verify already
    rewrote for the new fields is what dumps() would return), else None."""
    if not mem.head:
        return None
    text = mem.head + mem.body
    with contextlib.suppress(MemkitError):
        if mm.parse(text, mid=mem.id, path=rel) == mem:
            return text
    return None


def _text_and_parse(mem: Memory, rel: str) -> tuple[str, Memory]:
    """The file text of `mem` and the memory it parses to: its head when proven, else
    mm.dumps(mem) and its parse."""
    text = _head_text(mem, rel)
    if text is not None:
        return text, mem
    text = mm.dumps(mem)
    return text, mm.parse(text, mid=mem.id, path=rel)
