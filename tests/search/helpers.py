"""What the search tests share: the day they run on, a memory writer whose files the
index trusts at once, the ids a query finds, and stores to search."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from memkit.search import search
from memkit.store import Store
from tests.conftest import write_memory

TODAY = dt.date(2026, 11, 22)
# A long body whose only match for "retries" is in the middle.
GATEWAY = (
    "Intro. " * 30
    + "The gateway double-charges on a retry, so max_retry stays at 3. "
    + "Outro. " * 30
)


def mem(store: Store, mid: str, title: str, body: str = "", **fields: str) -> Path:
    """Write a memory; its mtime is set in the past so the index trusts it at once."""
    lines = [f"title: {title}"] + [f"{k}: {v}" for k, v in fields.items()]
    path = write_memory(store, mid, "---\n" + "\n".join(lines) + f"\n---\n\n{body}\n")
    past = path.stat().st_mtime_ns - 10_000_000_000 + len(body)
    os.utime(path, ns=(past, past))
    return path


def ids(store: Store, query: str, **options: object) -> list[str]:
    return [h.id for h in search(store, query, today=TODAY, **options)]  # type: ignore[arg-type]


def seed_retries(store: Store) -> None:
    """Two memories about retries and a draft: what the command-line tests search."""
    body = "The gateway double-charges when we retry more often."
    mem(
        store,
        "retry-limit",
        "Retry failed charges three times",
        body,
        type="decision",
        tags="[billing]",
        updated="2026-02-01",
    )
    mem(store, "backoff", "Back off between retries", "Wait 1, 10, 60 minutes.", type="convention")
    mem(store, "draft-retry", "Retry draft", "retry", status="draft")


def seed_context(store: Store) -> None:
    """Memories about src/auth (by glob and by link) and src/billing, one always-on, one draft."""
    mem(
        store,
        "argon",
        "Passwords use argon2",
        "Hash with argon2id.",
        paths="['src/auth/**']",
        updated="2026-05-01",
    )
    mem(
        store,
        "limits",
        "Login is throttled",
        "Five failures per account.",
        links="[src/auth/login.py::AuthService.login]",
        updated="2026-06-01",
    )
    mem(store, "cents", "Money is integer cents", "Never floats.", paths="['src/billing/**']")
    mem(store, "utc", "Use UTC everywhere", "Convert only for display; login times too.")
    mem(store, "draft", "A draft about login", "login", paths="['src/auth/**']", status="draft")
