"""The staleness engine: fingerprint the code memories link to; tell what changed under them.

Public API (import-light: each name loads its module when first asked for):

- check_store(store, *, today, ids=None) -> list[MemoryStatus], sorted by id
- fingerprint(root, links, *, today=None) -> Verification
- verify_store(store, ids, *, today, follow=False) -> Verified(saved, problems)
- verify(store, ids, *, today, follow=False) -> list[Memory] (MemkitError if any problem)
- check_staged(store) -> list[(memory id, LinkStatus)]: what the staged changes do
- check_range(store, base, head, *, memories=None) -> list[MemoryStatus]: stale in base..head

Links are `path` (a file) or `path::Qualified.name` (a symbol). See docs/staleness.md.
"""

from __future__ import annotations

from memkit.lazy import attach

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memkit.staleness.check import check_range, check_staged, check_store
    from memkit.staleness.record import fingerprint, verify, verify_store

__all__ = ["check_range", "check_staged", "check_store", "fingerprint", "verify", "verify_store"]
_HOME = {name: "memkit.staleness.check" for name in ("check_range", "check_staged", "check_store")}
_HOME |= {name: "memkit.staleness.record" for name in ("fingerprint", "verify", "verify_store")}


__getattr__ = attach(__name__, _HOME)
