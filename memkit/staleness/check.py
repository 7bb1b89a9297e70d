"""Memory-level checks: the whole store, the staged changes, a range of revisions."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from memkit import git
from memkit.gcpause import paused
from memkit.staleness.linkcache import LinkCache
from memkit.staleness.verdict import LinkStatus, MemoryStatus

if TYPE_CHECKING:  # the engine loads only when a link is not answered from the cache
    from memkit.git import TreeChanges
    from memkit.memory import Memory
    from memkit.staleness.engine import Evaluator
    from memkit.staleness.printcache import PrintCache
    from memkit.staleness.snapshot import Snapshot
    from memkit.store import Store


def select(store: Store, ids: Iterable[str] | None) -> list[Memory]:
    """The memories named by `ids` (all when None), sorted by id; unknown ids are errors."""
    if ids is None:
        return store.memories()
    return store.get_many(ids)


def memory_state(mem: Memory, links: tuple[LinkStatus, ...], today: dt.date) -> str:
    if mem.expired(today):
        return "expired"
    if any(link.stale for link in links):
        return "stale"
    if any(link.state == "unverified" for link in links):
        return "unverified"
    if mem.review_due(today):
        return "review-due"
    return "fresh"


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
    mems = list(memories) if memories is not None else select(store, ids)
    verified = any(m.links and m.verified for m in mems)
    known = LinkCache.open(store) if verified else None
    states = _evaluators(store)
    out = []
    for mem in mems:
        v = mem.verified
        commit = v.commit if v is not None else None
        recorded = v.fingerprints if v is not None else None
        links = []
        for text in mem.links:
            was = None if recorded is None else recorded.get(text)
            if was is None:  # no fingerprint to compare: the engine is not needed
                links.append(LinkStatus(text, "unverified", None, commit))
                continue
            status = known.get(text, was, commit) if known else None
            if status is None:
                status = states(commit).state(text, was, commit)
                if known is not None:
                    known.put(status, was, commit)
            links.append(status)
        active = mem.status == "active" and mem.revises is None
        out.append(
            MemoryStatus(mem.id, memory_state(mem, tuple(links), today), tuple(links), active)
        )
    if known is not None:
        known.save()
    return out


def _evaluators(store: Store) -> Callable[[str | None], Evaluator]:
    """One Evaluator per recorded commit, made when first needed: a check answered from
    the link cache opens no repository (only links with a recorded fingerprint are
    compared with the code, and opening a repository costs ~100 ms)."""

    @functools.cache
    def snapshot() -> Snapshot:
        from memkit.staleness.snapshot import WORKTREE, Snapshot

        return Snapshot(store.root, git.find_repo(store.root), WORKTREE)

    @functools.cache
    def local() -> TreeChanges:  # HEAD -> work tree, computed once, composed per commit
        from memkit.git import local_changes

        return local_changes(snapshot().repo)

    @functools.cache
    def evaluator(commit: str | None) -> Evaluator:
        from memkit.git import changes_since, missing_commit
        from memkit.staleness.engine import Evaluator

        repo = snapshot().repo
        changes = gap = None
        if repo is not None and commit is not None:
            if not repo.head_is_unborn:
                changes = changes_since(repo, commit, local())
            if changes is None:
                gap = missing_commit(repo, commit)
        return Evaluator(snapshot(), changes, gap)

    return evaluator


@paused()
def check_staged(store: Store) -> list[tuple[str, LinkStatus]]:
    """How the staged changes (HEAD -> index) change each linked file or symbol they touch."""
    from memkit.git import staged_changes
    from memkit.staleness.snapshot import INDEX

    repo = git.find_repo(store.root)
    if repo is None or repo.head_is_unborn:
        return []
    compare = Comparison(store, repo, staged_changes(repo), "HEAD", INDEX)
    out: list[tuple[str, LinkStatus]] = []
    for mem in store.memories():
        since = mem.verified.commit if mem.verified else None
        out += [(mem.id, s) for s in compare(mem.links, since) if s.state != "unchanged"]
    return out


@paused()
def check_range(
    store: Store, base: str, head: str | None, *, memories: Sequence[Memory] | None = None
) -> list[MemoryStatus]:
    """Memories made stale by code changed from `base` to `head` (None: the work tree).
    `memories`: the store's memories, already loaded (else they are loaded here).

    A link counts when its code differs between the two revisions, unless the
    memory was re-verified against the newer code (its recorded fingerprint matches).
    A memory with a link whose code this clone cannot read (a partial clone that could
    not fetch it, a shallow one without the history) comes as `unverified`, the link
    with its reason.
    """
    from memkit.git import range_changes
    from memkit.staleness.engine import current_print

    mems = [m for m in (store.memories() if memories is None else memories) if m.links]
    repo = git.find_repo(store.root) if mems else None  # no links: nothing to diff
    if repo is None:
        return []
    from memkit.staleness.printcache import PrintCache

    prints = PrintCache.of(store)
    # git's rename detection matters only to memories compared the slow way; without
    # it the range touches the same paths (a superset for anchors reading any source)
    quick = head is not None
    changes = range_changes(repo, base, head, renames=not quick)
    compare = Comparison(store, repo, changes, base, head, prints)
    newer = compare.evaluator.snap
    out = []
    for mem in mems:
        since = mem.verified.commit if mem.verified else None
        recorded = dict(mem.verified.fingerprints) if mem.verified else {}
        if _reverified(compare, recorded, mem.links):
            continue
        if quick:
            compare.changes = compare.evaluator.changes = range_changes(repo, base, head)
            quick = False
        links = tuple(
            status
            if not status.stale or recorded.get(status.link) != current_print(newer, status.link)
            else LinkStatus(status.link, "unchanged", None, since)
            for status in compare(mem.links, since)
        )
        if any(link.stale for link in links):
            out.append(MemoryStatus(mem.id, "stale", links))
        elif any(link.state == "unverified" and link.reason for link in links):
            out.append(MemoryStatus(mem.id, "unverified", links))  # history this clone lacks
    prints.save()
    return out


def _reverified(compare: Comparison, recorded: dict[str, str], links: Iterable[str]) -> bool:
    """Whether every link the range touches is recorded as it is at the newer revision.

    Then no link of the memory can stay stale (check_range turns a stale link whose
    recorded print is the newer one into `unchanged`), so the older revision need not
    be read: a store verified against the newer code skips parsing the older one.
    """
    from memkit.staleness.engine import current_print, touched

    newer = compare.evaluator.snap
    for text in touched(compare.changes, compare.old, links):
        was = recorded.get(text)
        if was is None or was != current_print(newer, text):
            return False
    return True


class Comparison:
    """States of the touched links between two revisions; each file read and parsed once."""

    def __init__(
        self,
        store: Store,
        repo: Any,
        changes: TreeChanges,
        old_rev: str,
        new_rev: str | None,
        prints: PrintCache | None = None,
    ) -> None:
        from memkit.staleness.engine import Evaluator
        from memkit.staleness.snapshot import Snapshot

        self.changes = changes
        self.old = Snapshot(store.root, repo, old_rev, prints)
        self.evaluator = Evaluator(Snapshot(store.root, repo, new_rev, prints), changes)

    def __call__(self, links: Iterable[str], since: str | None) -> list[LinkStatus]:
        from memkit.staleness.engine import current_print, touched
        from memkit.staleness.links import Link

        out = []
        for text in touched(self.changes, self.old, links):
            before = current_print(self.old, text)
            if before is not None:
                out.append(self.evaluator.state(text, before, since))
            elif why := self.old.missing.get(Link.parse(text).path):
                how = f"memkit cannot tell how {text} changed since {str(self.old.rev)[:12]}: {why}"
                out.append(LinkStatus(text, "unverified", None, since, reason=how))
        return out
