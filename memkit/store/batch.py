"""The texts Store.put_many writes: each memory's file proven and checked for secrets.

A memory whose head `memkit verify` already rewrote (memkit.staleness.restamp) is
written as head + body once that text parses back to the very memory and holds no
secret; any other is dumped (memory.dumps) and parsed. Over many memories, the heads
are proven in forked workers as well as here (memkit.workers): a worker only says
which memories passed, and every memory it does not vouch for (it failed, it was
never started, the head did not prove) takes the whole way here, so what is written
never depends on the workers.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from memkit import memory as mm
from memkit.errors import MemkitError
from memkit.memory import Memory
from memkit.store.secrets_guard import check_secrets

# Memories per process below which a fork costs more than it saves (proving a head
# and scanning it takes about 0.1 ms).
MIN_SHARE = 256

Place = tuple[str | Path, str]  # where the file goes, and its path relative to the root
Staged = tuple[str | Path, bytes, Memory]


def prepare(
    mems: list[Memory], places: list[Place | MemkitError]
) -> tuple[list[Staged], list[tuple[str, MemkitError]]]:
    """(path, bytes, memory as saved) of each memory that may be written, in order;
    (id, error) of each refused: its place was wrong, it is invalid or holds a secret."""
    heads = [(i, mem, p[1]) for i, (mem, p) in enumerate(zip(mems, places, strict=True))
             if mem.head and not isinstance(p, MemkitError)]  # fmt: skip
    proven = _proven(heads)
    staged: list[Staged] = []
    refused: list[tuple[str, MemkitError]] = []
    for i, (mem, place) in enumerate(zip(mems, places, strict=True)):
        if isinstance(place, MemkitError):
            refused.append((mem.id, place))
            continue
        path, rel = place
        if i in proven:
            staged.append((path, (mem.head + mem.body).encode("utf-8"), mem))
            continue
        try:
            text, saved = _text_and_parse(mem, rel)
            check_secrets(text, rel, False, mem=saved)
        except MemkitError as e:
            refused.append((mem.id, e))
            continue
        staged.append((path, text.encode("utf-8"), saved))
    return staged, refused


def _proven(heads: list[tuple[int, Memory, str]]) -> set[int]:
    """The indexes of `heads` whose head + body parses back as the memory, no secret in it."""
    from memkit import workers

    count = workers.jobs(len(heads), MIN_SHARE)
    if count < 2:
        return set(_prove(heads))
    shares = workers.split(heads, count, lambda _: 1)
    out: set[int] = set()
    for found in workers.run(_prove, shares):
        if isinstance(found, list):
            out.update(i for i in found if isinstance(i, int))
    return out


def _prove(heads: list[tuple[int, Memory, str]]) -> list[int]:
    out = []
    for i, mem, rel in heads:
        text = _head_text(mem, rel)
        if text is not None:
            try:
                check_secrets(text, rel, False, mem=mem)
            except MemkitError:
                continue
            out.append(i)
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
