"""A memory file whose name is not UTF-8: named, left out, and the rest goes on.

Such a name (os.fsdecode gives it lone surrogates) cannot go into a JSON record, the
SQLite index or a message as it is: it blocked every commit, and `search`, `index`
and MCP search crashed. The checking commands name it and fail; the reading ones warn.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from conftest import Invoke, git, write_memory

from memkit.store import Store
from tests.githooks import committing
from tests.githooks.committing import commit, memory

built, project = committing.built, committing.project  # the fixtures

BAD = os.fsdecode(b"\xffbad.md")
SHOWN = ".memory/\\xffbad.md"
GOOD = "---\ntitle: Retry policy\n---\nRetry idempotent requests only.\n"


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def _bad(store: Store) -> None:
    (store.dir / BAD).write_text("---\ntitle: Bad name\n---\nbody\n", encoding="utf-8")


def test_validate_names_the_file_readably(run: Invoke, store: Store) -> None:
    write_memory(store, "retry", GOOD)
    _bad(store)
    result = run("validate", code=1)
    assert result.stdout.startswith(f"{SHOWN}:1: file: the file name is not UTF-8")
    assert "\\udcff" not in result.output


@pytest.mark.parametrize("command", [("search", "retry"), ("index",), ("list",), ("compile",)])
def test_reading_commands_warn_and_go_on(
    run: Invoke, store: Store, command: tuple[str, ...]
) -> None:
    write_memory(store, "retry", GOOD)
    _bad(store)
    result = run(*command)
    said = "left out 1 invalid memory file(s)" if command[0] == "compile" else SHOWN
    assert said in result.stderr
    assert "Traceback" not in result.output
    if command[0] == "search":
        assert "retry" in result.stdout
        assert SHOWN in run(*command).stderr  # the index now current: still said


def test_check_names_it_and_fails(run: Invoke, store: Store) -> None:
    write_memory(store, "retry", GOOD)
    _bad(store)
    result = run("check", code=1)
    assert f"memkit: {SHOWN}:1: file: the file name is not UTF-8" in result.stderr


def test_ci_fails_for_a_change_that_adds_one(run: Invoke, store: Store, repo: Path) -> None:
    write_memory(store, "retry", GOOD)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    _bad(store)
    result = run("ci", "--base", "HEAD", code=1)
    assert SHOWN in result.output and "(this change)" in result.output


def test_mcp_search_answers(store: Store) -> None:
    from memkit.agents.mcp.tools import find

    write_memory(store, "retry", GOOD)
    _bad(store)
    hits = find(store, "retry", today=dt.date(2026, 11, 22))
    assert [h["id"] for h in hits] == ["retry"]


def test_the_hook_refuses_it_and_lets_other_commits_through(project: Path) -> None:
    store = Store(project)
    _bad(store)
    git(project, "add", "-A")
    refused = commit(project)
    assert refused.returncode != 0
    assert SHOWN in refused.stderr and "could not run" not in refused.stderr
    git(project, "reset", "-q")
    memory(store, "retry", "Retry policy")
    git(project, "add", ".memory/retry.md")
    assert "regenerated AGENTS.md" in commit(project).stderr  # the checks ran on it
    git(project, "add", "AGENTS.md")
    done = commit(project)  # the bad file is on disk, not in the commit
    assert done.returncode == 0, done.stderr
