from __future__ import annotations

import json

import pytest
from conftest import Invoke
from test_search import mem

from memkit.store import Store


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def seed(store: Store) -> None:
    body = "The gateway double-charges when we retry more often."
    mem(store, "retry-limit", "Retry failed charges three times", body, type="decision",
        tags="[billing]", updated="2026-02-01")  # fmt: skip
    mem(store, "backoff", "Back off between retries", "Wait 1, 10, 60 minutes.", type="convention")
    mem(store, "draft-retry", "Retry draft", "retry", status="draft")


def test_search_text_and_json(run: Invoke, store: Store) -> None:
    seed(store)
    assert run("search", "retry", "charges").stdout == (
        "retry-limit  3.30  decision  Retry failed charges three times\n"
        "    The gateway double-**charges** when we **retry** more often.\n"
        "backoff  1.09  convention  Back off between retries\n"
        "    Wait 1, 10, 60 minutes.\n"
    )
    hits = json.loads(run("search", "retry", "--all", "--json", "-n", "2").stdout)
    assert [(h["id"], h["state"]) for h in hits] == [
        ("draft-retry", "draft"),
        ("retry-limit", "active"),
    ]
    assert hits[1] == {
        "id": "retry-limit", "title": "Retry failed charges three times", "score": hits[1]["score"],
        "state": "active", "path": ".memory/retry-limit.md", "type": "decision",
        "snippet": "The gateway double-charges when we **retry** more often.", "stale": None,
    }  # fmt: skip
    assert [h["id"] for h in json.loads(run("search", "retry", "--type", "convention",
                                            "--json").stdout)] == ["backoff"]  # fmt: skip
    assert json.loads(run("search", "retry", "--tag", "billing", "--json").stdout)[0]["id"] == (
        "retry-limit"
    )
    assert run("search", "--status", "draft", "retry").stdout.startswith("draft-retry  ")
    nothing = run("search", "zebra")
    assert (nothing.stdout, nothing.stderr) == ("", "no memories match\n")


def test_index_command(run: Invoke, store: Store) -> None:
    seed(store)
    assert run("index").stdout == "index built 3\n"
    assert run("index").stdout == "index current\n"
    assert run("index", "--rebuild").stdout == "indexed 3 memories\n"
    mem(store, "new", "New one", "text")
    assert run("index").stdout == "index updated 1\n"
    assert store.search("text")[0].id == "new"
