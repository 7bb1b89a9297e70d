"""What the report shows, gathered from the core: memories, verdicts, history, reach, review.

`collect` reads the store once, asks the staleness engine for every memory's verdict,
walks the store's git history once (not once per memory), plans the compiled files to
tell which agents' files each memory reaches, and, given a base, runs the pull-request
review. Everything here is plain frozen data; memkit.report.page turns it into HTML.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memkit import git
from memkit.errors import MemkitError
from memkit.history.diff import Review
from memkit.history.provenance import LogEntry
from memkit.memory import STATUSES, TYPES, Memory
from memkit.report.codediff import CodeChange
from memkit.staleness.verdict import MEMORY_STATES, MemoryStatus
from memkit.store import Loaded, Store

HISTORY_COMMITS = 2000  # commits that touched memories, walked once for every memory's history
# How a compiled file carries a memory, best first: in full, shortened to a line, or cut.
REACH = ("full", "shortened", "cut")
# Worst first: what colours a folder of the code map when its memories disagree.
SEVERITY = ("stale", "expired", "unverified", "draft", "review-due", "fresh")
WILDCARDS = frozenset("*?[{")


@dataclass(frozen=True)
class Reach:
    """How one compiled file carries a memory: in full, shortened to a line, or cut."""

    path: str
    target: str
    how: str


@dataclass(frozen=True)
class Entry:
    memory: Memory
    status: MemoryStatus
    history: tuple[LogEntry, ...] = ()
    reach: tuple[Reach, ...] = ()
    changes: tuple[CodeChange, ...] = ()  # the code changes behind stale links

    @property
    def freshness(self) -> str:
        """The verdict, with drafts told apart: a draft waits for review whatever its links."""
        return "draft" if self.memory.status == "draft" else self.status.state

    @property
    def age(self) -> dt.date:
        m = self.memory
        return m.updated or m.created or dt.date.min


@dataclass(frozen=True)
class Node:
    name: str
    path: str
    glob: bool  # a scope glob rather than a linked file or a folder
    memories: tuple[tuple[str, str], ...]  # (id, freshness) linked or scoped here
    children: tuple[Node, ...] = ()

    @property
    def total(self) -> int:
        """Memories here and below (a memory counts once per place it names)."""
        return len(self.memories) + sum(c.total for c in self.children)

    @property
    def worst(self) -> str:
        states = {f for _, f in self.memories} | {c.worst for c in self.children}
        return next((s for s in SEVERITY if s in states), "fresh")


@dataclass(frozen=True)
class Report:
    root_name: str
    today: dt.date
    head: str | None  # the commit the report describes (None: not in git)
    entries: tuple[Entry, ...]  # sorted by id
    codemap: tuple[Node, ...]
    recent: tuple[LogEntry, ...]  # the latest memory changes, newest first
    review: Review | None = None  # what a pull request does to memory (--base)
    problems: tuple[str, ...] = ()  # files that did not parse, and other notes

    def counts(self, attr: str) -> list[tuple[str, int]]:
        """(value, count) for `type`, `status` or `freshness`, in the vocabulary's order."""
        order: Sequence[str] = {"type": TYPES, "status": STATUSES}.get(
            attr, ("fresh", *MEMORY_STATES[1:], "draft")
        )
        got = Counter(
            e.freshness if attr == "freshness" else getattr(e.memory, attr) for e in self.entries
        )
        return [(k, got[k]) for k in order if got[k]]

    def stale_by_kind(self) -> list[tuple[str, int]]:
        """How the stale links changed: body, signature, moved, removed, changed."""
        got = Counter(link.state for e in self.entries for link in e.status.stale_links())
        return sorted(got.items())

    def queue(self) -> list[Entry]:
        """Drafts and memories needing attention, oldest first."""
        waiting = [e for e in self.entries if e.freshness != "fresh"]
        return sorted(waiting, key=lambda e: (e.age, e.memory.id))

    def tags(self) -> list[tuple[str, int]]:
        return sorted(Counter(t for e in self.entries for t in e.memory.tags).items())


def collect(store: Store, *, today: dt.date, base: str | None = None) -> Report:
    """Everything the report shows, for the store as it is on disk."""
    from memkit.report.codediff import code_changes
    from memkit.staleness import check_store

    store.require()
    loaded = store.load()
    statuses = {s.id: s for s in check_store(store, today=today)}
    memories = sorted(loaded.memories, key=lambda m: m.id)
    repo = git.find_repo(store.root)
    head = git.head_commit(repo) if repo is not None else None
    prefix = git.prefix(repo, store.root) if repo is not None else ""
    history, recent = _history(store) if head else ({}, ())
    reach = _reach(store, today, statuses, loaded)
    entries = tuple(
        Entry(
            m,
            statuses[m.id],
            history.get(m.id, ()),
            reach.get(m.id, ()),
            code_changes(repo, prefix, statuses[m.id]) if repo is not None else (),
        )
        for m in memories
    )
    review = None
    if base is not None:
        from memkit.history.diff import diff_range

        review = diff_range(store, base)
    problems = tuple(str(p) for p in loaded.problems)
    codemap = code_map(entries)
    return Report(store.root.name, today, head, entries, codemap, recent, review, problems)


def code_map(entries: Sequence[Entry]) -> tuple[Node, ...]:
    """The map of the code: the files memories link to and the globs they are scoped to,
    placed in a tree by their folders (a glob under the folders before its first
    wildcard), top-level nodes sorted by name. Each node carries its own memories and
    the worst freshness found anywhere under it, so gaps and hot spots show at a glance."""
    from memkit.staleness.links import Link

    by_path: dict[str, list[tuple[str, str]]] = {}  # path or glob -> [(id, freshness)]
    for e in entries:
        where = {Link.parse(text).path for text in e.memory.links} | set(e.memory.paths)
        for path in sorted(where):
            by_path.setdefault(path, []).append((e.memory.id, e.freshness))
    tree: dict[str, object] = {}
    for path in sorted(by_path):
        parts = _parts(path)
        level = tree
        for folder in parts[:-1]:
            level = level.setdefault(folder + "/", {})  # type: ignore[assignment]
        level[parts[-1]] = path
    return _nodes(tree, "", by_path)


def _parts(path: str) -> list[str]:
    """Folders up to the first wildcard, then the rest as one name."""
    parts = [p for p in path.split("/") if p]
    for i, part in enumerate(parts):
        if WILDCARDS & set(part):
            return [*parts[:i], "/".join(parts[i:])]
    return parts or [path]


def _nodes(
    tree: Mapping[str, object], prefix: str, by_path: Mapping[str, Sequence[tuple[str, str]]]
) -> tuple[Node, ...]:
    out = []
    for name in sorted(tree):
        value = tree[name]
        if isinstance(value, str):
            glob = bool(WILDCARDS & set(value))
            out.append(Node(name, value, glob, tuple(by_path[value])))
        else:
            path = prefix + name
            children = _nodes(value, path, by_path)  # type: ignore[arg-type]
            out.append(Node(name, path, False, (), children))
    return tuple(out)


def _history(store: Store) -> tuple[dict[str, tuple[LogEntry, ...]], tuple[LogEntry, ...]]:
    """Each memory's commits (newest first) from one walk of the store's history."""
    from memkit.history.provenance import store_log

    log = store_log(store, HISTORY_COMMITS)
    out: dict[str, list[LogEntry]] = {}
    for entry in log.entries:
        out.setdefault(entry.id, []).append(entry)
    return {k: tuple(v) for k, v in out.items()}, log.entries[:50]


def _reach(
    store: Store, today: dt.date, statuses: Mapping[str, MemoryStatus], loaded: Loaded
) -> dict[str, tuple[Reach, ...]]:
    """For each memory, the compiled files meant to carry it and how they do.

    The targets say which memories each output holds; what `memkit compile` would
    write says whether one is there in full (its id marker), shortened to a line
    (`memkit show ID`) or cut to fit the file's budget.
    """
    from memkit.compile.plan import build

    try:
        plan = build(store, today=today, statuses=statuses, loaded=loaded)
    except MemkitError:
        return {}  # a bad compile config or template: `memkit compile` says what
    out: dict[str, list[Reach]] = {}
    for placed in plan.placed:  # every output, with what it holds in full, short or cut
        if "import" in placed.context:
            continue  # CLAUDE.md importing AGENTS.md: the memories are AGENTS.md's
        for how, ids in zip(REACH, (placed.full, placed.short, placed.cut), strict=True):
            for mid in ids:
                out.setdefault(mid, []).append(Reach(placed.path, placed.target, how))
    return {k: tuple(sorted(v, key=lambda r: r.path)) for k, v in out.items()}
