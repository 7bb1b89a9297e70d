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


def test_snippet_marks_an_unspaced_run_and_a_folded_word_whole(store: Store) -> None:
    from memkit.search import search
    from tests.search.helpers import TODAY, mem

    mem(store, "ja", "メモ", "これは日本語のメモです。")
    mem(store, "fr", "Notes", "Un café noir.")
    assert search(store, "日本語", today=TODAY)[0].snippet == "これは**日本語**のメモです。"
    assert search(store, "cafe", today=TODAY)[0].snippet == "Un **café** noir."
