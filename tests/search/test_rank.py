from __future__ import annotations

from memkit.search import search
from memkit.staleness.verdict import LinkStatus, MemoryStatus
from memkit.store import Store
from tests.search.helpers import GATEWAY, TODAY, ids, mem


def test_stale_demoted_and_marked_ties_by_recency_then_id(store: Store) -> None:
    for mid, day in (("b", "2026-03-01"), ("a", "2026-03-01"), ("c", "2026-05-01")):
        mem(store, mid, "Retry the webhook", "retry", updated=day)
    assert ids(store, "retry") == ["c", "a", "b"]
    stale = MemoryStatus(
        "c", "stale", (LinkStatus("src/hook.py::send", "signature", None, "0123456789abcdef"),)
    )
    hits = search(
        store, "retry", today=TODAY, statuses={"c": stale, "a": MemoryStatus("a", "fresh")}
    )
    assert [(h.id, h.state, h.stale) for h in hits] == [
        ("a", "fresh", None),
        ("b", "active", None),
        ("c", "stale", "src/hook.py::send (signature since 0123456789ab)"),
    ]
    asked: list[list[str]] = []

    def provider(wanted: list[str]) -> dict[str, MemoryStatus]:
        asked.append(sorted(wanted))
        return {"c": stale}

    assert [h.id for h in search(store, "retry", today=TODAY, statuses=provider)] == ["a", "b", "c"]
    assert asked == [["a", "b", "c"]]


def test_hit_record(store: Store) -> None:
    mem(store, "gw", "Payment gateway", GATEWAY, type="gotcha")
    [hit] = search(store, "retries", today=TODAY)
    rec = hit.to_record()
    assert set(rec) == {"id", "title", "score", "state", "path", "type", "snippet", "stale"}
    assert (rec["id"], rec["path"], rec["type"], rec["state"]) == (
        "gw",
        ".memory/gw.md",
        "gotcha",
        "active",
    )


def test_staleness_checker_is_asked_only_what_the_index_cannot_tell(store: Store) -> None:
    """Without a recorded fingerprint a memory's state comes from the index (no memory is
    read); a memory whose links were fingerprinted still goes to the staleness engine."""
    from memkit.search.rank import Checker

    verified = "{commit: 0a1b2c3d4e5f, date: 2026-01-01, links: {a.py::f: 'sig:b1628d3f'}}"
    mem(store, "plain", "Retry plain", "retry")
    mem(store, "due", "Retry due", "retry", review_after="2026-01-01")
    mem(store, "later", "Retry later", "retry", review_after="2026-12-01")
    mem(store, "linked", "Retry linked", "retry", links="[a.py::f]")
    mem(store, "gone", "Retry gone", "retry", expires="2026-01-01")
    mem(store, "checked", "Retry checked", "retry", links="[a.py::f]", verified=verified)
    stale = MemoryStatus("checked", "stale", (LinkStatus("a.py::f", "body", None, "0a1b2c3d4e5f"),))
    asked: list[list[str]] = []

    class Asked(Checker):
        def __call__(self, ids: list[str]) -> dict[str, MemoryStatus]:
            asked.append(sorted(ids))
            return {"checked": stale} if "checked" in ids else {}

    hits = search(store, "retry", today=TODAY, include_all=True, statuses=Asked(store, TODAY))
    assert asked == [["checked"]]
    assert {h.id: (h.state, h.stale) for h in hits} == {
        "plain": ("fresh", None),
        "due": ("review-due", None),
        "later": ("fresh", None),
        "linked": ("unverified", None),
        "gone": ("expired", None),
        "checked": ("stale", "a.py::f (body since 0a1b2c3d4e5f)"),
    }
    assert hits[-1].id == "checked"  # demoted


def test_index_states_agree_with_the_staleness_engine(store: Store) -> None:
    """The states the index tells are the ones check_store gives for the same memories."""
    from memkit.search.rank import staleness_checker

    mem(store, "plain", "Retry plain", "retry")
    mem(store, "due", "Retry due", "retry", review_after="2026-01-01")
    mem(store, "linked", "Retry linked", "retry", links="[a.py::f]", review_after="2026-01-01")
    mem(store, "gone", "Retry gone", "retry", expires="2026-01-01", links="[a.py::f]")
    checker = staleness_checker(store, today=TODAY)
    assert callable(checker)
    engine = {mid: s.state for mid, s in checker(["plain", "due", "linked", "gone"]).items()}
    hits = search(store, "retry", today=TODAY, include_all=True, statuses=checker)
    assert (
        {h.id: h.state for h in hits}
        == engine
        == {
            "plain": "fresh",
            "due": "review-due",
            "linked": "unverified",
            "gone": "expired",
        }
    )


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
