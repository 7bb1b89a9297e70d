"""Register memkit with agents: the MCP server in .mcp.json / .cursor/mcp.json, and
the Claude Code hooks in .claude/settings.json.

Each function merges into the existing JSON (other servers, hooks and settings are
kept as they are), is idempotent, writes atomically, and returns one line per file
it changed. An entry a person adjusted (the `memkit` server) is left alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# The tools whose use the PostToolUse hook records (memkit.agents.claude.TOOLS).
TOOL_MATCHER = "Read|Edit|MultiEdit|Write|NotebookEdit|Grep|Glob|Bash"
MCP_FILES = (".mcp.json", ".cursor/mcp.json")
MCP_NAME = "memkit"
MCP_ENTRY = {"command": "memkit", "args": ["mcp"]}
SETTINGS = ".claude/settings.json"
# The `memkit-hook` script runs the handlers without the CLI's start-up (click and
# every command's options): PostToolUse runs on every tool call and must stay fast.
HOOK_PREFIX = "memkit-hook "
# Entries running memkit's other spellings of the command (`memkit hook`, what earlier
# versions wrote) are memkit's too: uninstall removes them, install does not add twice.
_OWN_PREFIXES = (HOOK_PREFIX, "memkit claude-hook ", "memkit hook ")
# event -> (matcher or None, handler argument, timeout in seconds)
HOOK_EVENTS: dict[str, tuple[str | None, str, int]] = {
    "SessionStart": ("startup|resume|clear|compact", "session-start", 30),
    "PostToolUse": (TOOL_MATCHER, "post-tool-use", 10),
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
    return isinstance(hook, dict) and str(hook.get("command", "")).startswith(_OWN_PREFIXES)


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
