"""Editing a memory in an editor without ever losing what the person typed."""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path

from memkit import memory as mm
from memkit.errors import MemkitError
from memkit.fsutil import atomic_write, file_lock
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
    path = store.path_of(mid)
    draft = draft_path(store, mid)
    draft.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(draft.with_suffix(".lock")):  # one edit of a memory at a time
        return _edit_locked(store, mid, path, draft, editor, today, allow_secret)


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
    base = draft.with_suffix(".base")  # the file as it was when the edit began
    resumed = draft.exists()
    if not resumed:
        shutil.copyfile(path, draft)
    if not resumed or not base.exists():
        shutil.copyfile(path, base)
    editor(draft)
    raw = draft.read_bytes()
    if raw == path.read_bytes():
        _drop(draft, base)
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
        current = path.read_bytes()
        if current != base.read_bytes():
            atomic_write(base, current)  # reopening saves over this newer version
            raise MemkitError(
                f"{rel} changed while you were editing it, so nothing was saved{keep}; "
                "compare your edit with the file, then reopen it"
            )
        old = mm.parse(current, mid=mid, path=rel)
        if mem.updated == old.updated:
            mem = dataclasses.replace(mem, updated=today)
        store.put(dataclasses.replace(mem, path=rel), allow_secret=True)
    _drop(draft, base)
    return f"saved {rel}" + (" (resumed your earlier edit)" if resumed else "")


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
        _drop(draft, draft.with_suffix(".base"))
    return f"discarded {store.display(draft)}"
