"""Claude Code hook handlers: inject memories at session start, capture what a session did.

Each handler takes the hook's JSON payload (a dict) and returns the text to print.
PostToolUse runs after every tool call, so its path imports nothing heavy: it only
appends one compact JSON line to `.memory/.cache/sessions/<session>.jsonl`.
Stop / SessionEnd turn that journal into one draft `episode` memory.
The installers that register them (and the MCP server) live in agent_install.py.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.agent_install import (  # re-exported: `memkit hooks install` calls them
    install_claude,
    install_mcp,
    uninstall_claude,
    uninstall_mcp,
)

if TYPE_CHECKING:
    import datetime as dt

    from memkit.store import Store

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
CONTEXT_CHARS = 10_000  # what Claude Code accepts as SessionStart additionalContext
JOURNAL_DAYS = 14  # journals of sessions that never ended are deleted after this
MAX_FIELD = 300  # characters kept per command, pattern or snippet
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


def handle(event: str, raw: str, clock: Callable[[], dt.date]) -> tuple[str, str]:
    """(stdout, stderr) of one hook call. Never raises: the agent must go on regardless."""
    try:
        payload = parse_payload(raw)
        if event == "post-tool-use":
            return "", post_tool_use(payload)
        if event == "session-start":
            return session_start(payload, today=clock()), ""
        return "", stop(payload, today=clock(), end=event == "session-end")
    except Exception as e:
        return "", str(e) or type(e).__name__


def main(argv: list[str] | None = None) -> int:
    """`python -m memkit.agent_hooks EVENT`: the handlers without the CLI's start-up cost."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in EVENTS:
        print(f"usage: python -m memkit.agent_hooks {{{','.join(EVENTS)}}}", file=sys.stderr)
        return 0
    out, err = handle(args[0], sys.stdin.read(), _today)
    if out:
        print(out)
    if err:
        print(f"memkit hook {args[0]}: {err}", file=sys.stderr)
    return 0


def _today() -> dt.date:
    import datetime

    pinned = os.environ.get("MEMKIT_TODAY")
    return datetime.date.fromisoformat(pinned) if pinned else datetime.date.today()


def parse_payload(raw: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise HookInputError(f"the hook input is not JSON ({e})") from None
    if not isinstance(data, dict):
        raise HookInputError("the hook input is not a JSON object")
    return data


def find_root(payload: Mapping[str, Any]) -> Path | None:
    """The project holding .memory/: MEMKIT_ROOT, else the nearest parent of the payload's cwd."""
    env = os.environ.get("MEMKIT_ROOT")
    if env:
        return Path(env).resolve()
    here = Path(str(payload.get("cwd") or os.getcwd())).resolve()
    for d in (here, *here.parents):
        if os.path.isdir(d / ".memory"):
            return d
    return None


def session_id(payload: Mapping[str, Any]) -> str:
    sid = payload.get("session_id")
    if not isinstance(sid, str) or not sid:
        raise HookInputError("the hook input has no session_id")
    return sid


def journal_path(root: Path, sid: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", sid)[:100].lstrip(".") or "session"
    return root / ".memory" / ".cache" / SESSIONS_DIR / f"{safe}.jsonl"


def _short(value: Any) -> str:
    text = str(value).strip()
    first = text.splitlines()[0] if text else ""
    if len(first) > MAX_FIELD or first != text:
        return first[:MAX_FIELD] + " …"
    return first


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
    if kind in ("command", "search"):
        if not value:
            return None
        rec = {"kind": kind, "text": _short(value)}
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
        rec["snippet"] = _short(snippet.strip())
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
    """The journal's records; unreadable lines (a crash mid-write) are skipped."""
    out = []
    for line in path.read_text("utf-8", errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("kind"), str):
            out.append({k: str(v) for k, v in rec.items()})
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
    from memkit.session_draft import save_episode, summarise
    from memkit.store import Store

    summary = summarise(root, read_journal(journal))
    message = save_episode(Store(root), summary, sid, today=today)
    if end or payload.get("hook_event_name") == "SessionEnd":
        journal.unlink(missing_ok=True)
    return message


# --------------------------------------------------------------- session start


def prune_journals(root: Path, *, keep_days: int, today: dt.date) -> None:
    """Delete the journals of sessions that ended without a SessionEnd long ago."""
    import datetime

    folder = root / ".memory" / ".cache" / SESSIONS_DIR
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        age = today - datetime.date.fromtimestamp(e.stat().st_mtime)
        if e.name.endswith(".jsonl") and age.days > keep_days:
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
    journal = journal_path(root, str(payload.get("session_id") or ""))
    if payload.get("session_id") and journal.exists():  # resume / compact: what it touched
        files = sorted({r["file"] for r in read_journal(journal) if "file" in r})
    text = context_text(store, files=files, today=today)
    if not text:
        return ""
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return json.dumps(out, ensure_ascii=False)


def compiled_ids(root: Path) -> set[str]:
    """Ids of the memories compiled in full into what Claude Code loads at startup.

    Reads the `<!-- memkit:id=ID -->` provenance lines of CLAUDE.md (and
    .claude/CLAUDE.md), following their `@file` imports as Claude Code does.
    """
    ids: set[str] = set()
    todo = [(root / "CLAUDE.md", 0), (root / ".claude" / "CLAUDE.md", 0)]
    seen: set[Path] = set()
    while todo:
        path, depth = todo.pop()
        if path in seen or depth > 5:
            continue
        seen.add(path)
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        ids.update(re.findall(r"<!-- memkit:id=([a-z0-9-]+) -->", text))
        for target in re.findall(r"^@([^\s]+)[ \t]*$", text, re.MULTILINE):
            todo.append(((path.parent / os.path.expanduser(target)).resolve(), depth + 1))
    return ids


def context_text(store: Store, *, files: list[str], today: dt.date) -> str:
    """Markdown of the memories relevant to a session, within CONTEXT_CHARS.

    The always-on memories CLAUDE.md does not already carry in full, then (on resume
    or compact) the memories about the files the session touched; stale ones marked.
    """
    from memkit.mcp_server import _core, status_source
    from memkit.memory import TYPES

    skip = compiled_ids(store.root)
    statuses = status_source(store, today)
    always = sorted(
        (m for m in store.memories() if _live(m, today) and not m.paths and m.id not in skip),
        key=lambda m: (not m.pin, -m.priority, TYPES.index(m.type), m.id),  # as compiled
    )
    marks = statuses([m.id for m in always]) if always else {}
    head = (
        "# Project memories (memkit)\n\nFrom .memory/, reviewed in git; CLAUDE.md does not "
        "carry these. `memkit show ID` prints one in full.\n"
    )
    parts, left_out, size = [head], [], len(head)
    room = CONTEXT_CHARS * 3 // 4 if files else CONTEXT_CHARS - 200  # keep room for files
    for m in always:
        ms = marks.get(m.id)
        stale = f"\n> **Possibly out of date**: {ms.describe()}\n" if ms and ms.stale else ""
        block = f"\n## {m.title}\n\n_{m.type} `{m.id}`_\n{stale}\n{m.text}\n"
        if size + len(block) > room:
            left_out.append(m.id)
        else:
            parts.append(block)
            size += len(block)
    if files:
        budget = (CONTEXT_CHARS - size - 200) // 4
        ctx = _core("memkit.context", "build_context")(
            store, files=files, query=None, budget_tokens=budget, exclude_always_on=True,
            today=today, statuses=statuses,
        )  # fmt: skip
        more = str(ctx.to_markdown())
        if more and size + len(more) < CONTEXT_CHARS - 200:
            parts.append("\n" + more)
    if left_out:
        parts.append(f"\n_Left out for size: {', '.join(left_out)}._\n")
    return "".join(parts) if len(parts) > 1 else ""


def _live(m: Any, today: dt.date) -> bool:
    return bool(m.status == "active" and not m.superseded_by and not m.expired(today))


if __name__ == "__main__":
    sys.exit(main())
