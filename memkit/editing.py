"""Editing a memory in an editor without ever losing what the person typed."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memkit import memory as mm
from memkit.errors import MemkitError, MemoryNotFoundError
from memkit.fields import NAMES as REGISTRY_NAMES
from memkit.fields import REGISTRY
from memkit.fsutil import atomic_write, file_lock
from memkit.memory import Memory
from memkit.store import Store, check_secrets


def draft_path(store: Store, mid: str) -> Path:
    if not mm.is_valid_id(mid):
        raise MemkitError(
            f"{mid!r} is not a memory id (lowercase letters, digits and dashes); see `memkit list`"
        )
    return store.private_dir() / "edit" / f"{mid}.md"


def edit_memory(
    store: Store,
    mid: str,
    *,
    editor: Callable[[Path], None],
    today: dt.date,
    allow_secret: bool = False,
) -> str:
    """Open a working copy of memory `mid` in `editor`, validate it, then save it.

    A rejected edit stays in memkit's cache folder (edit/<id>.md) and is reopened next time.
    Returns a one-line summary of what happened.
    """
    draft = draft_path(store, mid)
    with naming_kept_edit(store, mid):
        path = store.path_of(mid)
    draft.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(draft.with_suffix(".lock")):  # one edit of a memory at a time
        return _edit_locked(store, mid, path, draft, editor, today, allow_secret)


@contextlib.contextmanager
def naming_kept_edit(store: Store, mid: str) -> Iterator[None]:
    """A MemoryNotFoundError for `mid` in the block says where an edit of it is kept
    (one refused or cut short when the memory was removed while it was being edited)."""
    try:
        yield
    except MemoryNotFoundError as e:
        draft = draft_path(store, mid) if mm.is_valid_id(mid) else None
        if draft is None or not draft.exists():
            raise
        raise MemoryNotFoundError(
            f"{str(e).removesuffix(' (see `memkit list`)')}, but your edit of it is kept in "
            f"{store.display(draft)}: put the memory back to reopen the edit, or copy what "
            f"you need from it and drop it with `memkit edit {mid} --discard`"
        ) from None


def _edit_locked(
    store: Store,
    mid: str,
    path: Path,
    draft: Path,
    editor: Callable[[Path], None],
    today: dt.date,
    allow_secret: bool,
) -> str:
    rel = store.rel(path)
    base = draft.with_suffix(".base")  # the file as it was when the edit began; never moved
    seen = draft.with_suffix(".seen")  # the newer file a refused save was shown
    resumed = draft.exists()
    if not resumed or not base.exists():
        start = store.read(path)  # one read: the draft starts from the base it merges against
        if not resumed:
            atomic_write(draft, start)
        atomic_write(base, start)
        seen.unlink(missing_ok=True)
    before = draft.read_bytes()
    editor(draft)
    raw = draft.read_bytes()
    if raw == _current(store, path, mid, draft):
        _drop(draft, base, seen)
        return f"no change to {rel}"
    keep = (
        f" (your edit is kept in {store.display(draft)}: `memkit edit {mid}` reopens it, "
        f"`memkit edit {mid} --discard` drops it)"
    )
    try:
        mem = mm.parse(raw, mid=mid, path=store.display(draft))
        check_secrets(raw.decode("utf-8"), store.display(draft), allow_secret, mem=mem)
    except MemkitError as e:
        raise MemkitError(f"{e}{keep}") from None
    with store.lock():
        current = _current(store, path, mid, draft)
        old = mm.parse(current, mid=mid, path=rel)
        if current != base.read_bytes():
            # Resolved by hand: edited again after a refusal showed this very version.
            settled = raw != before and seen.exists() and seen.read_bytes() == current
            mem, clash = three_way(mm.parse(base.read_bytes(), mid=mid, path=rel), mem, old)
            if clash and not settled:
                atomic_write(seen, current)
                raise MemkitError(
                    f"{rel} changed while you were editing it, and both changed "
                    f"{', '.join(clash)}, so nothing was saved{keep}; compare "
                    f"{'that field' if len(clash) == 1 else 'those fields'} with the file, "
                    "make your edit say what they should, then reopen it"
                )
        if mem.updated == old.updated:
            mem = dataclasses.replace(mem, updated=today)
        store.put(dataclasses.replace(mem, path=rel), allow_secret=True)
    _drop(draft, base, seen)
    return f"saved {rel}" + (" (resumed your earlier edit)" if resumed else "")


def _current(store: Store, path: Path, mid: str, draft: Path) -> bytes:
    """The memory file's bytes now; an error keeping the edit if it was removed meanwhile
    (`memkit rm`, a rejected draft, a checkout): saving would bring it back."""
    try:
        return store.read(path)
    except MemoryNotFoundError:
        raise MemkitError(
            f"{store.rel(path)} was removed while you were editing it, so nothing was saved "
            f"(your edit is kept in {store.display(draft)}); put the memory back (`git "
            f"restore {store.rel(path)}`, or `memkit revert {mid}` once its removal is "
            f"committed) and run `memkit edit {mid}` to reopen the edit, or drop it with "
            f"`memkit edit {mid} --discard`"
        ) from None


MERGED = [f.name for f in REGISTRY if f.name != "updated"] + ["body"]


def three_way(base: Memory, mine: Memory, theirs: Memory) -> tuple[Memory, list[str]]:
    """`mine` with the changes `theirs` made since `base` to the fields `mine` left alone,
    and the fields both changed differently (those keep `mine`'s value). Front-matter
    keys memkit does not manage travel with the side that changed them."""
    base_keys, my_keys, their_keys = (_unknown(m) for m in (base, mine, theirs))
    carrier = theirs if my_keys == base_keys else mine
    both = base_keys != my_keys and their_keys not in (base_keys, my_keys)
    clash = ["front-matter keys memkit does not manage"] if both else []
    take: dict[str, Any] = {}
    for name in MERGED:
        b, m, t = (getattr(x, name) for x in (base, mine, theirs))
        if t in (b, m):
            value = m
        elif m == b:
            value = t
        else:
            clash.append(name)
            value = m
        if value != getattr(carrier, name):
            take[name] = value
    dates = [d for d in (mine.updated, theirs.updated) if d is not None]
    take["updated"] = max(dates) if dates else None
    return dataclasses.replace(carrier, **take), clash


def _unknown(mem: Memory) -> dict[str, Any]:
    if not mem.head:
        return {}
    _, front, _, _ = mm.split(mem.head, mem.path)
    return {k: v for k, v in mm.load_yaml(front, mem.path).items() if k not in REGISTRY_NAMES}


def _drop(*paths: Path) -> None:
    for p in paths:
        p.unlink(missing_ok=True)


def discard_edit(store: Store, mid: str) -> str:
    """Drop a kept edit; waits for an edit of `mid` in progress (its per-memory lock)."""
    draft = draft_path(store, mid)
    if not draft.parent.is_dir():
        return f"no kept edit for {mid!r}"
    with file_lock(draft.with_suffix(".lock")):
        if not draft.exists():
            return f"no kept edit for {mid!r}"
        _drop(draft, draft.with_suffix(".base"), draft.with_suffix(".seen"))
    return f"discarded {store.display(draft)}"
