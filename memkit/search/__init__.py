"""Full-text search over memories: search() and where each part of it lives.

- analysis.py: text to index terms (identifiers split, stop words, stems, synonyms).
- folding.py: text that is not ASCII for analysis (accents, unspaced runs).
- schema.py: what the index holds for each memory.
- query.py: the query syntax, parsed into FTS5 expressions (Query); type/tag/status filters.
- fts.py: the keyword engine, an SQLite FTS5 table (standard library).
- index.py: Index, the store's index: kept fresh, written under a lock, read.
- rank.py: Hit; staleness_checker; stale memories demoted, ties by recency then id; the
  text shown under each hit.
- context.py: the memories for the files an agent is about to touch (build_context).

Query syntax: words (any of them, ranked by BM25 with the title boosted), "quoted
phrases" and field:value (both required), -word (excluded). Fields: id, title, body,
tag, type, status, path, link.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memkit.choices import SEARCH_STATUSES
from memkit.errors import MemkitError
from memkit.lazy import attach
from memkit.search.rank import Hit, StatusSource, staleness_checker

if TYPE_CHECKING:
    from memkit.search.analysis import analyze
    from memkit.search.embed import Embedder
    from memkit.search.index import Index
    from memkit.search.query import Query, parse_query
    from memkit.store import Store

__all__ = [
    "Hit",
    "Index",
    "Query",
    "StatusSource",
    "analyze",
    "parse_query",
    "search",
    "staleness_checker",
]

# Imported on first use: `memkit context --file` needs no index.
_LAZY = {
    "analyze": "memkit.search.analysis",
    "Index": "memkit.search.index",
    "Query": "memkit.search.query",
    "parse_query": "memkit.search.query",
}


__getattr__ = attach(__name__, _LAZY)


def search(
    store: Store,
    text: str,
    *,
    today: dt.date,
    limit: int = 10,
    types: Sequence[str] = (),
    tags: Sequence[str] = (),
    status: Sequence[str] = (),
    include_all: bool = False,
    statuses: StatusSource | None = None,
    semantic: Embedder | None = None,
) -> list[Hit]:
    """The best `limit` memories for `text`, stale ones demoted, ties by recency then id.

    By default only active, unexpired memories; `status` picks states (expired
    included), `include_all` takes every memory. `statuses` is the staleness
    engine's verdict, or a function that computes it for the ids it is given.
    `semantic` (memkit.search.embed.default_embedder() or a test's own) adds the
    memories nearest in meaning, fused with the keyword hits (memkit.search.hybrid).
    """
    from memkit.search.index import Index
    from memkit.search.query import filters, parse_query
    from memkit.search.rank import rank

    bad = sorted(set(status) - set(SEARCH_STATUSES))
    if bad:
        raise MemkitError(f"unknown status {bad[0]!r}; use one of: {', '.join(SEARCH_STATUSES)}")
    query = parse_query(text)
    if query is None or limit <= 0:
        return []
    index = Index(store)
    index.refresh()
    wanted = set(status) or {"active"}
    if "status" in query.fields and not status:  # `status:draft` asks for drafts
        wanted = set(SEARCH_STATUSES) - {"expired"}
    filt, mask = filters(types, tags, wanted, include_all)
    docs = index.top_documents(query, limit=limit * 2 + 20, filter=filt, mask=mask)
    if semantic is not None:
        from memkit.search.hybrid import hybrid_documents

        docs = hybrid_documents(
            index, text, docs, semantic, limit=limit * 2 + 20, filter=filt, mask=mask
        )
    if not include_all:  # an expired memory is kept when expired ones are wanted
        iso = today.isoformat()
        expired = "expired" in wanted
        docs = [
            d
            for d in docs
            if (expired if d["expires"] and d["expires"] < iso else d["status"] in wanted)
        ]
    return rank(store, docs, query, today=today, limit=limit, statuses=statuses)
