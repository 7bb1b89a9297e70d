"""Session journals (memkit.agents.claude.journal): where they live and when they go."""

from __future__ import annotations

import os

from memkit.store import Store


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
