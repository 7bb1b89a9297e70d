"""Full-text search over memories: search() and where each part of it lives.

- analysis.py: text to index terms (identifiers split, stop words, stems, synonyms).
- folding.py: text that is not ASCII for analysis (accents, unspaced runs).
- schema.py: what the index holds for each memory.
- query.py: the query syntax, parsed into FTS5 expressions (Query); type/tag/status filters.
- fts.py: the keyword engine, an SQLite FTS5 table (standard library).
- index.py: Index, the store's index: kept fresh, written under a lock, read.
- rank.py: Hit; staleness_checker; stale memories demoted, ties by recency then id; the
  text shown under each hit.
- embed.py, vectors.py: the semantic model and the store's vectors; fuse() below.
- context.py: the memories for the files an agent is about to touch (build_context).

Query syntax: words (any of them, ranked by BM25 with the title boosted), "quoted
phrases" and field:value (both required), -word (excluded). Fields: id, title, body,
tag, type, status, path, link.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

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

# Hybrid ranking: keyword hits (BM25F) and semantic neighbours fused by reciprocal rank.
# Reciprocal rank needs no calibration between BM25 scores and cosine similarities, and
# a memory both lists agree on rises above one only one of them finds.
RRF_K = 60
# Tuned on the train half of benchmarks/recall_sets.py: on questions worded unlike the
# memory, keyword hits are mostly wrong, and at equal weight they pushed the right
# neighbour out of the top five; a third of the weight keeps a literal match on top
# (search_eval.py's literal queries) without burying the neighbours.
KEYWORD_WEIGHT, SEMANTIC_WEIGHT = 0.3, 1.0
# Every memory has some nearest neighbour, even for a query about nothing in the store:
# neighbours less similar than this are not counted.
MIN_SIMILARITY = 0.1


def fuse(
    keyword: Sequence[dict[str, Any]],
    semantic: Sequence[tuple[str, float]],
    fields: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    """Documents ranked by fused score (`score`), best first; ties by path.

    `keyword` are index documents in BM25 order; `semantic` (path, similarity) in
    similarity order; `fields` the stored fields of semantic paths that pass the
    search's filters (a path missing from it is left out). A memory's fused score is
    the sum over the lists of weight / (RRF_K + rank), scaled so the best possible
    score is about its list's weight.
    """
    scores: dict[str, float] = {}
    docs: dict[str, dict[str, Any]] = {}
    for rank, d in enumerate(keyword):
        docs[d["path"]] = d
        scores[d["path"]] = KEYWORD_WEIGHT * (RRF_K + 1) / (RRF_K + 1 + rank)
    rank = 0
    for path, sim in semantic:
        if sim < MIN_SIMILARITY or (path not in fields and path not in docs):
            continue
        docs.setdefault(path, fields.get(path, {}))
        scores[path] = scores.get(path, 0.0) + SEMANTIC_WEIGHT * (RRF_K + 1) / (RRF_K + 1 + rank)
        rank += 1
    order = sorted(scores, key=lambda p: (-round(scores[p], 9), p))
    return [{**docs[p], "score": scores[p]} for p in order]


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
    memories nearest in meaning, fused with the keyword hits (fuse).
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
        from memkit.search.vectors import current

        near = current(index, semantic).nearest(text, limit * 2 + 20)
        docs = fuse(docs, near, index.documents([p for p, _ in near], filter=filt, mask=mask))
    if not include_all:  # an expired memory is kept when expired ones are wanted
        iso = today.isoformat()
        expired = "expired" in wanted
        docs = [
            d
            for d in docs
            if (expired if d["expires"] and d["expires"] < iso else d["status"] in wanted)
        ]
    return rank(store, docs, query, today=today, limit=limit, statuses=statuses)
