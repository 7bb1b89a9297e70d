"""Register memkit's Claude Code hooks in .claude/settings.json (the MCP server, in
every agent's file, .mcp.json and .cursor/mcp.json included: more_agents.py).

Each function merges into the existing JSON (everything else kept), is idempotent, reads
and writes through files.py (a link out of the repository is refused), leaves an entry a
person adjusted alone, and returns one line per file changed (or, with `dry_run`, that
would be). The commands are launchers: a committed settings file runs on
every teammate's machine, so it finds memkit at run time and, without it, exits 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memkit.agents.install.files import dump_json, load_json, read_text, write_change
from memkit.agents.install.launcher import MARK, launcher
from memkit.agents.install.launcher import MCP_ENTRY as MCP_ENTRY  # what .mcp.json holds
from memkit.errors import MemkitError

# The tools whose use the PostToolUse hook records (memkit.agents.claude.payload.TOOLS).
TOOL_MATCHER = "Read|Edit|MultiEdit|Write|NotebookEdit|Grep|Glob|Bash"
# The tools before which memories about the file are given (point of action).
EDIT_MATCHER = "Edit|MultiEdit|Write|NotebookEdit"
SETTINGS = ".claude/settings.json"
# Entries running memkit's earlier spellings (`memkit-hook EVENT`, `memkit hook EVENT`)
# are memkit's too: install replaces them with the launcher, uninstall removes them.
_OWN_PREFIXES = ("memkit-hook ", "memkit claude-hook ", "memkit hook ", f"sh -c '{MARK}")
# event -> (matcher or None, handler argument, timeout in seconds)
HOOK_EVENTS: dict[str, tuple[str | None, str, int]] = {
    "SessionStart": ("startup|resume|clear|compact|fork", "session-start", 30),
    "UserPromptSubmit": (None, "user-prompt-submit", 10),
    "PreToolUse": (EDIT_MATCHER, "pre-tool-use", 10),
    "PostToolUse": (TOOL_MATCHER, "post-tool-use", 10),
    "Stop": (None, "stop", 30),
    "SessionEnd": (None, "session-end", 30),
}


def _ours(hook: Any) -> bool:
    return isinstance(hook, dict) and str(hook.get("command", "")).startswith(_OWN_PREFIXES)


def _current(hook: Any, arg: str) -> bool:
    return _ours(hook) and hook.get("command") == launcher("memkit-hook", arg)


def claude_start_hook(root: Path) -> bool:
    """Whether .claude/settings.json runs memkit's SessionStart hook (a file memkit cannot
    read counts as no)."""
    try:
        data = json.loads((root / SETTINGS).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    groups = data.get("hooks", {}).get("SessionStart") if isinstance(data, dict) else None
    hooks = [h for g in groups or () if isinstance(g, dict) for h in g.get("hooks") or ()]
    return any(_ours(h) for h in hooks)


def install_claude(root: Path, *, dry_run: bool = False) -> list[str]:
    """Merge memkit's hook entries into .claude/settings.json; other settings stay as they are.
    Entries earlier versions wrote (`memkit-hook EVENT`, which fails for a teammate
    without memkit on PATH) are replaced by the launcher."""
    text = read_text(root, SETTINGS)
    data = load_json(SETTINGS, text, "hooks")
    hooks = data.setdefault("hooks", {})
    before = json.dumps(data)
    for event, (matcher, arg, timeout) in HOOK_EVENTS.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise MemkitError(f"{SETTINGS}: `hooks.{event}` must be a list; fix it first")
        if any(
            _current(h, arg) for g in groups if isinstance(g, dict) for h in g.get("hooks") or []
        ):
            continue
        _drop_ours(groups)
        group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [
            {"type": "command", "command": launcher("memkit-hook", arg), "timeout": timeout}
        ]
        groups.append(group)
    if text is not None and json.dumps(data) == before:
        return []
    return [write_change(root, SETTINGS, text, dump_json(data, text), dry_run)]


def _drop_ours(groups: list[Any]) -> None:
    """Remove memkit's entries from an event's groups, and the groups left empty."""
    for g in groups:
        if isinstance(g, dict) and isinstance(g.get("hooks"), list):
            g["hooks"] = [h for h in g["hooks"] if not _ours(h)]
    groups[:] = [g for g in groups if not (isinstance(g, dict) and g.get("hooks") == [])]


def uninstall_claude(root: Path, *, dry_run: bool = False) -> list[str]:
    """Remove memkit's hook entries; groups and events left empty go too."""
    text = read_text(root, SETTINGS)
    data = load_json(SETTINGS, text, "hooks")
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    before = json.dumps(data)
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        _drop_ours(groups)
        if not groups:
            del hooks[event]
    if not hooks:
        del data["hooks"]
    if json.dumps(data) == before:
        return []
    return [write_change(root, SETTINGS, text, dump_json(data, text), dry_run)]
