from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_memory

from memkit.search import Index, analyze, parse_query, search
from memkit.staleness.verdict import LinkStatus, MemoryStatus
from memkit.store import Store

TODAY = dt.date(2026, 11, 22)


def mem(store: Store, mid: str, title: str, body: str = "", **fields: str) -> Path:
    """Write a memory; its mtime is set in the past so the index trusts it at once."""
    lines = [f"title: {title}"] + [f"{k}: {v}" for k, v in fields.items()]
    path = write_memory(store, mid, "---\n" + "\n".join(lines) + f"\n---\n\n{body}\n")
    past = path.stat().st_mtime_ns - 10_000_000_000 + len(body)
    os.utime(path, ns=(past, past))
    return path


def ids(store: Store, query: str, **options: object) -> list[str]:
    return [h.id for h in search(store, query, today=TODAY, **options)]  # type: ignore[arg-type]


def test_analyzer_splits_identifiers_and_stems() -> None:
    assert analyze("AuthService.login authenticate_user max_retry HTTPServer") == [
        "auth", "servic", "login", "authent", "user", "max", "retri", "http", "server",
    ]  # fmt: skip
    assert analyze("How do we run the retries?") == ["run", "retri"]


def test_identifiers_paths_and_phrases(store: Store) -> None:
    login = "[src/auth/service.py::AuthService.login]"
    mem(store, "hash", "Passwords are hashed with argon2", "Upgraded at login.", links=login)
    mem(store, "rate", "Throttle sign-in attempts", "Counted in Redis per user.",
        links="[src/auth/limits.py::authenticate_user]")  # fmt: skip
    mem(store, "cents", "Money is integer cents", "Never floats for a user's balance.",
        paths="['src/billing/**']", tags="[billing]", type="convention")  # fmt: skip
    assert ids(store, "auth service")[0] == "hash"
    assert ids(store, "authenticate user")[0] == "rate"
    assert ids(store, "billing") == ["cents"]
    assert ids(store, '"integer cents"') == ["cents"]
    assert ids(store, '"cents integer"') == []
    assert ids(store, "tag:billing user") == ["cents"]
    assert ids(store, "type:convention") == ["cents"]
    assert ids(store, "user -redis") == ["cents"]
    assert ids(store, "title:argon2") == ["hash"]
    assert ids(store, "link:AuthService") == ["hash"]
    assert ids(store, "the of and") == []


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


def test_stale_demoted_and_marked_ties_by_recency_then_id(store: Store) -> None:
    for mid, day in (("b", "2026-03-01"), ("a", "2026-03-01"), ("c", "2026-05-01")):
        mem(store, mid, "Retry the webhook", "retry", updated=day)
    assert ids(store, "retry") == ["c", "a", "b"]
    stale = MemoryStatus("c", "stale", (LinkStatus("src/hook.py::send", "signature", None,
                                                   "0123456789abcdef"),))  # fmt: skip
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


def test_hit_record_and_snippet(store: Store) -> None:
    mem(store, "gw", "Payment gateway", "Intro. " * 30 + "The gateway double-charges on a "
        "retry, so max_retry stays at 3. " + "Outro. " * 30, type="gotcha")  # fmt: skip
    [hit] = search(store, "retries", today=TODAY)
    rec = hit.to_record()
    assert set(rec) == {"id", "title", "score", "state", "path", "type", "snippet", "stale"}
    assert (rec["id"], rec["path"], rec["type"], rec["state"]) == (
        "gw", ".memory/gw.md", "gotcha", "active")  # fmt: skip
    assert rec["snippet"].startswith("...")
    assert "on a **retry**, so max_**retry** stays at 3." in rec["snippet"]


def test_incremental_updates(store: Store) -> None:
    index = Index(store)
    mem(store, "one", "First memory", "alpha")
    assert index.refresh() == "built 1"
    assert index.refresh() == "current"
    mem(store, "two", "Second memory", "beta")
    path = mem(store, "one", "First memory", "gamma words")
    assert index.refresh() == "updated 2"
    assert ids(store, "alpha") == []
    assert ids(store, "gamma") == ["one"]
    path.unlink()
    assert ids(store, "gamma") == []
    assert index.refresh() == "current"
    mem(store, "bad", "x", type="nope")  # invalid: left out of the index, not retried
    assert index.refresh() == "updated 1"
    assert index.refresh() == "current"
    assert ids(store, "beta") == ["two"]


def test_many_updates_merge_segments(store: Store) -> None:
    index = Index(store)
    mem(store, "base", "Base", "words")
    index.refresh()
    for i in range(12):
        mem(store, f"m{i}", f"Memory {i}", f"round {i}")
        index.refresh()
    assert len(index._open()._segments()) <= 8
    assert len(ids(store, "round", limit=20)) == 12


@pytest.mark.parametrize("damage", ["toc", "segments", "manifest", "all"])
def test_damaged_index_is_rebuilt(store: Store, damage: str) -> None:
    mem(store, "one", "Search me", "findable")
    index = Index(store)
    index.refresh()
    targets = {
        "toc": index.ix_dir.glob("_MAIN_*.toc"),
        "segments": index.ix_dir.glob("*.seg"),
        "manifest": [index.manifest_path],
        "all": [],
    }[damage]
    for f in targets:
        f.write_bytes(b"garbage")
    if damage == "all":
        import shutil

        shutil.rmtree(index.dir)
    assert ids(store, "findable") == ["one"]


def test_rebuild(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    mem(store, "one", "Search me", "findable")
    assert Index(store).rebuild() == 1
    assert ids(store, "findable") == ["one"]
    monkeypatch.setattr("memkit.search.index.MP_MIN", 1)  # two writer processes, two segments
    for i in range(6):
        mem(store, f"m{i}", f"Memory {i}", f"findable {i}")
    assert Index(store).rebuild() == 7
    assert len(ids(store, "findable", limit=20)) == 7
    for i in range(20):  # updates: small segments merged, the two big ones kept
        mem(store, f"n{i}", f"New {i}", "findable")
        Index(store).refresh()
    assert len(Index(store)._open()._segments()) <= 8
    assert len(ids(store, "findable", limit=50)) == 27


def test_parse_query_words_optional_fields_required() -> None:
    q = parse_query('retry "payment gateway" tag:billing -flaky')
    assert q is not None
    assert str(q.q) == (
        '(((text:"payment gateway" AND tags:bill) ANDMAYBE ((text:retri))) ANDNOT (text:flaki))'
    )
    assert q.terms >= {"retri", "gateway", "bill"}
    assert parse_query("   ") is None


CONCURRENT = """
import datetime as dt, sys
from pathlib import Path
from memkit.search import search, Index
from memkit.store import Store
store = Store(sys.argv[1])
me = sys.argv[2]
for i in range(15):
    p = Path(sys.argv[1], ".memory", f"{me}-{i % 4}.md")
    p.write_text(f"---\\ntitle: Note {me} {i}\\n---\\n\\nshared words round {i}\\n")
    search(store, "shared words", today=dt.date(2026, 1, 1))
    if i == 7:
        Index(store).rebuild()
print("ok")
"""


def test_two_processes_search_and_index_at_once(store: Store) -> None:
    for i in range(20):
        mem(store, f"seed-{i}", f"Seed {i}", "shared words")
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT, str(store.root), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("p", "q")
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert (p.returncode, out) == (0, "ok\n"), err
    assert len(ids(store, "shared", limit=100)) == 28


def test_phrase_in_a_field_without_positions(store: Store) -> None:
    mem(store, "t", "Integer money cents", "body")
    assert ids(store, 'title:"money cents"') == ["t"]
    assert ids(store, 'title:"cents money"') == ["t"]  # titles keep no positions: all words
