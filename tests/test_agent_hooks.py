"""Claude Code hooks through real `memkit hook` processes, and the installers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Invoke

from memkit.agent_hooks import install_claude, install_mcp, uninstall_claude, uninstall_mcp
from memkit.store import Store

SID = "5f1c2d3e-aaaa-bbbb-cccc-0123456789ab"


def hook(repo: Path, event: str, payload: dict[str, Any] | str) -> subprocess.CompletedProcess[str]:
    """Run `memkit hook EVENT` as Claude Code does: JSON on stdin, cwd in the project."""
    raw = payload if isinstance(payload, str) else json.dumps(payload)
    env = {**os.environ, "MEMKIT_TODAY": "2026-11-22"}
    out = subprocess.run([sys.executable, "-m", "memkit", "hook", event], input=raw, cwd=repo,
                         capture_output=True, text=True, env=env)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out


def base(repo: Path, event: str, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": SID,
        "transcript_path": str(repo / ".claude" / f"{SID}.jsonl"),
        "cwd": str(repo),
        "hook_event_name": event,
        **extra,
    }


def tool(repo: Path, name: str, tool_input: dict[str, Any], response: Any = None) -> dict[str, Any]:
    return base(repo, "PostToolUse", tool_name=name, tool_input=tool_input,
                tool_response=response or {"success": True})  # fmt: skip


@pytest.fixture
def project(store: Store) -> Path:
    src = store.root / "src"
    src.mkdir()
    (src / "billing.py").write_text(
        "class Invoice:\n"
        "    def total(self):\n"
        "        return sum(self.lines)\n\n\n"
        "def charge(invoice):\n"
        "    return invoice.total()\n"
    )
    (src / "notes.txt").write_text("hello\n")
    return store.root


def session(repo: Path) -> None:
    """A realistic session: reads, a search, edits, a write, commands (one leaks a token)."""
    f = repo / "src" / "billing.py"
    (repo / "src" / "new.py").write_text("X = 1\n")  # what the Write tool did
    for payload in [
        tool(repo, "Read", {"file_path": str(repo / "src" / "notes.txt")}, {"type": "text"}),
        tool(repo, "Grep", {"pattern": "def charge", "path": str(repo / "src")}),
        tool(repo, "Read", {"file_path": str(f)}),
        tool(
            repo,
            "Edit",
            {
                "file_path": str(f),
                "old_string": "sum(self.lines)",
                "new_string": "return sum(self.lines)",
            },
        ),
        tool(repo, "Write", {"file_path": str(repo / "src" / "new.py"), "content": "X = 1\n"}),
        tool(
            repo,
            "Bash",
            {"command": "pytest -q tests/test_billing.py", "description": "t"},
            {"stdout": "1 passed", "stderr": "", "interrupted": False},
        ),
        tool(repo, "Bash", {"command": "export GITHUB_TOKEN=ghp_" + "a1B2" * 9}),
        tool(repo, "Read", {"file_path": "/etc/hosts"}),
        tool(repo, "TodoWrite", {"todos": []}),
    ]:
        assert hook(repo, "post-tool-use", payload).stderr == ""


def test_post_tool_use_writes_a_compact_journal(project: Path) -> None:
    session(project)
    journal = project / ".git" / "memkit" / "sessions" / f"{SID}.jsonl"
    assert [json.loads(line) for line in journal.read_text().splitlines()] == [
        {"kind": "read", "file": "src/notes.txt"},
        {"kind": "search", "text": "def charge", "path": "src"},
        {"kind": "read", "file": "src/billing.py"},
        {"kind": "edit", "file": "src/billing.py", "snippet": "return sum(self.lines)"},
        {"kind": "write", "file": "src/new.py", "snippet": "X = 1"},
        {"kind": "command", "text": "pytest -q tests/test_billing.py"},
        {"kind": "command", "text": "export GITHUB_TOKEN=ghp_" + "a1B2" * 9},
    ]


def test_stop_saves_one_draft_episode(project: Path) -> None:
    session(project)
    assert hook(project, "stop", base(project, "Stop", stop_hook_active=False)).stderr == (
        "memkit hook stop: saved .memory/session-2026-11-22-5f1c2d3e.md (draft)\n"
    )
    draft = project / ".memory" / "session-2026-11-22-5f1c2d3e.md"
    assert draft.read_text() == (
        "---\n"
        "title: 'Session: edited src/billing.py, src/new.py'\n"
        "type: episode\n"
        "status: draft\n"
        "tags:\n- session\n"
        "links:\n- src/billing.py\n- src/new.py\n- src/billing.py::Invoice.total\n"
        f"source: {SID}\n"
        "created: 2026-11-22\n"
        "updated: 2026-11-22\n"
        "---\n\n"
        f"What Claude Code session `{SID}` did: 2 file(s) edited, 1 read, 2 command(s) run.\n\n"
        "Review: replace this list with what was learned and why it matters, then set "
        "`status: active`; or delete this memory if nothing is worth keeping.\n\n"
        "Edited:\n\n- `src/billing.py` (`Invoice.total`)\n- `src/new.py`\n\n"
        "Read:\n\n- `src/notes.txt`\n\n"
        "Commands:\n\n- `pytest -q tests/test_billing.py`\n- `export GITHUB_TOKEN=[REDACTED]`\n\n"
        "Searched:\n\n- `def charge in src`\n"
    )
    # A second Stop in the same session refreshes the same draft; the loop guard is respected.
    assert "is up to date" in hook(project, "stop", base(project, "Stop")).stderr
    guarded = hook(project, "stop", base(project, "Stop", stop_hook_active=True))
    assert "stop_hook_active is set" in guarded.stderr
    billing = str(project / "src" / "billing.py")
    edit = tool(project, "Edit", {"file_path": billing, "new_string": "return invoice.total()"})
    hook(project, "post-tool-use", edit)
    end = hook(project, "session-end", base(project, "SessionEnd", reason="exit"))
    assert end.stderr == (
        "memkit hook session-end: updated .memory/session-2026-11-22-5f1c2d3e.md (draft)\n"
    )
    text = draft.read_text()
    assert "- src/billing.py::charge\n" in text and "(`Invoice.total`, `charge`)" in text
    assert not (project / ".git" / "memkit" / "sessions" / f"{SID}.jsonl").exists()
    assert Store(project).validate() == []


def test_a_reviewed_draft_is_left_alone(project: Path) -> None:
    session(project)
    hook(project, "stop", base(project, "Stop"))
    draft = project / ".memory" / "session-2026-11-22-5f1c2d3e.md"
    draft.write_text(draft.read_text().replace("status: draft", "status: active"))
    before = draft.read_text()
    out = hook(project, "stop", base(project, "Stop"))
    assert out.stderr == (
        "memkit hook stop: .memory/session-2026-11-22-5f1c2d3e.md is no longer a draft: "
        "left as it is\n"
    )
    assert draft.read_text() == before


def test_nothing_worth_keeping(project: Path) -> None:
    hook(project, "post-tool-use", tool(project, "Read", {"file_path": "src/notes.txt"}))
    hook(project, "post-tool-use", tool(project, "Bash", {"command": "ls"}))
    out = hook(project, "session-end", base(project, "SessionEnd"))
    assert out.stderr == (
        f"memkit hook session-end: session {SID} edited no file and ran fewer than 3 "
        "commands: no episode saved\n"
    )
    assert Store(project).files() == []


BAD = [
    ("post-tool-use", "not json", "the hook input is not JSON"),
    ("post-tool-use", "[1]", "the hook input is not a JSON object"),
    ("post-tool-use", '{"tool_name": "Read", "tool_input": {"file_path": "a"}}',
     "the hook input has no session_id"),
    ("stop", '{"cwd": "/"}', "no .memory/ directory here or above"),
]  # fmt: skip


@pytest.mark.parametrize(("event", "raw", "message"), BAD)
def test_bad_input_never_blocks(project: Path, event: str, raw: str, message: str) -> None:
    out = hook(project, event, raw)
    assert out.stdout == ""
    assert out.stderr.startswith(f"memkit hook {event}: {message}")


def add(store: Store, title: str, **extra: Any) -> None:
    import datetime

    from memkit import memory as mm

    mem = mm.new(title, f"{title}: body.", mid=mm.slugify(title),
                 today=datetime.date(2026, 11, 22), **extra)  # fmt: skip
    store.add(mem)


def start_context(repo: Path, source: str) -> str:
    out = hook(repo, "session-start", base(repo, "SessionStart", source=source))
    if not out.stdout:
        return ""
    data = json.loads(out.stdout)
    assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    text: str = data["hookSpecificOutput"]["additionalContext"]
    assert len(text) <= 10_000
    return text


def test_session_start_injects_memories_not_in_claude_md(project: Path) -> None:
    store = Store(project)
    assert start_context(project, "startup") == ""
    add(store, "Use UTC everywhere")
    add(store, "Money is integer cents", pin=True)
    add(store, "Invoices are immutable", paths=["src/billing.py"])
    add(store, "Draft idea", status="draft")
    assert start_context(project, "startup") == (
        "# Project memories (memkit)\n\n"
        "From .memory/, reviewed in git; CLAUDE.md does not carry these. "
        "`memkit show ID` prints one in full.\n\n"
        "## Money is integer cents\n\n_note `money-is-integer-cents`_\n\n"
        "Money is integer cents: body.\n\n"
        "## Use UTC everywhere\n\n_note `use-utc-everywhere`_\n\n"
        "Use UTC everywhere: body.\n"
    )
    (project / "CLAUDE.md").write_text("# Acme\n\n@AGENTS.md\n", encoding="utf-8")
    (project / "AGENTS.md").write_text(
        "<!-- memkit:begin -->\n### Use UTC everywhere\n<!-- memkit:id=use-utc-everywhere -->\n"
        "<!-- memkit:end -->\n"
    )
    text = start_context(project, "clear")
    assert "Money is integer cents" in text and "Use UTC" not in text


def test_session_start_after_compact_adds_the_files_touched(project: Path) -> None:
    store = Store(project)
    add(store, "Invoices are immutable", paths=["src/billing.py"])
    add(store, "Charges go through the ledger", links=["src/billing.py::charge"])
    add(store, "Unrelated", paths=["docs/**"])
    hook(project, "post-tool-use", tool(project, "Read", {"file_path": "src/billing.py"}))
    assert start_context(project, "compact") == (
        "# Project memories (memkit)\n\n"
        "From .memory/, reviewed in git; CLAUDE.md does not carry these. "
        "`memkit show ID` prints one in full.\n\n"
        "## Charges go through the ledger\n\n_note `charges-go-through-the-ledger`_\n\n"
        "Charges go through the ledger: body.\n\n"
        "# Project memories for `src/billing.py`\n\n"
        "## Invoices are immutable\n\n"
        "_note `invoices-are-immutable`, about src/billing.py_\n\n"
        "Invoices are immutable: body.\n"
    )
    (project / "CLAUDE.md").write_text(
        "<!-- memkit:id=invoices-are-immutable -->\n"
        "<!-- memkit:id=charges-go-through-the-ledger -->\n"
    )
    assert start_context(project, "resume") == ""


# ------------------------------------------------------------------ installers


def test_install_mcp_merges_and_is_idempotent(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"db": {"command": "pg-mcp"}}}\n')
    assert install_mcp(tmp_path) == ["updated .mcp.json", "created .cursor/mcp.json"]
    assert install_mcp(tmp_path) == []
    assert json.loads((tmp_path / ".mcp.json").read_text()) == {
        "mcpServers": {
            "db": {"command": "pg-mcp"},
            "memkit": {"command": "memkit", "args": ["mcp"]},
        }
    }
    assert uninstall_mcp(tmp_path) == ["updated .mcp.json", "removed .cursor/mcp.json"]
    assert json.loads((tmp_path / ".mcp.json").read_text()) == {
        "mcpServers": {"db": {"command": "pg-mcp"}}
    }
    assert uninstall_mcp(tmp_path) == []


def test_install_claude_keeps_other_settings(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}
    settings.write_text(json.dumps({"model": "opus", "hooks": {"PostToolUse": [theirs]}}))
    assert install_claude(tmp_path) == ["updated .claude/settings.json"]
    assert install_claude(tmp_path) == []
    data = json.loads(settings.read_text())
    assert data["model"] == "opus"
    assert data["hooks"]["PostToolUse"][0] == theirs
    assert data["hooks"]["PostToolUse"][1] == {
        "matcher": "Read|Edit|MultiEdit|Write|NotebookEdit|Grep|Glob|Bash",
        "hooks": [{"type": "command", "command": "memkit-hook post-tool-use", "timeout": 10}],
    }
    assert data["hooks"]["SessionStart"] == [
        {
            "matcher": "startup|resume|clear|compact",
            "hooks": [{"type": "command", "command": "memkit-hook session-start", "timeout": 30}],
        }
    ]
    assert sorted(data["hooks"]) == ["PostToolUse", "SessionEnd", "SessionStart", "Stop"]
    assert uninstall_claude(tmp_path) == ["updated .claude/settings.json"]
    assert json.loads(settings.read_text()) == {"model": "opus", "hooks": {"PostToolUse": [theirs]}}
    assert uninstall_claude(tmp_path) == []


def test_uninstall_claude_removes_entries_of_earlier_versions(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    old = {"hooks": [{"type": "command", "command": "memkit hook stop", "timeout": 30}]}
    settings.write_text(json.dumps({"hooks": {"Stop": [old]}}))
    assert uninstall_claude(tmp_path) == ["removed .claude/settings.json"]


def test_install_refuses_broken_json(tmp_path: Path) -> None:
    from memkit.errors import MemkitError

    (tmp_path / ".mcp.json").write_text("{oops")
    with pytest.raises(MemkitError, match=r"^\.mcp\.json is not valid JSON \(.*\); fix it"):
        install_mcp(tmp_path)
    assert (tmp_path / ".mcp.json").read_text() == "{oops"


def test_hook_matcher_names_the_recorded_tools() -> None:
    from memkit.agent_hooks import TOOLS
    from memkit.agent_install import TOOL_MATCHER

    assert "|".join(TOOLS) == TOOL_MATCHER


def test_compiled_ids_follow_imports(tmp_path: Path) -> None:
    from memkit.session_context import compiled_ids

    (tmp_path / "CLAUDE.md").write_text("Intro\n\n@AGENTS.md\n<!-- memkit:id=one -->\n")
    (tmp_path / "AGENTS.md").write_text("## Two\n<!-- memkit:id=two -->\n\n@CLAUDE.md\n")
    assert compiled_ids(tmp_path) == {"one", "two"}


def test_lean_entry_point_records_the_same(project: Path) -> None:
    payload = tool(project, "Read", {"file_path": str(project / "src" / "notes.txt")})
    args = [sys.executable, "-m", "memkit.agent_hooks", "post-tool-use"]
    out = subprocess.run(
        args, input=json.dumps(payload), cwd=project, capture_output=True, text=True
    )
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "")
    journal = project / ".git" / "memkit" / "sessions" / f"{SID}.jsonl"
    assert journal.read_text() == '{"file": "src/notes.txt", "kind": "read"}\n'


def test_record_multi_edit_and_notebook(tmp_path: Path) -> None:
    from memkit.agent_hooks import record

    multi = {"tool_name": "MultiEdit", "tool_input": {"file_path": str(tmp_path / "a.py"),
             "edits": [{"old_string": "x", "new_string": "y = 2\nz = 3"}]}}  # fmt: skip
    assert record(multi, tmp_path) == {"kind": "edit", "file": "a.py", "snippet": "y = 2 …"}
    nb = {
        "tool_name": "NotebookEdit",
        "tool_input": {"notebook_path": "n.ipynb", "new_source": "1"},
    }
    assert record(nb, tmp_path) == {"kind": "edit", "file": "n.ipynb", "snippet": "1"}
    outside = {"tool_name": "Read", "tool_input": {"file_path": "../elsewhere.py"}}
    assert record(outside, tmp_path) is None


def test_old_journals_are_pruned(project: Path) -> None:
    import datetime
    import time

    from memkit.agent_hooks import prune_journals

    folder = project / ".git" / "memkit" / "sessions"
    folder.mkdir(parents=True)
    (folder / "old.jsonl").write_text("{}\n")
    (folder / "recent.jsonl").write_text("{}\n")
    month_ago = time.time() - 30 * 86400
    os.utime(folder / "old.jsonl", (month_ago, month_ago))
    prune_journals(project, keep_days=14, today=datetime.date.fromtimestamp(time.time()))
    assert sorted(p.name for p in folder.iterdir()) == ["recent.jsonl"]


def test_hooks_install_mcp_and_claude(run: Invoke, store: Store) -> None:
    pytest.importorskip("memkit.commands.hooks")
    out = run("hooks", "install", "--mcp", "--claude").stdout
    for line in ("created .mcp.json", "created .cursor/mcp.json", "created .claude/settings.json"):
        assert line in out
    again = run("hooks", "install", "--mcp", "--claude").stdout
    assert ".mcp.json" not in again and "settings.json" not in again
    settings = json.loads((store.root / ".claude" / "settings.json").read_text())
    assert sorted(settings["hooks"]) == ["PostToolUse", "SessionEnd", "SessionStart", "Stop"]
    out = run("hooks", "uninstall", "--mcp", "--claude").stdout
    for line in ("removed .mcp.json", "removed .cursor/mcp.json", "removed .claude/settings.json"):
        assert line in out


def test_the_first_prompt_names_the_episode(project: Path) -> None:
    transcript = project / ".claude" / f"{SID}.jsonl"
    transcript.parent.mkdir()
    entries = [
        {"type": "summary", "summary": "x"},
        {"type": "user", "isMeta": True, "message": {"role": "user", "content": "<caveat>"}},
        {"type": "user", "message": {"role": "user", "content": "<command-name>/clear"}},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "text", "text": "Fix rounding in invoice totals\nand add a test"}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": "On it."}},
    ]  # fmt: skip
    transcript.write_text("".join(json.dumps(e) + "\n" for e in entries))
    session(project)
    hook(project, "stop", base(project, "Stop"))
    mem = Store(project).get("session-2026-11-22-5f1c2d3e")
    assert mem.title == "Session: Fix rounding in invoice totals"
    assert mem.text.startswith("Asked: Fix rounding in invoice totals\n\nWhat Claude Code session")
