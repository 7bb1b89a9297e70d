"""Claude Code hooks (memkit.agents.claude.hook), called as `memkit claude-hook` calls them.

`hook()` runs the entry point's own function (memkit.agents.claude.hook.handle) in this process,
in the project's folder with the date pinned, and prints what it gives as the command
does; `hook(..., process=True)` and the tests at the end run real processes (the
command, `memkit-hook`, `python -m memkit.agents.claude`), so the launchers are proven
end to end.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Invoke, in_project

from memkit.store import Store
from memkit.validation import validate

SID = "5f1c2d3e-aaaa-bbbb-cccc-0123456789ab"


def hook(
    repo: Path, event: str, payload: dict[str, Any] | str, *, process: bool = False
) -> subprocess.CompletedProcess[str]:
    """`memkit claude-hook EVENT` as Claude Code runs it: JSON on stdin, cwd in the project."""
    raw = payload if isinstance(payload, str) else json.dumps(payload)
    args = [sys.executable, "-m", "memkit", "claude-hook", event]
    if process:
        env = {**os.environ, "MEMKIT_TODAY": "2026-11-22"}
        out = subprocess.run(args, input=raw, cwd=repo, capture_output=True, text=True, env=env)
        assert out.returncode == 0, out.stderr
        return out
    from memkit.agents.claude.hook import handle

    with in_project(repo):
        said, err = handle(event, raw.encode("utf-8"))
    return subprocess.CompletedProcess(
        args, 0, said + "\n" if said else "", err + "\n" if err else ""
    )


def base(repo: Path, event: str, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": SID,
        "transcript_path": str(repo / ".claude" / f"{SID}.jsonl"),
        "cwd": str(repo),
        "hook_event_name": event,
        **extra,
    }


def tool(repo: Path, name: str, tool_input: dict[str, Any], response: Any = None) -> dict[str, Any]:
    return base(
        repo,
        "PostToolUse",
        tool_name=name,
        tool_input=tool_input,
        tool_response=response or {"success": True},
    )


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
        first = "notes.txt" in str(payload["tool_input"])  # one real process per session
        assert hook(repo, "post-tool-use", payload, process=first).stderr == ""


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
        {"kind": "command", "text": "export GITHUB_TOKEN=[REDACTED]"},  # redacted as written
    ]


def secret_spans(text: str) -> list[str]:
    """The parts of `text` that redaction replaces: the secrets themselves."""
    from memkit.secrets import redact

    *pieces, last = redact(text).split("[REDACTED]")
    spans, pos = [], len(pieces[0])
    for piece in [*pieces[1:], last]:
        end = len(text) - len(last) if piece is last else text.index(piece, pos)
        spans.append(text[pos:end])
        pos = end + len(piece)
    return spans


def journal_text(repo: Path) -> str:
    return (repo / ".git" / "memkit" / "sessions" / f"{SID}.jsonl").read_text()


def test_secrets_are_redacted_before_they_are_cut(project: Path) -> None:
    """Each secret straddles the 300-character cut: none of it may reach the journal or draft."""
    from memkit.agents.claude.hook import handle
    from memkit.agents.claude.journal import MAX_FIELD
    from tests.secretscan.corpus import secrets

    def today() -> dt.date:
        return dt.date(2026, 11, 22)

    tells = {}  # kind -> the 8 characters of the secret just before the cut
    for kind, text in secrets():
        if "\n" in text:
            continue  # key blocks: see test_private_key_blocks_are_redacted_whole
        span = max(secret_spans(text), key=len)
        middle = text.index(span) + len(span) // 2
        command = "x" * (MAX_FIELD - middle - 1) + " " + text  # the cut halves the secret
        for name, tool_input in (
            ("Bash", {"command": command}),
            ("Grep", {"pattern": command}),
            ("Edit", {"file_path": "src/billing.py", "new_string": command}),
        ):
            # In process (the handler `memkit claude-hook` runs): 400 interpreters took a minute.
            handle("post-tool-use", json.dumps(tool(project, name, tool_input)), today)
        tells[kind] = text[middle - 8 : middle]
    hook(project, "stop", base(project, "Stop"))
    journal = journal_text(project)
    draft = (project / ".memory" / "session-2026-11-22-5f1c2d3e.md").read_text()
    assert journal.count("[REDAC") > len(tells)  # (a cut may also fall before the value)
    assert [kind for kind, tell in tells.items() if tell in journal or tell in draft] == []


PGP_BODY = ["lQOYBGZx1p0BCADJ8mYc2zq4v0T0b9bC4b0LhZt3K1", "Pq0a8W7xG2vYc9rN6mE5u3Lk1J0hF", "=Xk3q"]


def pgp_block() -> str:
    begin, end = (
        "-----BEGIN PGP PRIV" + "ATE KEY BLOCK-----",
        "-----END PGP PRIV" + "ATE KEY BLOCK-----",
    )
    return "\n".join([begin, "", *PGP_BODY, end])


def test_private_key_blocks_are_redacted_whole(project: Path) -> None:
    from memkit.agents.claude.journal import redact_then_cut
    from memkit.secrets import redact

    block = pgp_block()
    assert redact(f"before\n{block}\nafter") == "before\n[REDACTED]\nafter"
    assert redact("key: " + block.replace("\n", " ")[:120]) == "key: [REDACTED]"  # cut short
    assert redact_then_cut(block) == "[REDACTED] …"
    one_line = block.replace("\n", "\\n")
    hook(project, "post-tool-use", tool(project, "Bash", {"command": f"printf '{one_line}' | gpg"}))
    hook(
        project,
        "post-tool-use",
        tool(project, "Write", {"file_path": "src/k.asc", "content": block}),
    )
    (project / "src" / "k.asc").write_text(block)
    hook(project, "stop", base(project, "Stop"))
    written = (
        journal_text(project)
        + (project / ".memory").joinpath("session-2026-11-22-5f1c2d3e.md").read_text()
    )
    assert not [part for part in PGP_BODY if part in written]
    assert "printf '[REDACTED]' | gpg" in written


def test_stop_saves_one_draft_episode(project: Path) -> None:
    session(project)
    out = hook(project, "stop", base(project, "Stop", stop_hook_active=False), process=True)
    assert out.stderr == "memkit hook stop: saved .memory/session-2026-11-22-5f1c2d3e.md (draft)\n"
    assert json.loads(out.stdout) == {
        "systemMessage": "memkit saved a draft of what this "
        "session did: .memory/session-2026-11-22-5f1c2d3e.md (`memkit approve`)"
    }
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
        "Review: replace this list with what was learned and why it matters, then "
        "`memkit approve ID`; or `memkit approve --reject ID` if nothing is worth keeping.\n\n"
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
    assert validate(Store(project)) == []


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


READ = {"session_id": SID, "tool_name": "Read", "tool_input": {"file_path": "src/notes.txt"}}
BAD: list[tuple[str, str | bytes | dict[str, Any], str]] = [
    ("post-tool-use", "not json", "the hook input is not JSON"),
    ("post-tool-use", "", "the hook input is not JSON"),
    ("post-tool-use", b"\xff\xfe{}", "the hook input is not UTF-8 (byte at offset 0)"),
    ("post-tool-use", "[1]", "the hook input is not a JSON object"),
    ("post-tool-use", "null", "the hook input is not a JSON object"),
    ("post-tool-use", "[" * 100_000, "the hook input is not JSON (nested too deeply)"),
    ("post-tool-use", '{"tool_name": "Read", "tool_input": {"file_path": "a"}}',
     "the hook input has no session_id"),
    ("post-tool-use", {**READ, "session_id": 7}, "the hook input has no session_id"),
    ("post-tool-use", {**READ, "cwd": 42}, "the hook input's cwd is not an absolute path"),
    ("post-tool-use", {**READ, "cwd": "src"}, "the hook input's cwd is not an absolute path"),
    ("post-tool-use", {**READ, "cwd": "/tmp/\x00x"}, "the hook input's cwd is not an absolute"),
    ("post-tool-use", {**READ, "cwd": "/nonexistent/place"}, "no .memory/ directory here"),
    ("post-tool-use", {**READ, "tool_input": "src/a.py"}, "the Read payload has no tool_input"),
    ("post-tool-use", {**READ, "tool_input": {"file_path": ["a"]}},
     "the Read payload's tool_input has no file_path string"),
    ("post-tool-use", {**READ, "tool_name": "Bash", "tool_input": {"command": {"x": 1}}},
     "the Bash payload's tool_input has no command string"),
    ("session-start", "[]", "the hook input is not a JSON object"),
    ("session-start", {"session_id": SID, "cwd": ["/"]}, "the hook input's cwd is not"),
    ("stop", '{"cwd": "/"}', "no .memory/ directory here or above"),
    ("stop", {"session_id": "a\nb\rc\u2028d", "hook_event_name": "Stop"},
     "no journal for session a\\nb\\rc\\u2028d: nothing to save"),
    ("session-end", {"session_id": ["x"]}, "the hook input has no session_id"),
]  # fmt: skip


def tree(*roots: Path) -> dict[str, tuple[int, int]]:
    """Every file (size, mtime) and folder under `roots`, but memkit's private folder."""
    out = {}
    for root in roots:
        for path in [root, *root.rglob("*")]:
            if ".git/memkit" not in path.as_posix():
                st = path.lstat()
                out[str(path)] = (0, 0) if path.is_dir() else (st.st_size, st.st_mtime_ns)
    return out


LAUNCHERS = (["memkit", "claude-hook"], ["memkit", "hook"], ["memkit.agents.claude"])


@pytest.mark.parametrize(("event", "raw", "message"), BAD)
def test_bad_input_never_blocks(
    project: Path, event: str, raw: str | bytes | dict[str, Any], message: str
) -> None:
    """Whatever arrives: one line on stderr, nothing on stdout, nothing written but
    memkit's own; the entry point's function and the full handlers alike."""
    from memkit.agents.claude.hook import handle
    from memkit.clock import today

    if isinstance(raw, dict):
        raw = json.dumps({"cwd": str(project), **raw})
    data = raw if isinstance(raw, bytes) else raw.encode()
    home = Path(os.environ["HOME"])
    before = tree(project, home)
    with in_project(project):
        for out, err in (handle(event, data), handle(event, data, today)):
            assert out == "", out
            assert err.startswith(f"memkit hook {event}: {message}") and "\n" not in err, err
    assert tree(project, home) == before


@pytest.mark.parametrize(("event", "raw", "message"), [BAD[i] for i in (0, 2, 5, 15, 17)])
def test_bad_input_never_blocks_a_real_process(
    project: Path, event: str, raw: str | bytes | dict[str, Any], message: str
) -> None:
    """Every launcher as a real process: exit 0, stdout empty, one line on stderr."""
    data = raw if isinstance(raw, bytes) else str(raw).encode()
    home = Path(os.environ["HOME"])
    before = tree(project, home)
    for args in LAUNCHERS:
        cmd = [sys.executable, "-m", *args, event]
        out = subprocess.run(cmd, input=data, cwd=project, capture_output=True, timeout=60)
        assert (out.returncode, out.stdout) == (0, b""), out.stderr
        err = out.stderr.decode()
        assert err.startswith(f"memkit hook {event}: {message}") and err.count("\n") == 1, err
    assert tree(project, home) == before


def test_odd_session_ids_stay_in_the_private_folder(project: Path) -> None:
    home = Path(os.environ["HOME"])
    before = tree(project, home, project.parent)
    for sid in ("../../../../escape", "/tmp/abs", "..", "a/../../b", "x" * 500, "\x00"):
        payload = {**tool(project, "Read", {"file_path": "src/notes.txt"}), "session_id": sid}
        assert hook(project, "post-tool-use", payload).stderr == ""
    assert tree(project, home, project.parent) == before
    journals = sorted(p.name for p in (project / ".git" / "memkit" / "sessions").iterdir())
    names = ["_.._.._.._escape", "_tmp_abs", "session", "a_.._.._b", "x" * 100, "_"]
    assert journals == sorted(f"{name}.jsonl" for name in names)


def test_a_transcript_that_never_ends_is_not_read(project: Path) -> None:
    session(project)
    fifo = project / "fifo"
    os.mkfifo(fifo)
    for transcript in ("/dev/zero", str(fifo), str(project), "relative.jsonl", 5):
        payload = base(project, "Stop", transcript_path=transcript)
        out = hook(project, "stop", payload)  # would hang on /dev/zero or the FIFO
        assert "(draft)" in out.stderr or "is up to date" in out.stderr


def test_agent_status_active_is_refused_by_the_hook(project: Path) -> None:
    (project / ".memory" / "config.toml").write_text('[memories]\nagent_status = "active"\n')
    session(project)
    out = hook(project, "stop", base(project, "Stop"))
    assert out.stderr == (
        f"memkit hook stop: {project / '.memory' / 'config.toml'}: [memories] agent_status = "
        "'active' is no longer supported: agents always save drafts, which a person makes "
        "active with `memkit approve ID`; remove the key (and any "
        "MEMKIT_MEMORIES_AGENT_STATUS)\n"
    )
    assert Store(project).files() == []


def add(store: Store, title: str, **extra: Any) -> None:
    import datetime

    from memkit import memory as mm

    mem = mm.new(
        title, f"{title}: body.", mid=mm.slugify(title), today=datetime.date(2026, 11, 22), **extra
    )
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


def test_lean_entry_point_records_the_same(project: Path) -> None:
    payload = tool(project, "Read", {"file_path": str(project / "src" / "notes.txt")})
    args = [sys.executable, "-m", "memkit.agents.claude", "post-tool-use"]
    out = subprocess.run(
        args, input=json.dumps(payload), cwd=project, capture_output=True, text=True
    )
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "")
    journal = project / ".git" / "memkit" / "sessions" / f"{SID}.jsonl"
    assert journal.read_text() == '{"file": "src/notes.txt", "kind": "read"}\n'


def test_record_multi_edit_and_notebook(tmp_path: Path) -> None:
    from memkit.agents.claude.payload import record

    multi = {
        "tool_name": "MultiEdit",
        "tool_input": {
            "file_path": str(tmp_path / "a.py"),
            "edits": [{"old_string": "x", "new_string": "y = 2\nz = 3"}],
        },
    }
    assert record(multi, tmp_path) == {"kind": "edit", "file": "a.py", "snippet": "y = 2 …"}
    nb = {
        "tool_name": "NotebookEdit",
        "tool_input": {"notebook_path": "n.ipynb", "new_source": "1"},
    }
    assert record(nb, tmp_path) == {"kind": "edit", "file": "n.ipynb", "snippet": "1"}
    outside = {"tool_name": "Read", "tool_input": {"file_path": "../elsewhere.py"}}
    assert record(outside, tmp_path) is None


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


def test_a_title_is_the_first_line_of_what_was_asked() -> None:
    """A prompt of several lines (a pasted key, a log) still gives a one-line title."""
    from memkit.agents.claude.drafts import Summary, render

    asked = "  Fix rounding\nin invoice totals\n"
    summary = Summary(read=(), edited=(), commands=(), searches=(), symbols=(), asked=asked)
    title, body = render(summary, "s1")
    assert title == "Session: Fix rounding …"
    assert body.startswith(f"Asked: {asked}")
    one = Summary(read=(), edited=(), commands=(), searches=(), symbols=(), asked="x" * 150)
    assert render(one, "s1")[0] == f"Session: {'x' * 100} …"


def test_claude_hook_is_listed_and_hook_is_a_hidden_alias(run: Invoke) -> None:
    """`memkit hook` (what earlier settings run) sat next to `memkit hooks` (git) in --help."""
    listed = [line.split()[0] for line in run("--help").stdout.splitlines() if line[:2] == "  "]
    assert "claude-hook" in listed and "hooks" in listed and "hook" not in listed
    assert "Same as `memkit claude-hook`." in run("hook", "--help").stdout


def test_the_draft_leads_with_what_the_session_concluded(project: Path) -> None:
    session(project)
    said = "Totals were rounded twice.\n\nRounding now happens once, in `Invoice.total`."
    hook(project, "stop", base(project, "Stop", last_assistant_message=said))
    body = Store(project).get("session-2026-11-22-5f1c2d3e").body.lstrip()
    assert body.startswith(f"Concluded:\n\n{said}\n\nWhat Claude Code session")
    again = hook(project, "stop", base(project, "Stop", last_assistant_message=said + " Done."))
    assert again.stdout == "" and "updated .memory/session-2026-11-22-5f1c2d3e.md" in again.stderr
    assert len(Store(project).files()) == 1  # one draft per session, updated


def test_the_conclusion_comes_from_the_transcript_when_the_payload_has_none(project: Path) -> None:
    session(project)
    transcript = project / ".claude" / f"{SID}.jsonl"
    transcript.parent.mkdir(exist_ok=True)
    lines = [
        {"type": "user", "message": {"role": "user", "content": "Fix the totals"}},
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [{"type": "text", "text": "Fixed: totals round once."}],
            },
        },
    ]
    transcript.write_text("".join(json.dumps(x) + "\n" for x in lines))
    hook(project, "stop", base(project, "Stop"))
    body = Store(project).get("session-2026-11-22-5f1c2d3e").body.lstrip()
    assert body.startswith("Concluded:\n\nFixed: totals round once.\n\nAsked: Fix the totals\n")


@pytest.mark.parametrize("sid", ["01J5XKQ7ZK3N9V8W6Y4T2R0PMA", "0001c0de-adv-session-1"])
def test_stop_saves_a_draft_for_a_session_id_that_looks_random(project: Path, sid: str) -> None:
    """A ULID or an id with a random part is not a secret: the draft is saved, it passes
    `memkit validate`, and the next Stop finds the same draft again."""
    f = str(project / "src" / "billing.py")
    edit = {"file_path": f, "old_string": "sum(self.lines)", "new_string": "0"}
    for payload in (tool(project, "Edit", edit), tool(project, "Bash", {"command": "ls"})):
        hook(project, "post-tool-use", {**payload, "session_id": sid})
    stop = {**base(project, "Stop"), "session_id": sid}
    out = hook(project, "stop", stop)
    assert "(draft)" in out.stderr and "refusing" not in out.stderr, out.stderr
    assert validate(Store(project)) == []
    assert "is up to date" in hook(project, "stop", stop).stderr
