"""validate: every problem in a store, or in some of its files."""

from __future__ import annotations

import datetime as dt

from conftest import write_memory

from memkit import memory as mm
from memkit.store import Store
from memkit.validation import validate

TODAY = dt.date(2026, 11, 22)


def test_validate_collects_all_problems(store: Store) -> None:
    store.add(mm.new("Good", "Body.", mid="good", today=TODAY))
    write_memory(store, "bad-type", "---\ntitle: A\ntype: idea\n---\n")
    write_memory(store, "dup", "---\ntitle: A\n---\n")
    write_memory(store, "dup", "---\ntitle: B\n---\n", folder="sub")
    write_memory(store, "secret", "---\ntitle: S\n---\n\ntoken ghp_" + "a" * 36 + "\n")
    write_memory(store, "refs", "---\ntitle: R\nsupersedes: [gone]\n---\n")
    lines = [str(p) for p in validate(store)]
    assert lines[0] == (
        ".memory/bad-type.md:3: type: unknown value 'idea'; use one of: "
        "decision, convention, gotcha, procedure, episode, preference, note"
    )
    assert lines[1] == ".memory/refs.md:3: supersedes: no memory with id 'gone' in the store"
    assert lines[2].startswith(".memory/secret.md:5: secret: looks like a GitHub token")
    assert lines[3].startswith(".memory/sub/dup.md:1: id: duplicate id 'dup'")
    assert len(lines) == 4


def test_only_limits_the_files_but_not_the_duplicate_rule(store: Store) -> None:
    write_memory(store, "bad-type", "---\ntitle: A\ntype: idea\n---\n")
    write_memory(store, "refs", "---\ntitle: R\nstatus: draft\nrevises: gone\n---\n")
    write_memory(store, "dup", "---\ntitle: A\n---\n")
    write_memory(store, "dup", "---\ntitle: B\n---\n", folder="sub")
    assert [str(p) for p in validate(store, only=[".memory/refs.md"])] == [
        ".memory/refs.md:4: revises: no memory with id 'gone' in the store"
    ]
    # The duplicate is reported when either of its files is checked.
    assert [(p.path, p.field) for p in validate(store, only=[".memory/dup.md"])] == [
        (".memory/sub/dup.md", "id")
    ]
