"""Hybrid ranking: keyword hits (BM25F) and semantic neighbours fused by reciprocal rank.

Each list ranks memories its own way; a memory's fused score is the sum over the
lists of weight / (RRF_K + rank), scaled so the best possible score is about
its list's weight. Reciprocal rank needs no calibration between BM25 scores and
cosine similarities, and a memory both lists agree on rises above one only one of
them finds. Semantic neighbours below MIN_SIMILARITY are not counted (every memory has
some nearest neighbour, even for a query about nothing in the store).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memkit.search.embed import Embedder
    from memkit.search.index import Index

RRF_K = 60
# Tuned on the train half of benchmarks/recall_sets.py: on questions worded unlike the
# memory, keyword hits are mostly wrong, and at equal weight they pushed the right
# neighbour out of the top five; a third of the weight keeps a literal match on top
# (search_eval.py's literal queries) without burying the neighbours.
KEYWORD_WEIGHT, SEMANTIC_WEIGHT = 0.3, 1.0
MIN_SIMILARITY = 0.1


def fuse(
    keyword: Sequence[dict[str, Any]],
    semantic: Sequence[tuple[str, float]],
    fields: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    """Documents ranked by fused score (`score`), best first; ties by path.

    `keyword` are index documents in BM25 order; `semantic` (path, similarity) in
    similarity order; `fields` the stored fields of semantic paths that pass the
    search's filters (a path missing from it is left out).
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


def hybrid_documents(
    index: Index,
    text: str,
    keyword: list[dict[str, Any]],
    embedder: Embedder,
    *,
    limit: int,
    filter: Any = None,
    mask: Any = None,
) -> list[dict[str, Any]]:
    """`keyword` fused with the memories nearest to `text` in meaning (see fuse)."""
    from memkit.search.vectors import current

    near = current(index, embedder).nearest(text, limit)
    fields = index.documents([p for p, _ in near], filter=filter, mask=mask)
    return fuse(keyword, near, fields)
