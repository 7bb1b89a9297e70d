"""The staleness engine: fingerprint the code memories link to; tell what changed under them.

Public API (import-light: everything heavy loads inside the functions):

- check_store(store, *, today, ids=None) -> list[MemoryStatus], sorted by id
- fingerprint(root, links, *, today=None) -> Verification
- verify_store(store, ids, *, today, follow=False) -> Verified(saved, problems)
- verify(store, ids, *, today, follow=False) -> list[Memory] (MemkitError if any problem)
- check_staged(store) -> list[(memory id, LinkStatus)]: what the staged changes do
- check_range(store, base, head, *, memories=None) -> list[MemoryStatus]: stale in base..head

Links are `path` (a file) or `path::Qualified.name` (a symbol). See docs/staleness.md.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.errors import MemkitError
from memkit.gcpause import paused

if TYPE_CHECKING:
    from memkit.memory import Memory, Verification
    from memkit.staleness.record import Verified
    from memkit.staleness.verdict import LinkStatus, MemoryStatus
    from memkit.store import Store

__all__ = ["check_range", "check_staged", "check_store", "fingerprint", "verify", "verify_store"]


@paused()
def check_store(
    store: Store,
    *,
    today: dt.date,
    ids: Iterable[str] | None = None,
    memories: Sequence[Memory] | None = None,
) -> list[MemoryStatus]:
    """One MemoryStatus per memory (fresh, stale, expired, review-due, unverified), by id.

    `memories`: the memories to check, already loaded (sorted by id), instead of `ids`.
    """
    from memkit.staleness.check import check_store as run

    return run(store, today=today, ids=ids, memories=memories)


@paused()
def fingerprint(root: Path, links: Sequence[str], *, today: dt.date | None = None) -> Verification:
    """Fingerprints of `links` in the work tree, at HEAD; LinkError for a missing target."""
    from memkit.staleness.record import Fingerprinter

    return Fingerprinter(root).verification(links, today)


@paused()
def verify_store(
    store: Store, ids: Iterable[str] | None, *, today: dt.date, follow: bool = False
) -> Verified:
    """Re-fingerprint every memory it can under the store lock; report the others."""
    from memkit.staleness.record import verify_store as run

    return run(store, ids, today=today, follow=follow)


def verify(
    store: Store, ids: Iterable[str] | None, *, today: dt.date, follow: bool = False
) -> list[Memory]:
    """Like verify_store, then MemkitError naming every problem (the good ones are saved)."""
    done = verify_store(store, ids, today=today, follow=follow)
    if done.problems:
        raise MemkitError("\n".join(str(p) for p in done.problems))
    return list(done.saved)


@paused()
def check_staged(store: Store) -> list[tuple[str, LinkStatus]]:
    """Memories whose linked code the staged changes touch, with how each link changed."""
    from memkit.staleness.check import check_staged as run

    return run(store)


@paused()
def check_range(
    store: Store, base: str, head: str | None, *, memories: Sequence[Memory] | None = None
) -> list[MemoryStatus]:
    """Memories made stale by code changed between `base` and `head` (None: work tree).

    `memories`: the store's memories, already loaded (else they are loaded here).
    """
    from memkit.staleness.check import check_range as run

    return run(store, base, head, memories)
