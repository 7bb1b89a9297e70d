"""Editing a memory in an editor without ever losing what the person typed."""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path

from memkit import memory as mm
from memkit.errors import MemkitError
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

    A rejected edit stays in .memory/.cache/edit/<id>.md and is reopened next time.
    Returns a one-line summary of what happened.
    """
    path = store.path_of(mid)
    rel = store.rel(path)
    draft = draft_path(store, mid)
    resumed = draft.exists()
    if not resumed:
        draft.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, draft)
    editor(draft)
    raw = draft.read_bytes()
    if raw == path.read_bytes():
        draft.unlink()
        return f"no change to {rel}"
    keep = (
        f" (your edit is kept in {store.rel(draft)}: `memkit edit {mid}` reopens it, "
        f"`memkit edit {mid} --discard` drops it)"
    )
    try:
        mem = mm.parse(raw, mid=mid, path=store.rel(draft))
        check_secrets(raw.decode("utf-8"), store.rel(draft), allow_secret)
    except MemkitError as e:
        raise MemkitError(f"{e}{keep}") from None
    old = store.get(mid)
    if mem.updated == old.updated:
        mem = dataclasses.replace(mem, updated=today)
    with store.lock():
        store.put(dataclasses.replace(mem, path=rel), allow_secret=True)
    draft.unlink()
    return f"saved {rel}" + (" (resumed your earlier edit)" if resumed else "")


def discard_edit(store: Store, mid: str) -> str:
    draft = draft_path(store, mid)
    if not draft.exists():
        return f"no kept edit for {mid!r}"
    draft.unlink()
    return f"discarded {store.rel(draft)}"
