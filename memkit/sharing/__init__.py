"""Sharing memories beyond the project's own `.memory/`: shared team stores pinned in
`.memory/stores.lock` (pins, team), and one person's store compiled into their agents'
user-level files (personal).

load_all(store) is what compile, search, context and the hooks read: the project's
memories first, then the shared ones whose id the project does not already use.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.errors import InvalidMemoryError, MemkitError, MemoryNotFoundError

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.store import Loaded, Store


def load_all(store: Store, loaded: Loaded | None = None) -> Loaded:
    """The project's memories plus the shared stores' (see memkit.sharing.team.merge).

    Shared stores' problems (not synced, invalid files) are not the project's files'
    problems: they are left to `memkit sync` and `memkit stores` to report.
    """
    own = loaded or store.load()
    if "stores" not in store.config.data:
        return own
    from memkit.sharing import team
    from memkit.store import Loaded

    shared = team.load(store)
    merged, _ = team.merge(own.memories, shared)
    return Loaded(tuple(merged), own.problems)


def shared_memory(store: Store, mid: str) -> Memory | None:
    """Memory `mid` of a shared store (None when no shared store has it)."""
    if "stores" not in store.config.data:
        return None
    from memkit.sharing import team

    shared = team.load(store)
    return next((m for m in shared.memories if m.id == mid), None)


def own(store: Store, mid: str) -> Path:
    """The file of the project's memory `mid`; for a shared store's memory, an error
    saying where to change it."""
    try:
        return store.path_of(mid)
    except MemoryNotFoundError:
        mem = shared_memory(store, mid)
        if mem is None:
            raise
        from memkit.sharing import pins

        url = next((s.url for s in pins.sources(store.config) if s.name == mem.origin), "?")
        how = (
            f"comes from the shared store {mem.origin} ({url}); change it there, in a pull request"
        )
        raise InvalidMemoryError(mem.path, 1, "file", how) from None


def scope_path(root: Path, scope: str) -> str:
    """A --scope PATH relative to the project root, '/'-separated ("" = the whole project)."""
    rel = os.path.relpath(os.path.abspath(scope), root)
    if rel == ".":
        return ""
    if rel.startswith(".."):
        raise MemkitError(f"--scope {scope!r} is outside the project at {root}")
    return rel.replace(os.sep, "/")


def in_scope(mem: Memory, where: str) -> bool:
    """Whether `mem` applies to the file or folder `where`: it has no `paths`, one of
    them matches `where`, or one names something inside that folder."""
    from memkit.globs import fixed_prefix, match

    if not mem.paths or not where:
        return True
    for glob in mem.paths:
        fixed = fixed_prefix(glob)
        if match(glob, where) or fixed == where or fixed.startswith(where + "/"):
            return True
    return False
