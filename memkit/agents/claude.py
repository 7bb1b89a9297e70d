"""Claude Code hook handlers: inject memories at session start, capture what a session did.

Each handler takes the hook's JSON payload (a dict) and returns the text to print.
PostToolUse runs after every tool call, so its path imports nothing heavy: it only
appends one compact JSON line, likely secrets already redacted, to
`sessions/<session>.jsonl` in memkit's private folder. Stop / SessionEnd turn that
journal into one draft `episode` memory. A payload that is not what Claude Code sends
gets one line on stderr and exit code 0, and nothing is written.
SessionStart's selection is in session_context.py, the draft in session_draft.py, and
the installers that register the hooks (and the MCP server) in agent_install.py.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.agents.register import (  # re-exported: `memkit hooks install` calls them
    install_claude,
    install_mcp,
    uninstall_claude,
    uninstall_mcp,
)
from memkit.clock import today

if TYPE_CHECKING:
    import datetime as dt

__all__ = [
    "install_claude",
    "install_mcp",
    "post_tool_use",
    "session_start",
    "stop",
    "uninstall_claude",
    "uninstall_mcp",
]
SESSIONS_DIR = "sessions"
JOURNAL_DAYS = 14  # journals of sessions that never ended are deleted after this
MAX_FIELD = 300  # characters kept per command, pattern or snippet
SCAN_CHARS = 8192  # of a value's first line, redacted before it is cut (bounds the work)
SCAN_MARGIN = 512  # dropped from a longer line's window: it may end inside a secret
# tool name -> (kind, input key holding the file or pattern)
TOOLS: dict[str, tuple[str, str]] = {
    "Read": ("read", "file_path"),
    "Edit": ("edit", "file_path"),
    "MultiEdit": ("edit", "file_path"),
    "Write": ("write", "file_path"),
    "NotebookEdit": ("edit", "notebook_path"),
    "Grep": ("search", "pattern"),
    "Glob": ("search", "pattern"),
    "Bash": ("command", "command"),
}


class HookInputError(Exception):
    """The payload is not what Claude Code sends; the handler says why and exits 0."""


EVENTS = ("session-start", "post-tool-use", "stop", "session-end")


def handle(event: str, raw: bytes | str, clock: Callable[[], dt.date]) -> tuple[str, str]:
    """(stdout, stderr) of one hook call. Never raises: the agent must go on regardless.

    stderr is at most one line (control characters escaped).
    """
    try:
        payload = parse_payload(raw)
        if event == "post-tool-use":
            return "", one_line(post_tool_use(payload))
        if event == "session-start":
            return session_start(payload, today=clock()), ""
        return "", one_line(stop(payload, today=clock(), end=event == "session-end"))
    except Exception as e:
        return "", one_line(str(e) or type(e).__name__)


def one_line(text: str) -> str:
    """`text` with line breaks and other control characters escaped."""
    return re.sub(r"[\x00-\x1f\x7f\x85\u2028\u2029]", lambda m: repr(m.group())[1:-1], text)


def main(argv: list[str] | None = None) -> int:
    """`memkit-hook EVENT` (or `python -m memkit.agents.claude EVENT`): the handlers
    without the CLI's start-up cost. `memkit hook EVENT` runs the same handlers."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in EVENTS:
        print(f"usage: memkit-hook {{{','.join(EVENTS)}}}", file=sys.stderr)
        return 0
    out, err = handle(args[0], sys.stdin.buffer.read(), today)
    if out:
        print(out)
    if err:
        print(f"memkit hook {args[0]}: {err}", file=sys.stderr)
    return 0


def parse_payload(raw: bytes | str) -> dict[str, Any]:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            where = f"byte at offset {e.start}"
            raise HookInputError(f"the hook input is not UTF-8 ({where})") from None
    try:
        data = json.loads(raw)
    except RecursionError:
        raise HookInputError("the hook input is not JSON (nested too deeply)") from None
    except ValueError as e:
        raise HookInputError(f"the hook input is not JSON ({e})") from None
    if not isinstance(data, dict):
        raise HookInputError("the hook input is not a JSON object")
    return data


def find_root(payload: Mapping[str, Any]) -> Path | None:
    """The project holding .memory/: MEMKIT_ROOT, else the nearest parent of the payload's cwd."""
    from memkit.walk import ROOT_ENV, find_up

    cwd = payload.get("cwd")
    if cwd is None:
        cwd = os.getcwd()
    if not os.environ.get(ROOT_ENV) and (
        not isinstance(cwd, str) or not os.path.isabs(cwd) or "\x00" in cwd
    ):
        raise HookInputError("the hook input's cwd is not an absolute path")
    found = find_up(cwd)
    return Path(found) if found else None


def session_id(payload: Mapping[str, Any]) -> str:
    sid = payload.get("session_id")
    if not isinstance(sid, str) or not sid:
        raise HookInputError("the hook input has no session_id")
    return sid


def sessions_dir(root: Path) -> Path:
    """Where session journals live: memkit's private folder (memkit.cachedir)."""
    from memkit.cachedir import cache_dir

    return Path(cache_dir(str(root))) / SESSIONS_DIR


def journal_path(root: Path, sid: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", sid)[:100].lstrip(".") or "session"
    return sessions_dir(root) / f"{safe}.jsonl"


def redact(text: str) -> str:
    """`text` with every likely secret replaced by `[REDACTED]`, private key blocks whole."""
    from memkit.secrets import redact as redact_secrets

    return redact_secrets(text)


def redacted_first_line(value: Any) -> tuple[str, bool]:
    """(the first line of `value` with likely secrets redacted, whether text was left out).

    Only the first SCAN_CHARS characters of the line are looked at; from a longer
    line the last SCAN_MARGIN characters of that window are dropped too, since a
    secret cut there might no longer be recognised.
    """
    text = str(value).strip()
    lines = text[: SCAN_CHARS + 1].splitlines()
    first = lines[0] if lines else ""
    clean = redact(first[:SCAN_CHARS])
    if len(first) > SCAN_CHARS:
        clean = clean[: max(0, len(clean) - SCAN_MARGIN)]
    return clean, len(first) < len(text) or len(first) > SCAN_CHARS


def redact_then_cut(value: Any, limit: int = MAX_FIELD) -> str:
    """The first line of `value`, likely secrets redacted, then cut to `limit` characters
    (` …` marks a cut). Redacting first: a cut never leaves part of a secret behind."""
    clean, more = redacted_first_line(value)
    if more or len(clean) > limit:
        return clean[:limit] + " …"
    return clean


def _relative(root: Path, value: Any) -> str | None:
    """A path inside the project, relative and with forward slashes; None outside it."""
    if not isinstance(value, str) or not value:
        return None
    rel = os.path.relpath(os.path.join(root, value), root)
    if rel == os.curdir or rel.startswith(os.pardir):
        return None
    return rel.replace(os.sep, "/")


def record(payload: Mapping[str, Any], root: Path) -> dict[str, str] | None:
    """The journal line for one PostToolUse payload, or None for tools not worth a line."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or tool not in TOOLS:
        return None
    kind, key = TOOLS[tool]
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, Mapping):
        raise HookInputError(f"the {tool} payload has no tool_input object")
    value = tool_input.get(key)
    if not isinstance(value, str):
        raise HookInputError(f"the {tool} payload's tool_input has no {key} string")
    if kind in ("command", "search"):
        if not value:
            return None
        rec = {"kind": kind, "text": redact_then_cut(value)}
        where = _relative(root, tool_input.get("path"))
        if where:
            rec["path"] = where
        return rec
    rel = _relative(root, value)
    if rel is None or rel.startswith(".memory/"):
        return None
    rec = {"kind": kind, "file": rel}
    edits = tool_input.get("edits")
    first = edits[0] if isinstance(edits, list) and edits and isinstance(edits[0], dict) else {}
    snippet = (
        tool_input.get("new_string")
        or tool_input.get("content")
        or tool_input.get("new_source")
        or first.get("new_string")
    )
    if kind != "read" and isinstance(snippet, str) and snippet.strip():
        rec["snippet"] = redact_then_cut(snippet)
    return rec


def post_tool_use(payload: Mapping[str, Any]) -> str:
    """Append one line to the session's journal; the returned text goes to stderr."""
    root = find_root(payload)
    if root is None:
        return "no .memory/ directory here or above; nothing recorded (run `memkit init`)"
    rec = record(payload, root)
    if rec is None:
        return ""
    path = journal_path(root, session_id(payload))
    line = (json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)  # one O_APPEND write: concurrent hooks never interleave lines
    finally:
        os.close(fd)
    return ""


def read_journal(path: Path) -> list[dict[str, str]]:
    """The journal's records; unreadable lines (a crash mid-write) are skipped.

    Text is redacted again: journals written by earlier versions were not.
    """
    out = []
    for line in path.read_text("utf-8", errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("kind"), str):
            out.append({k: redact(v) if isinstance(v, str) else str(v) for k, v in rec.items()})
    return out


# --------------------------------------------------------------- stop / session end


def stop(payload: Mapping[str, Any], *, today: dt.date, end: bool = False) -> str:
    """Turn the session's journal into one draft episode memory; say what happened.

    `end` (SessionEnd) also deletes the journal: the session is over.
    """
    if payload.get("stop_hook_active"):
        return "stop_hook_active is set: already continuing after a stop hook, nothing to do"
    root = find_root(payload)
    if root is None:
        return "no .memory/ directory here or above; no episode saved (run `memkit init`)"
    sid = session_id(payload)
    journal = journal_path(root, sid)
    if not journal.exists():
        return f"no journal for session {sid}: nothing to save"
    import dataclasses

    from memkit.agents.drafts import first_prompt, save_episode, summarise
    from memkit.store import Store

    transcript = payload.get("transcript_path")
    asked = first_prompt(transcript if isinstance(transcript, str) else None)
    summary = dataclasses.replace(summarise(root, read_journal(journal)), asked=asked)
    message = save_episode(Store(root), summary, sid, today=today)
    if end or payload.get("hook_event_name") == "SessionEnd":
        journal.unlink(missing_ok=True)
    return message


# --------------------------------------------------------------- session start


def prune_journals(root: Path, *, keep_days: int, today: dt.date) -> None:
    """Delete the journals of sessions that ended without a SessionEnd long ago."""
    import datetime

    try:
        entries = list(os.scandir(sessions_dir(root)))
    except OSError:
        return
    for e in entries:
        if not (e.name.endswith(".jsonl") and e.is_file(follow_symlinks=False)):
            continue
        age = today - datetime.date.fromtimestamp(e.stat(follow_symlinks=False).st_mtime)
        if age.days > keep_days:
            Path(e.path).unlink(missing_ok=True)


def session_start(payload: Mapping[str, Any], *, today: dt.date) -> str:
    """The SessionStart JSON output: relevant memories, minus those already in CLAUDE.md."""
    root = find_root(payload)
    if root is None:
        return ""
    from memkit.store import Store

    store = Store(root)
    files: list[str] = []
    prune_journals(root, keep_days=JOURNAL_DAYS, today=today)
    sid = payload.get("session_id")
    journal = journal_path(root, sid if isinstance(sid, str) else "")
    if sid and isinstance(sid, str) and journal.exists():  # resume / compact: what it touched
        files = sorted({r["file"] for r in read_journal(journal) if "file" in r})
    from memkit.agents.session_start import context_text

    text = context_text(store, files=files, today=today)
    if not text:
        return ""
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return json.dumps(out, ensure_ascii=False)


if __name__ == "__main__":
    sys.exit(main())
