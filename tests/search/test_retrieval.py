"""Retrieval quality on a realistic store: questions worded unlike the memories they need."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

from memkit.search import search
from memkit.store import Store

DATA = Path(__file__).parents[1] / "data" / "retrieval"
TODAY = dt.date(2026, 11, 22)


def evaluate(store: Store) -> tuple[float, float, list[str]]:
    """(recall@5, mean reciprocal rank over the top 10, the queries that missed)."""
    cases = json.loads((DATA / "queries.json").read_text("utf-8"))
    found = rr = 0.0
    misses = []
    for case in cases:
        ids = [h.id for h in search(store, case["query"], today=TODAY, limit=10)]
        expected = set(case["expected"])
        ranks = [i for i, mid in enumerate(ids, 1) if mid in expected]
        found += len(expected & set(ids[:5])) / len(expected)
        rr += 1 / ranks[0] if ranks else 0.0
        if not ranks or ranks[0] > 1:
            misses.append(f"{case['query']!r}: {case['expected']} ranked {ranks} in {ids[:5]}")
    return found / len(cases), rr / len(cases), misses


def test_retrieval_quality(store: Store) -> None:
    for f in sorted((DATA / "memories").glob("*.md")):
        shutil.copy(f, store.dir / f.name)
    assert len(store.files()) >= 60
    assert len(json.loads((DATA / "queries.json").read_text("utf-8"))) >= 30
    recall, mrr, misses = evaluate(store)
    print(f"recall@5={recall:.3f} MRR={mrr:.3f}", *misses, sep="\n")
    assert recall >= 0.9, misses
    assert mrr >= 0.75, misses
