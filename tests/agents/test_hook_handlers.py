"""The hooks' fast path (memkit.agents.claude: hook, handlers, recall): the installed entry point
imports nothing heavy, and the derived index never gives what is no longer true."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import claude_hook, git

from memkit import memory as mm
from memkit.store import Store

DAY = "2026-11-22"
HEAVY = ("click", "yaml", "jinja2", "whoosh", "pygit2", "frontmatter", "markdown_it",
         "memkit.store", "memkit.memory", "memkit.config", "memkit.agents.claude.drafts",
         "typing", "pathlib", "dataclasses", "datetime")  # fmt: skip


def run(
    root: Path, event: str, payload: dict[str, Any], *, process: bool = False, **env: str
) -> str:
    """`python -m memkit.agents.hook EVENT` (what the memkit-hook script runs): its context."""
    return claude_hook(root, event, payload, process=process, module="memkit.agents.hook", **env)


def edit(root: Path, file: str, sid: str = "s1") -> dict[str, Any]:
    return {
        "session_id": sid,
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": str(root / file)},
    }


def start(root: Path, sid: str = "s1") -> dict[str, Any]:
    return {
        "session_id": sid,
        "cwd": str(root),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }


def add(store: Store, title: str, **extra: Any) -> Path:
    import datetime

    mem = mm.new(
        title, f"{title}: body.", mid=mm.slugify(title), today=datetime.date(2026, 11, 22), **extra
    )
    store.add(mem)
    return store.root / ".memory" / f"{mm.slugify(title)}.md"


@pytest.fixture
def project(store: Store) -> Path:
    (store.root / "src").mkdir()
    (store.root / "src" / "billing.py").write_text("def total(xs):\n    return sum(xs)\n")
    git(store.root, "add", "-A")
    git(store.root, "commit", "-q", "-m", "code")
    add(store, "Invoices are immutable", paths=["src/**/*.py"])
    add(store, "Use UTC everywhere")
    return store.root


def loaded_by(project: Path, payload: dict[str, Any], event: str = "pre-tool-use") -> set[str]:
    code = (
        "import sys, io, json\n"
        "from memkit.agents.claude import hook\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(payload)!r}.encode()))\n"
        f"hook.main([{event!r}])\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=project,
        env={**os.environ, "MEMKIT_TODAY": DAY},
    )
    assert "Invoices" in done.stdout or payload["session_id"] == "s1", done.stdout
    return set(json.loads(done.stderr.splitlines()[-1]))


def test_a_file_touch_imports_nothing_heavy(project: Path) -> None:
    touch = edit(project, "src/billing.py")
    assert "Invoices are immutable" in run(project, "pre-tool-use", touch, process=True)
    loaded = loaded_by(project, edit(project, "src/a.py"))  # already given: nothing read
    assert "memkit.agents.claude.recall" in loaded
    assert sorted(m for m in HEAVY if m in loaded) == []
    loaded = loaded_by(project, edit(project, "src/a.py", "s2"))  # given: read via fsutil
    assert sorted(m for m in HEAVY if m in loaded) == []


def test_a_session_start_imports_nothing_heavy(project: Path) -> None:
    """The digest, the always-on memories read and the receipts written: standard
    library only, and neither typing, pathlib nor dataclasses (~25 ms a session)."""
    run(project, "session-start", start(project, "warm"), process=True)  # the index built
    loaded = loaded_by(project, start(project), "session-start")
    assert "memkit.agents.claude.startup" in loaded
    assert sorted(m for m in HEAVY if m in loaded) == ["datetime"]


def test_a_memory_changed_in_place_is_given_as_it_is_now(project: Path) -> None:
    run(project, "pre-tool-use", edit(project, "src/billing.py", "warm"))
    path = project / ".memory" / "invoices-are-immutable.md"
    stat = (project / ".memory").stat()
    path.write_text(path.read_text().replace("body.", "corrected body."))  # in place
    os.utime(project / ".memory", ns=(stat.st_atime_ns, stat.st_mtime_ns))  # folder unchanged
    text = run(project, "pre-tool-use", edit(project, "src/billing.py"))
    assert "Invoices are immutable: corrected body." in text


def test_a_memory_edited_in_place_to_scope_a_file_is_seen_at_session_start(
    project: Path,
) -> None:
    run(project, "pre-tool-use", edit(project, "src/billing.py", "warm"))
    path = project / ".memory" / "use-utc-everywhere.md"
    stat = (project / ".memory").stat()
    path.write_text(path.read_text().replace("\ncreated:", "\npaths:\n- src/**\ncreated:"))
    os.utime(project / ".memory", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert "Use UTC" not in run(project, "session-start", start(project))  # now scoped
    assert "Use UTC everywhere" in run(project, "pre-tool-use", edit(project, "src/billing.py"))


@pytest.mark.parametrize(
    "planted",
    [
        b"garbage\n",
        b'{"version": 5, "b": 1, "off": {"f": [0, 99999999], "w": [0, 0], "e": [0, 0]}}\n',
        b"\x80\x81\n{}",
        b'{"version": 5}\n' + b"x" * 1000,
    ],
    ids=["not-json", "offsets-out-of-file", "not-utf8", "header-missing-fields"],
)
def test_a_planted_or_broken_index_is_rebuilt(project: Path, planted: bytes) -> None:
    """The index is data (JSON, checked); a bad one is rebuilt and nothing wrong is said."""
    run(project, "pre-tool-use", edit(project, "src/billing.py", "warm"))
    index = project / ".git" / "memkit" / "agents-poa.idx"
    index.write_bytes(planted)
    assert "Invoices are immutable" in run(project, "pre-tool-use", edit(project, "src/billing.py"))
    assert index.read_bytes() != planted


def test_a_new_memory_is_found_without_a_session_start(project: Path) -> None:
    run(project, "pre-tool-use", edit(project, "src/billing.py", "warm"))
    add(Store(project), "Totals are plain sums", links=["src/billing.py"])
    assert "Totals are plain sums" in run(project, "pre-tool-use", edit(project, "src/billing.py"))


def test_many_matches_stay_within_the_cap_and_name_what_was_left_out(project: Path) -> None:
    store = Store(project)
    for n in range(60):
        add(store, f"Billing rule number {n:02d} with a long enough title", paths=["src/*.py"])
    text = run(project, "pre-tool-use", edit(project, "src/billing.py"))
    assert len(text) <= 4_000
    assert "_Left out for size: " in text and "more (`memkit list`)" in text


def test_budgets_follow_the_environment(project: Path) -> None:
    run(project, "pre-tool-use", edit(project, "src/billing.py", "warm"))
    budget = {"MEMKIT_AGENTS_SESSION_BUDGET": "100"}
    assert run(project, "pre-tool-use", edit(project, "src/billing.py"), **budget) == ""
    assert "Invoices" in run(project, "pre-tool-use", edit(project, "src/billing.py"))


def test_the_index_lives_in_the_private_folder_only(project: Path) -> None:
    run(project, "session-start", start(project))
    assert (project / ".git" / "memkit" / "agents-poa.idx").is_file()
    before = sorted(p.name for p in (project / ".memory").rglob("*"))
    run(project, "pre-tool-use", edit(project, "src/billing.py"))
    assert sorted(p.name for p in (project / ".memory").rglob("*")) == before
    assert not [p for p in (project / ".memory").rglob("*") if "poa" in p.name]


def context_again(run: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[int]]:
    """`memkit context --file src/billing.py` run twice (the first builds the index): the
    second's output, and how many times it loaded the whole store."""
    monkeypatch.setenv("MEMKIT_TODAY", DAY)
    loads: list[int] = []
    real = Store.load
    monkeypatch.setattr(Store, "load", lambda self: loads.append(1) or real(self))
    run("context", "--file", "src/billing.py")
    loads.clear()
    return run("context", "--file", "src/billing.py").stdout, loads


def test_context_for_a_file_reads_the_index_and_gives_what_the_store_would(
    project: Path, run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime

    from memkit.search.context import build_context

    store = Store(project)
    add(store, "Totals are plain sums", links=["src/billing.py::total"])
    add(store, "The src folder", links=["src"])  # a link to a folder is not about a file in it
    add(store, "Billing only", paths=["src/billing.py"], pin=True)
    add(store, "Docs", paths=["docs/**"])
    full = build_context(store, files=["src/billing.py"], today=datetime.date(2026, 11, 22))
    out, loads = context_again(run, monkeypatch)
    assert out == full.to_markdown()
    assert loads == []  # the index named the memories; the store was not read
    assert "The src folder" not in out and "Billing only" in out and "Docs" not in out


def test_context_for_a_file_many_memories_are_read_without_loading_the_store(
    project: Path, run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime

    from memkit.search.context import build_context

    store = Store(project)
    for n in range(60):  # more than get_many reads one by one without a hint
        add(store, f"Billing rule {n:02d}", paths=["src/**"])
    full = build_context(store, files=["src/billing.py"], today=datetime.date(2026, 11, 22))
    out, loads = context_again(run, monkeypatch)
    assert out == full.to_markdown()
    assert loads == []


def test_a_fresh_store_gives_no_context_and_no_error(store: Store) -> None:
    root = store.root
    prompt = {"session_id": "s1", "cwd": str(root), "hook_event_name": "UserPromptSubmit",
              "prompt": "fix the invoice totals"}  # fmt: skip
    assert run(root, "user-prompt-submit", prompt) == ""
    assert run(root, "pre-tool-use", edit(root, "src/a.py")) == ""


def test_session_start_gives_manual_memories_never_and_agent_ones_by_description(
    project: Path,
) -> None:
    store = Store(project)
    add(store, "Deploy steps", activation="manual")
    add(store, "Schema changes", activation="agent", description="When changing the schema")
    text = run(project, "session-start", start(project))
    assert "## Use UTC everywhere" in text and "Use UTC everywhere: body." in text
    assert "Deploy steps" not in text
    assert "Schema changes: body." not in text
    assert "- Schema changes: When changing the schema (`memkit show schema-changes`)" in text
    from memkit.agents.claude import ledger

    recs = ledger.records(ledger.receipts_file(str(project), "s1"))
    given = {str(r["id"]): r.get("form", "") for r in recs if r.get("id")}
    assert given == {"use-utc-everywhere": "", "schema-changes": "description"}
    blob = git(project, "hash-object", ".memory/schema-changes.md").strip()
    assert [r["blob"] for r in recs if r.get("id") == "schema-changes"] == [blob]


def test_a_manual_memory_is_not_given_for_a_file_or_a_prompt(project: Path) -> None:
    add(Store(project), "Billing totals by hand", activation="manual", paths=["src/**"])
    assert "by hand" not in run(project, "pre-tool-use", edit(project, "src/billing.py"))
    prompt = {"session_id": "s1", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
              "prompt": "how are billing totals computed by hand?"}  # fmt: skip
    assert "by hand" not in run(project, "user-prompt-submit", prompt)


def test_a_session_start_prunes_the_journals_of_sessions_long_gone(project: Path) -> None:
    import datetime
    import time

    folder = project / ".git" / "memkit" / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    day = datetime.date.fromisoformat(DAY)
    for name, age in (("old.jsonl", 30), ("recent.jsonl", 2)):
        (folder / name).write_text("{}\n")
        then = time.mktime((day - datetime.timedelta(days=age)).timetuple()) + 12 * 3600
        os.utime(folder / name, (then, then))
    run(project, "session-start", start(project, "s9"))
    assert sorted(p.name for p in folder.iterdir() if p.name != "s9.jsonl") == ["recent.jsonl"]


def test_what_a_session_start_would_give_closes_the_index(project: Path) -> None:
    """`compile --explain claude` asks start_picks in process: the index it opens is
    closed, not left to the garbage collector."""
    import gc
    import warnings

    from memkit.agents.claude.startup import start_picks

    run(project, "session-start", start(project, "warm"))  # the index built, on disk
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        full, _ = start_picks(str(project), DAY)
        gc.collect()
    assert "use-utc-everywhere" in full
    assert [str(w.message) for w in caught if w.category is ResourceWarning] == []
