from __future__ import annotations

from memkit.search import search
from memkit.store import Store
from tests.search.helpers import GATEWAY, TODAY, mem


def test_snippet_marks_terms_around_the_first_match(store: Store) -> None:
    mem(store, "gw", "Payment gateway", GATEWAY, type="gotcha")
    [hit] = search(store, "retries", today=TODAY)
    rec = hit.to_record()
    assert rec["snippet"].startswith("...")
    assert "on a **retry**, so max_**retry** stays at 3." in rec["snippet"]
