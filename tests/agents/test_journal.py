"""Session journals (memkit.agents.claude.journal): where they live, when they go, and
that what they keep is redacted before it is cut."""

from __future__ import annotations

import os

import pytest

from memkit.agents.claude.journal import redact_then_cut
from memkit.secrets import hits, redact
from memkit.store import Store
from tests.secretscan.corpus import secrets

SECRETS = secrets()


def test_old_journals_are_pruned(store: Store) -> None:
    import datetime
    import time

    from memkit.agents.claude.journal import prune_journals

    project = store.root
    folder = project / ".git" / "memkit" / "sessions"
    folder.mkdir(parents=True)
    (folder / "old.jsonl").write_text("{}\n")
    (folder / "recent.jsonl").write_text("{}\n")
    month_ago = time.time() - 30 * 86400
    os.utime(folder / "old.jsonl", (month_ago, month_ago))
    prune_journals(project, keep_days=14, today=datetime.date.fromtimestamp(time.time()))
    assert sorted(p.name for p in folder.iterdir()) == ["recent.jsonl"]


@pytest.mark.parametrize(("kind", "text"), SECRETS, ids=[kind for kind, _ in SECRETS])
def test_redact_then_cut_never_keeps_part_of_a_secret(kind: str, text: str) -> None:
    found = [text[h.start : h.end] for h in hits(text) if h.end - h.start >= 8]
    for limit in range(len(text) + 1):
        out = redact_then_cut(text, limit)
        assert len(out) <= limit + 2
        assert not any(secret[:8] in out for secret in found), (limit, out)


def test_cutting_before_redacting_would_leak_a_prefix() -> None:
    ghp = dict(SECRETS)["GitHub personal token"].split("=")[-1]
    text = f"export GITHUB_TOKEN={ghp}"
    leaks = [n for n in range(len(text)) if ghp[:8] in redact(text[:n])]
    assert leaks  # why callers that truncate must use redact_then_cut
    assert redact_then_cut(text, 30) == "export GITHUB_TOKEN=[REDACTED]"[:30]
