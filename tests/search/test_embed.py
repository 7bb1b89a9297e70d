"""memkit.search.embed: the shipped model (skipped without memkit[semantic]), and the
clear error `search --semantic` gives when the extra is not installed."""

from __future__ import annotations

import importlib.util

import pytest

from memkit.search import embed
from memkit.store import Store
from tests.conftest import Invoke
from tests.search.helpers import mem

needs_extra = pytest.mark.skipif(not embed.available(), reason="memkit[semantic] not installed")


def test_without_the_extra_semantic_search_is_a_clear_error(
    store: Store, run: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem(store, "a", "Cache keys carry the tenant", "cache")
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "wordllama" else real(n, *a)
    )
    embed.default_embedder.cache_clear()
    out = run("search", "--semantic", "cache", code=2)
    assert "semantic search is not installed; install the `semantic` extra: pip install" in (
        out.stderr
    )
    assert "agent-memkit" not in out.stderr  # not on the package index yet
    assert "Traceback" not in out.output
    assert run("search", "cache").stdout.startswith("a  ")  # words alone still work
    embed.default_embedder.cache_clear()


@needs_extra
def test_the_shipped_model_embeds_offline_and_close_meanings_score_higher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = embed.WordLlamaEmbedder()
    vecs = model.embed(
        [
            "why can't I use SQLAlchemy here",
            "the data layer uses raw SQL with asyncpg",
            "the cat sat on the mat",
            "",
        ]
    )
    assert vecs.shape == (4, model.dim) == (4, 256)
    sims = vecs @ vecs[0]
    assert sims[1] > sims[2] + 0.1
    assert abs(float(sims[0]) - 1.0) < 1e-5 and float(abs(vecs[3]).sum()) == 0.0


@needs_extra
def test_search_semantic_through_the_command_line(store: Store, run: Invoke) -> None:
    mem(store, "raw-sql", "Data layer uses raw SQL with asyncpg", "No ORM in this service.")
    mem(store, "cats", "Cats sleep on mats", "Felines nap.")
    assert run("search", "database access library").stdout == ""  # no word in common
    out = run("search", "--semantic", "--json", "database access library")
    assert '"id": "raw-sql"' in out.stdout.split("}")[0]
    last = run("index", "--semantic").stdout.splitlines()[-1]
    assert last == "vectors: 2 memories (wordllama-l2-supercat-256)"


def test_top_similar_orders_by_similarity_then_row() -> None:
    np = pytest.importorskip("numpy")
    matrix = np.array([[1, 0], [0, 1], [1, 0], [0.6, 0.8]], dtype=np.float16)
    got = embed.top_similar(matrix, np.array([1.0, 0.0]), 3)
    assert [i for i, _ in got] == [0, 2, 3]
    assert embed.top_similar(matrix[:0], np.array([1.0, 0.0]), 3) == []
