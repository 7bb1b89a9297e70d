from __future__ import annotations

import pytest

from memkit.search.context import build_context, estimate_tokens, glob_match
from memkit.staleness.verdict import LinkStatus, MemoryStatus
from memkit.store import Store
from tests.search.helpers import TODAY, mem, seed_context

GLOBS = [
    ("src/**/*.py", "src/a.py", True),
    ("src/**/*.py", "src/a/b/c.py", True),
    ("src/*.py", "src/a/b.py", False),
    ("src/auth", "src/auth/login.py", True),
    ("src/auth/", "src/auth/login.py", True),
    ("src/auth", "src/authz.py", False),
    ("**/*.{ts,tsx}", "web/app/x.tsx", True),
    ("docs/?.md", "docs/a.md", True),
    ("docs/[ab].md", "docs/c.md", False),
    ("*.md", "docs/a.md", False),
]


@pytest.mark.parametrize(("glob", "path", "expected"), GLOBS)
def test_glob_match(glob: str, path: str, expected: bool) -> None:
    assert glob_match(glob, path) is expected


def test_exact_matches_then_search_hits(store: Store) -> None:
    seed_context(store)
    ctx = build_context(store, files=["src/auth/login.py"], query="login times", today=TODAY)
    assert [(i.id, i.reason, i.matched) for i in ctx.items] == [
        ("limits", "file", ("src/auth/login.py",)),
        ("argon", "file", ("src/auth/login.py",)),
        ("utc", "query", ()),
    ]
    assert ctx.omitted == ()
    ctx = build_context(
        store, files=["src/auth/login.py"], query="login times", exclude_always_on=True, today=TODAY
    )
    assert [i.id for i in ctx.items] == ["argon"]  # limits and utc have no paths


def test_budget_and_stale_marks(store: Store) -> None:
    seed_context(store)
    stale = MemoryStatus("argon", "stale", (LinkStatus("src/auth/hash.py::hash", "removed"),))
    full = build_context(store, files=["src/auth/login.py"], today=TODAY, statuses={"argon": stale})
    assert [i.id for i in full.items] == ["limits", "argon"]
    assert full.items[1].stale == "src/auth/hash.py::hash (removed)"
    assert "> **Stale**: the code it describes changed: src/auth/hash.py::hash (removed)" in (
        full.to_markdown()
    )
    first = full.items[0].tokens
    asked: list[str] = []

    def provider(ids: list[str]) -> dict[str, MemoryStatus]:
        asked.extend(ids)
        return {"argon": stale}

    small = build_context(
        store, files=["src/auth/login.py"], budget_tokens=first, today=TODAY, statuses=provider
    )
    assert asked == ["limits"]  # only what fits is checked
    assert [i.id for i in small.items] == ["limits"]
    assert small.omitted == ("argon",)
    assert small.tokens == first
    assert estimate_tokens("abcde") == 2


def test_markdown_and_record(store: Store) -> None:
    seed_context(store)
    ctx = build_context(store, files=["src/billing/pay.py"], today=TODAY)
    assert ctx.to_markdown() == (
        "# Project memories for `src/billing/pay.py`\n\n"
        "## Money is integer cents\n\n"
        "_note `cents`, about src/billing/pay.py_\n\n"
        "Never floats.\n"
    )
    rec = ctx.to_record()
    assert rec == {
        "files": ["src/billing/pay.py"],
        "query": None,
        "budget_tokens": 2000,
        "tokens": rec["items"][0]["tokens"],
        "omitted": [],
        "items": [
            {
                "id": "cents",
                "title": "Money is integer cents",
                "type": "note",
                "path": ".memory/cents.md",
                "reason": "file",
                "matched": ["src/billing/pay.py"],
                "state": "active",
                "stale": None,
                "tokens": rec["items"][0]["tokens"],
                "text": "Never floats.",
            }
        ],
    }
    assert build_context(store, files=["README"], today=TODAY).to_markdown() == ""


def test_specific_matches_first(store: Store) -> None:
    mem(store, "broad", "All Python", "x", paths="['**/*.py']", updated="2026-09-01")
    mem(store, "narrow", "Task modules", "x", paths="['shop/**/tasks.py']", updated="2026-01-01")
    mem(
        store,
        "linked",
        "Retry task",
        "x",
        paths="['docs/**']",
        links="[shop/pay/tasks.py::retry]",
        updated="2025-01-01",
    )
    mem(store, "pinned", "Pinned", "x", paths="['**']", pin="true")
    ctx = build_context(store, files=["shop/pay/tasks.py"], today=TODAY)
    assert [i.id for i in ctx.items] == ["pinned", "linked", "narrow", "broad"]
