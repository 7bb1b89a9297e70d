"""Claude Code hook handlers: inject memories at session start, capture what a session did.

Each handler takes the hook's JSON payload (a dict) and returns the text to print.
PostToolUse runs after every tool call, so its path imports nothing heavy: it only
appends one compact JSON line to `.memory/.cache/sessions/<session>.jsonl`.
Stop / SessionEnd turn that journal into one draft `episode` memory.
The installers that register the hooks and the MCP server are at the end.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datetime as dt

    from memkit.store import Store

SESSIONS_DIR = "sessions"
CONTEXT_CHARS = 10_000  # what Claude Code accepts as SessionStart additionalContext
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
    snippet = tool_input.get("new_string") or tool_input.get("content")
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


def stop(payload: Mapping[str, Any], *, today: dt.date) -> str:
    """Turn the session's journal into one draft episode memory; say what happened."""
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
    if payload.get("hook_event_name") == "SessionEnd":
        journal.unlink(missing_ok=True)
    return message


# --------------------------------------------------------------- session start


def session_start(payload: Mapping[str, Any], *, today: dt.date) -> str:
    """The SessionStart JSON output: relevant memories, minus those already in CLAUDE.md."""
    root = find_root(payload)
    if root is None:
        return ""
    from memkit.store import Store

    store = Store(root)
    files: list[str] = []
    journal = journal_path(root, str(payload.get("session_id") or ""))
    if payload.get("session_id") and journal.exists():  # resume / compact: what it touched
        files = sorted({r["file"] for r in read_journal(journal) if "file" in r})
    text = context_text(store, files=files, today=today)
    if not text:
        return ""
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return json.dumps(out, ensure_ascii=False)


def compiled_ids(root: Path) -> set[str]:
    """Ids of memories that memkit compiled into CLAUDE.md (read from its provenance markers)."""
    ids: set[str] = set()
    for name in ("CLAUDE.md", ".claude/CLAUDE.md"):
        try:
            text = (root / name).read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        ids.update(re.findall(r"<!--\s*memkit[^>]*?\bid[=:]\s*\"?([a-z0-9-]+)", text))
    return ids


def context_text(store: Store, *, files: list[str], today: dt.date) -> str:
    """Markdown of the memories relevant to a session, within CONTEXT_CHARS."""
    import fnmatch

    skip = compiled_ids(store.root)
    mems = [
        m
        for m in store.memories()
        if m.status == "active"
        and not m.expired(today)
        and m.id not in skip
        and (not m.paths or any(fnmatch.fnmatch(f, p) for f in files for p in m.paths))
    ]
    mems.sort(key=lambda m: (not m.pin, -m.priority, m.id))
    parts = ["# Project memories (memkit)"]
    size = len(parts[0])
    for m in mems:
        block = f"## {m.title} ({m.type}, `{m.id}`)\n\n{m.text}"
        if size + len(block) + 2 > CONTEXT_CHARS:
            continue
        parts.append(block)
        size += len(block) + 2
    return "\n\n".join(parts) + "\n" if len(parts) > 1 else ""


# --------------------------------------------------------------- installers

MCP_FILES = (".mcp.json", ".cursor/mcp.json")
MCP_NAME = "memkit"
MCP_ENTRY = {"command": "memkit", "args": ["mcp"]}
SETTINGS = ".claude/settings.json"
HOOK_PREFIX = "memkit hook "
# event -> (matcher or None, handler argument, timeout in seconds)
HOOK_EVENTS: dict[str, tuple[str | None, str, int]] = {
    "SessionStart": ("startup|resume|clear|compact", "session-start", 30),
    "PostToolUse": ("|".join(TOOLS), "post-tool-use", 10),
    "Stop": (None, "stop", 30),
    "SessionEnd": (None, "session-end", 30),
}


def _load_json(path: Path, root: Path) -> dict[str, Any] | None:
    from memkit.errors import MemkitError

    rel = path.relative_to(root).as_posix()
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return None
    except (ValueError, UnicodeDecodeError) as e:
        raise MemkitError(f"{rel} is not valid JSON ({e}); fix it, then run this again") from None
    if not isinstance(data, dict):
        raise MemkitError(f"{rel} must hold a JSON object; fix it, then run this again")
    return data


def _save_json(path: Path, root: Path, data: dict[str, Any] | None, existed: bool) -> str:
    from memkit.fsutil import atomic_write

    rel = path.relative_to(root).as_posix()
    if data is None:
        path.unlink()
        return f"removed {rel}"
    atomic_write(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return f"{'updated' if existed else 'created'} {rel}"


def _section(data: dict[str, Any], key: str, rel: str) -> dict[str, Any]:
    from memkit.errors import MemkitError

    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise MemkitError(f"{rel}: `{key}` must be a JSON object; fix it, then run this again")
    return value


def install_mcp(root: Path) -> list[str]:
    """Register `memkit mcp` in .mcp.json (Claude Code) and .cursor/mcp.json (Cursor)."""
    changed = []
    for name in MCP_FILES:
        path = root / name
        data = _load_json(path, root)
        existed = data is not None
        data = data or {}
        servers = _section(data, "mcpServers", name)
        if MCP_NAME in servers:  # ours, possibly adjusted by a person: keep it
            continue
        servers[MCP_NAME] = dict(MCP_ENTRY)
        changed.append(_save_json(path, root, data, existed))
    return changed


def uninstall_mcp(root: Path) -> list[str]:
    """Remove the memkit server from both files; a file left empty is removed."""
    changed = []
    for name in MCP_FILES:
        path = root / name
        data = _load_json(path, root)
        servers = (data or {}).get("mcpServers")
        if data is None or not isinstance(servers, dict) or MCP_NAME not in servers:
            continue
        del servers[MCP_NAME]
        if not servers:
            del data["mcpServers"]
        changed.append(_save_json(path, root, data or None, True))
    return changed


def _ours(hook: Any) -> bool:
    return isinstance(hook, dict) and str(hook.get("command", "")).startswith(HOOK_PREFIX)


def install_claude(root: Path) -> list[str]:
    """Merge memkit's hook entries into .claude/settings.json; other settings stay as they are."""
    path = root / SETTINGS
    data = _load_json(path, root)
    existed = data is not None
    data = data or {}
    hooks = _section(data, "hooks", SETTINGS)
    before = json.dumps(data)
    for event, (matcher, arg, timeout) in HOOK_EVENTS.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            from memkit.errors import MemkitError

            raise MemkitError(f"{SETTINGS}: `hooks.{event}` must be a list; fix it first")
        if any(_ours(h) for g in groups if isinstance(g, dict) for h in g.get("hooks") or []):
            continue
        group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [{"type": "command", "command": HOOK_PREFIX + arg, "timeout": timeout}]
        groups.append(group)
    if existed and json.dumps(data) == before:
        return []
    return [_save_json(path, root, data, existed)]


def uninstall_claude(root: Path) -> list[str]:
    """Remove memkit's hook entries; groups and events left empty go too."""
    path = root / SETTINGS
    data = _load_json(path, root)
    hooks = (data or {}).get("hooks")
    if data is None or not isinstance(hooks, dict):
        return []
    before = json.dumps(data)
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        for g in groups:
            if isinstance(g, dict) and isinstance(g.get("hooks"), list):
                g["hooks"] = [h for h in g["hooks"] if not _ours(h)]
        hooks[event] = [g for g in groups if not (isinstance(g, dict) and g.get("hooks") == [])]
        if not hooks[event]:
            del hooks[event]
    if not hooks:
        del data["hooks"]
    if json.dumps(data) == before:
        return []
    return [_save_json(path, root, data or None, True)]
