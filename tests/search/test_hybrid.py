"""Hybrid search (memkit.search.fuse, and vectors): keyword and semantic hits fused, on a
stub embedder.

The stub maps words to a few fixed "concepts" (and any other word to a hashed
dimension), so a paraphrase sharing no word with a memory still lands near it:
the ranking logic is tested without the model.
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Sequence
from typing import Any

import pytest

import memkit.search as fusion
from memkit.search import Index, embed, fuse, search
from memkit.search.vectors import Vectors
from memkit.staleness.verdict import MemoryStatus
from memkit.store import Store
from tests.search.helpers import TODAY, mem

np = pytest.importorskip("numpy")

CONCEPTS = {
    "orm": 0, "mapper": 0, "sqlalchemy": 0, "raw": 0, "sql": 0, "asyncpg": 0, "query": 0,
    "queries": 0,
    "slow": 1, "latency": 1, "sluggish": 1, "performance": 1,
    "login": 2, "signin": 2, "password": 2, "credentials": 2,
}  # fmt: skip
DIM = 16


class Stub:
    name = "stub-1"
    dim = DIM

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> Any:
        self.embedded += texts
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().replace(".", " ").split():
                dim = CONCEPTS.get(word, 3 + zlib.crc32(word.encode()) % (DIM - 3))
                out[i, dim] += 1.0 if word in CONCEPTS else 0.2
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def doc(path: str) -> dict[str, Any]:
    return {"path": path, "id": path, "score": 1.0}


def test_fuse_ranks_what_both_lists_agree_on_first_then_neighbours() -> None:
    keyword = [doc("a"), doc("b"), doc("c")]
    semantic = [("c", 0.9), ("d", 0.8), ("a", 0.05)]
    fields = {p: doc(p) for p in "acd"}
    got = [d["path"] for d in fuse(keyword, semantic, fields)]
    # c in both; d a close neighbour above keyword-only a and b; a's weak one not counted
    assert got == ["c", "d", "a", "b"]
    scores = [d["score"] for d in fuse(keyword, semantic, fields)]
    assert scores[0] > scores[1] > scores[2] > scores[3]
    assert scores[2] == pytest.approx(fusion.KEYWORD_WEIGHT)


def test_fuse_keeps_out_what_the_filters_drop_and_breaks_ties_by_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    got = fuse([], [("z", 0.9), ("y", 0.8), ("x", 0.7)], {"z": doc("z"), "x": doc("x")})
    assert [d["path"] for d in got] == ["z", "x"]
    monkeypatch.setattr(fusion, "KEYWORD_WEIGHT", fusion.SEMANTIC_WEIGHT)
    tie = fuse([doc("b")], [("a", 0.9)], {"a": doc("a")})
    assert [d["path"] for d in tie] == ["a", "b"]
    assert tie[0]["score"] == tie[1]["score"] == pytest.approx(1.0)


def seed(store: Store) -> None:
    mem(store, "raw-sql", "Data layer uses raw SQL with asyncpg", "No ORM: queries are plain.")
    mem(store, "cache", "Cache keys carry the tenant", "Tenant first.", type="convention")
    mem(
        store, "throttle", "Sign-in is throttled", "Five failed credentials lock it.", type="gotcha"
    )


def hybrid(store: Store, text: str, stub: Stub, **options: Any) -> list[str]:
    hits = search(store, text, today=TODAY, semantic=stub, **options)
    return [h.id for h in hits]


def test_a_paraphrase_is_found_by_meaning_only_with_the_semantic_layer(store: Store) -> None:
    seed(store)
    stub = Stub()
    assert [h.id for h in search(store, "which object mapper", today=TODAY)] == []
    assert hybrid(store, "which object mapper", stub) == ["raw-sql"]
    assert hybrid(store, "cache tenant", stub)[0] == "cache"  # words still rank
    assert hybrid(store, "password login", stub, types=["convention"]) == []  # filters hold
    assert hybrid(store, "password login", stub) == ["throttle"]


def test_stale_memories_are_still_demoted_in_hybrid_ranking(store: Store) -> None:
    seed(store)
    mem(store, "orm-old", "ORM sessions per request", "sqlalchemy orm query")
    stale = {"orm-old": MemoryStatus("orm-old", "stale", ())}
    fresh = hybrid(store, "sqlalchemy orm query", Stub())
    assert fresh[0] == "orm-old"
    demoted = search(store, "sqlalchemy orm query", today=TODAY, semantic=Stub(), statuses=stale)
    assert demoted[0].id == "raw-sql"
    assert {h.id: h.state for h in demoted}["orm-old"] == "stale"


def test_vectors_are_embedded_once_and_updated_for_what_changed(store: Store) -> None:
    seed(store)
    index = Index(store)
    index.refresh()
    stub = Stub()
    vectors = Vectors(index, stub).refresh(index.files)
    assert vectors.paths == sorted(index.files) and len(stub.embedded) == 3
    Vectors(index, stub).refresh(index.files)
    assert len(stub.embedded) == 3  # nothing changed: nothing embedded
    mem(store, "cache", "Cache keys carry the region", "Region first, then tenant.")
    (store.dir / "throttle.md").unlink()
    index.refresh()
    again = Vectors(index, stub).refresh(index.files)
    assert len(stub.embedded) == 4 and "Region first" in stub.embedded[-1]
    assert again.paths == [".memory/cache.md", ".memory/raw-sql.md"]
    other = Stub()
    other.name = "stub-2"  # another model: every memory embedded again
    Vectors(index, other).refresh(index.files)
    assert len(other.embedded) == 2


def test_unreadable_vectors_are_rebuilt(store: Store) -> None:
    seed(store)
    index = Index(store)
    index.refresh()
    Vectors(index, Stub()).refresh(index.files)
    (index.dir / "vectors.npy").write_bytes(b"not numpy")
    stub = Stub()
    assert len(Vectors(index, stub).refresh(index.files).paths) == 3
    assert len(stub.embedded) == 3


def test_searches_in_one_process_keep_the_vectors_until_a_memory_changes(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(store)
    old = time.time() - 5  # older than the racy window, however fast the looks come
    for path in [*store.dir.rglob("*"), store.dir]:
        os.utime(path, (old, old))
    stub = Stub()
    for _ in range(2):  # the first look builds the index, the second keeps the vectors
        assert hybrid(store, "which object mapper", stub) == ["raw-sql"]
    loads: list[object] = []
    real_load = embed.load
    monkeypatch.setattr(embed, "load", lambda path: loads.append(path) or real_load(path))
    assert hybrid(store, "which object mapper", stub) == ["raw-sql"]
    assert loads == []  # nothing read again: the vectors were kept
    mem(store, "pool", "Connection pool", "The mapper of tenants is sluggish.")
    assert hybrid(store, "sluggish mapper", stub)[0] == "pool"  # the new memory is seen
    assert "The mapper of tenants" in stub.embedded[-2]
