"""memkit.search.search, in memkit/search/__init__.py: which memories a search may return."""

from __future__ import annotations

import pytest

from memkit.search import search
from memkit.store import Store
from tests.search.helpers import TODAY, ids, mem


def test_states_filtered_unless_asked(store: Store) -> None:
    mem(store, "live", "Cache keys carry the tenant", "cache")
    mem(store, "draft", "Cache draft", "cache", status="draft")
    mem(store, "old", "Cache archive", "cache", status="archived")
    mem(store, "gone", "Cache expired", "cache", expires="2026-01-01")
    assert ids(store, "cache") == ["live"]
    assert sorted(ids(store, "cache", include_all=True)) == ["draft", "gone", "live", "old"]
    assert ids(store, "cache", status=["draft", "archived"]) == ["draft", "old"]
    assert ids(store, "cache", status=["expired"]) == ["gone"]
    assert ids(store, "cache status:draft") == ["draft"]
    states = {h.id: h.state for h in search(store, "cache", today=TODAY, include_all=True)}
    assert states == {"live": "active", "draft": "draft", "old": "archived", "gone": "expired"}
    assert ids(store, "cache", types=["gotcha"]) == []
    with pytest.raises(Exception, match="unknown status 'nope'"):
        ids(store, "cache", status=["nope"])
