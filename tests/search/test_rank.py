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
