"""What a commit's staged code changes mean for the memories that describe it: the
report the pre-commit hook prints (and `memkit hooks run stale`).

`affected_memories` lists the memories whose linked files or symbols the staged changes
touch (HEAD -> index), how each link changed; `describe` words it, with what to do.
When no staged name is a linked file (the hook's derived index says so), neither the
store nor the staleness engine is loaded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from memkit.githooks.index import Opener, Stamps, read_index, relevant
from memkit.walk import MEMORY_DIR

TYPE_CHECKING = False  # the git hook imports this module: not even `typing`
if TYPE_CHECKING:
    from memkit.staleness.verdict import LinkStatus
    from memkit.store import Store

HOW = {
    "docs": "docstring or comments changed",
    "body": "body changed",
    "signature": "signature changed",
    "changed": "file changed",
    "value": "value changed",
    "version": "major version changed",
    "added": "now a dependency",
    "removed": "removed",
    "unverified": "changed (the memory was never verified)",
}


@dataclass(frozen=True)
class Affected:
    """A memory whose linked code the commit changes, and how each link changed."""

    id: str
    title: str
    path: str
    links: tuple[LinkStatus, ...]

    @property
    def stale(self) -> bool:
        return any(link.stale for link in self.links)


def _staged_statuses(store: Store, touched: set[str]) -> list[tuple[str, LinkStatus]]:
    """check_staged, or its equivalent when git committed from a temporary index.

    `git commit -a` and `git commit FILE` stage into a temporary index file (named by
    GIT_INDEX_FILE in the hook's environment) that libgit2 does not read. Both commit
    the work tree's version of the staged files, so then the work tree is compared with
    HEAD, keeping only the links in files this commit stages.
    """
    from memkit.staleness import check_range, check_staged

    index = os.environ.get("GIT_INDEX_FILE")
    if not index or os.path.basename(index) == "index":
        return check_staged(store)
    return [
        (status.id, link)
        for status in check_range(store, "HEAD", None)
        for link in status.links
        if relevant(sorted(touched), [link.link.partition("::")[0]])
    ]


def affected_memories(names: list[str], stamps: Stamps, opener: Opener) -> list[Affected]:
    """Memories whose linked files or symbols the staged changes touch (HEAD -> index).

    `names` are the staged paths: when none is a linked file (the derived index says
    so), neither the store nor the staleness engine is loaded.
    """
    links, _ = read_index(opener.root, stamps, opener)
    touched = relevant(names, links)
    if not [n for n in touched if not n.startswith(MEMORY_DIR + "/")]:
        return []
    store = opener()
    by_id: dict[str, list[LinkStatus]] = {}
    for mid, status in _staged_statuses(store, set(touched)):
        if status.state != "unchanged":
            by_id.setdefault(mid, []).append(status)
    out = []
    for mid in sorted(by_id):
        mem = store.get(mid)
        links_of = tuple(sorted(by_id[mid], key=lambda s: s.link))
        out.append(Affected(mid, mem.title, mem.path, links_of))
    return out


def describe(affected: list[Affected]) -> list[str]:
    """The report on the memories a commit affects: how each link changed, what to do."""
    if not affected:
        return []
    from memkit.staleness.verdict import advice

    n = len(affected)
    what = "1 memory describes" if n == 1 else f"{n} memories describe"
    lines = [f"memkit: this commit changes code that {what}:"]
    for a in affected:
        lines.append(f"  {a.id}: {a.title} ({a.path})")
        for link in a.links:
            how = f"moved to {link.moved_to}" if link.moved_to else HOW.get(link.state, link.state)
            lines.append(f"    {link.link}: {how}")
        fix = advice(a.id, a.links)
        lines.append(f"    -> still true? `{fix}`; if not, `memkit edit {a.id}`")
    return lines
