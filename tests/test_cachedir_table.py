"""memkit.cachedir.FILES lists every file memkit keeps in a project's private folder."""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import Invoke, git, write_memory

from memkit.cachedir import FILES, cache_dir
from memkit.store import Store

ROOT = Path(__file__).resolve().parents[1]


def listed(rel: str) -> bool:
    return any(fnmatch.fnmatchcase(rel, pattern) for pattern, *_ in FILES)


def test_each_entry_names_an_owner_that_writes_it() -> None:
    for pattern, owner, holds, kind in FILES:
        spec = importlib.util.find_spec(owner)
        assert spec is not None and spec.origin, f"{pattern}: no module {owner}"
        source = Path(spec.origin).read_text("utf-8")
        parts = [p for p in pattern.replace("*", "/").split("/") if len(p.strip("._")) > 2]
        assert any(p.strip(".") in source for p in parts), f"{owner} never names {pattern}"
        assert kind in ("derived", "record", "lock") and holds, pattern


def test_the_reliability_doc_shows_the_table() -> None:
    doc = (ROOT / "docs" / "reliability.md").read_text("utf-8")
    for pattern, owner, holds, kind in FILES:
        assert f"| `{pattern}` | `{owner}` | {holds} | {kind} |" in doc, pattern


def test_a_working_day_writes_only_listed_files(store: Store, run: Invoke) -> None:
    """init, add, link, compile, index, search, context, check, verify, the git hook's
    commits, a Claude Code session (journal, receipts, Stop draft): every file left in
    the private folder is in the table."""
    repo = store.root
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("def handler(event):\n    return event\n", "utf-8")
    write_memory(
        store,
        "retry",
        "---\ntitle: Retries are safe\ntype: decision\n"
        "links:\n- src/app.py::handler\npaths:\n- src/**\n---\n\nThey are.\n",
    )
    run("add", "Config is read once", "--body", "At start.", "--link", "src/app.py")
    run("compile")
    run("hooks", "install")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    run("index")
    run("search", "retries")
    run("context", "--file", "src/app.py")
    run("verify", "retry")
    run("check")
    run("log", "retry")
    (repo / "src" / "other.py").write_text("X = 1\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "change")
    sid = "5f1c2d3e-aaaa-bbbb-cccc-0123456789ab"
    env = {**os.environ, "MEMKIT_TODAY": "2026-11-22"}
    base = {"session_id": sid, "cwd": str(repo), "transcript_path": str(repo / "t.jsonl")}
    edit = {"file_path": str(repo / "src" / "app.py"), "old_string": "[", "new_string": "("}
    for event, payload in [
        ("session-start", {**base, "hook_event_name": "SessionStart", "source": "startup"}),
        (
            "pre-tool-use",
            {**base, "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": edit},
        ),
        (
            "post-tool-use",
            {**base, "hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_input": edit},
        ),
        ("stop", {**base, "hook_event_name": "Stop"}),
    ]:
        subprocess.run(
            [sys.executable, "-m", "memkit", "claude-hook", event],
            cwd=repo,
            input=json.dumps(payload),
            text=True,
            env=env,
            check=True,
        )
    private = Path(cache_dir(str(repo)))
    found = sorted(
        p.relative_to(private).as_posix()
        for p in private.rglob("*")
        if p.is_file() and not p.name.startswith(".")  # a temp file is `.NAME.XXXX.tmp`
    )
    assert {"parsed.db", "hooks-index", "search/index.db", "sessions/" + sid + ".jsonl"} <= set(
        found
    ), found
    assert [f for f in found if not listed(f)] == []
