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

SCHEMA_VERSION = 8
# The stored fields of each memory, with their SQL types (the `docs` table).
STORED_TYPES = {"path": "TEXT", "id": "TEXT", "title": "TEXT", "type": "TEXT",
                "status": "TEXT", "expires": "TEXT", "recency": "TEXT"}  # fmt: skip
STORED = tuple(STORED_TYPES)
# The analyzed columns of the full-text table, with their BM25 weights.
COLUMN_WEIGHTS = {"title": 3.0, "tags": 2.0, "paths": 2.0, "links": 2.0, "body": 1.0}
COLUMNS = tuple(COLUMN_WEIGHTS)
WEIGHTS = tuple(COLUMN_WEIGHTS.values())


def terms(text: str) -> str:
    """`text` as the index stores it: its analyzed terms, separated by spaces."""
    return " ".join(analyze(text))


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
        f" {tags} ",
        terms(mem.title),
        tags,
        terms(" ".join(mem.paths)),
        terms(" ".join(mem.links)),
        terms(mem.body),
    )
