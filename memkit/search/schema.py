"""What the search index holds for each memory: stored fields and analyzed columns.

Free words search every column, weighted for BM25 (WEIGHTS: the title three times,
tags, paths and links twice, the body once); field queries search one column
(`title:`, `tag:`, `path:`, `link:`) or an exact stored value (`id:`, `type:`,
`status:`); the stored fields come back with each hit. SCHEMA_VERSION is recorded in
the index: bump it when the schema or the analysis changes, and every index is rebuilt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memkit.search.analysis import analyze

if TYPE_CHECKING:
    from memkit.memory import Memory

SCHEMA_VERSION = 9
# The stored fields of each memory, with their SQL types (the `docs` table). `review` and
# `linkstate` let search tell a memory's staleness state without reading it
# (memkit.search.rank.index_state).
STORED_TYPES = {"path": "TEXT", "id": "TEXT", "title": "TEXT", "type": "TEXT",
                "status": "TEXT", "expires": "TEXT", "recency": "TEXT", "review": "TEXT",
                "linkstate": "TEXT"}  # fmt: skip
STORED = tuple(STORED_TYPES)
# The analyzed columns of the full-text table, with their BM25 weights.
COLUMN_WEIGHTS = {"title": 3.0, "tags": 2.0, "paths": 2.0, "links": 2.0, "body": 1.0}
COLUMNS = tuple(COLUMN_WEIGHTS)
WEIGHTS = tuple(COLUMN_WEIGHTS.values())


def terms(text: str) -> str:
    """`text` as the index stores it: its analyzed terms, separated by spaces."""
    return " ".join(analyze(text))


def linkstate(mem: Memory) -> str:
    """What the staleness engine needs to judge `mem`'s links: "" (it has none),
    "unverified" (none has a recorded fingerprint, so each is unverified) or "recorded"
    (at least one has: only the engine can tell whether its code changed)."""
    if not mem.links:
        return ""
    recorded = mem.verified.fingerprints if mem.verified is not None else {}
    return "recorded" if any(recorded.get(link) is not None for link in mem.links) else "unverified"


def row(mem: Memory) -> tuple[Any, ...]:
    """One memory's index row: STORED fields, its tag terms, then the COLUMNS' texts."""
    recency = mem.updated or mem.created
    tags = terms(" ".join(mem.tags))
    return (
        mem.path,
        mem.id,
        mem.title,
        mem.type,
        mem.status,
        mem.expires.isoformat() if mem.expires else "",
        recency.isoformat() if recency else "",
        mem.review_after.isoformat() if mem.review_after else "",
        linkstate(mem),
        f" {tags} ",
        terms(mem.title),
        tags,
        terms(" ".join(mem.paths)),
        terms(" ".join(mem.links)),
        terms(mem.body),
    )
