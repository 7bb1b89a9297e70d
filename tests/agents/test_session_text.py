"""What Claude Code gets at session start (memkit.agents.claude.preloaded)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from memkit.store import Store


def test_compiled_ids_follow_imports(tmp_path: Path) -> None:
    from memkit.agents.claude.preloaded import compiled_ids

    (tmp_path / "CLAUDE.md").write_text("Intro\n\n@AGENTS.md\n<!-- memkit:id=one -->\n")
    (tmp_path / "AGENTS.md").write_text("## Two\n<!-- memkit:id=two -->\n\n@CLAUDE.md\n")
    assert compiled_ids(tmp_path) == {"one", "two"}


def test_session_start_reads_the_store_once(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The always-on memories, their staleness and the context for files share one read."""
    from memkit import memory as mm
    from memkit.agents.claude import handlers, journal

    day = datetime.date(2026, 11, 22)
    for title, paths in (("Use UTC everywhere", None), ("Invoices are immutable", ["src/a.py"])):
        store.add(mm.new(title, f"{title}: body.", mid=mm.slugify(title), today=day, paths=paths))
    journal.append(
        journal.journal_file(str(store.root), "s1"), {"kind": "read", "file": "src/a.py"}
    )
    from memkit.store import loading

    loads: list[Store] = []
    load = loading.load
    monkeypatch.setattr(loading, "load", lambda store: loads.append(store) or load(store))
    out = handlers.session_start({"session_id": "s1", "cwd": str(store.root)}, day.isoformat())
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "## Use UTC everywhere" in text and "## Invoices are immutable" in text
    assert len(loads) == 1


def test_a_resumed_session_answers_from_the_index(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session with a journal (resume, compact) reads the index, not the whole store."""
    from memkit import memory as mm
    from memkit.agents.claude import handlers, journal

    day = datetime.date(2026, 11, 22)
    for title, paths in (("Use UTC everywhere", None), ("Invoices are immutable", ["src/a.py"])):
        store.add(mm.new(title, f"{title}: body.", mid=mm.slugify(title), today=day, paths=paths))
    first = handlers.session_start({"session_id": "s0", "cwd": str(store.root)}, day.isoformat())
    journal.append(
        journal.journal_file(str(store.root), "s1"), {"kind": "read", "file": "src/a.py"}
    )
    loads: list[Store] = []
    load = Store.load
    monkeypatch.setattr(Store, "load", lambda self: loads.append(self) or load(self))
    payload = {"session_id": "s1", "cwd": str(store.root), "source": "compact"}
    out = handlers.session_start(payload, day.isoformat())
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert text.startswith(json.loads(first)["hookSpecificOutput"]["additionalContext"])
    assert "# Project memories for `src/a.py`" in text and "## Invoices are immutable" in text
    assert loads == []
