"""Register memkit with agents: the MCP server in .mcp.json / .cursor/mcp.json, and
the Claude Code hooks in .claude/settings.json (other agents: more_agents.py).

Each function merges into the existing JSON (everything else kept), is idempotent, writes
atomically through fsutil.write_target (a link out of the repository is refused), leaves
an entry a person adjusted alone, and returns one line per file changed (or, with
`dry_run`, that would be). The commands are launchers: a committed settings file runs on
every teammate's machine, so it finds memkit at run time and, without it, exits 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memkit.install import ANYWHERE

# The tools whose use the PostToolUse hook records (memkit.agents.claude.payload.TOOLS).
TOOL_MATCHER = "Read|Edit|MultiEdit|Write|NotebookEdit|Grep|Glob|Bash"
# The tools before which memories about the file are given (point of action).
EDIT_MATCHER = "Edit|MultiEdit|Write|NotebookEdit"
MCP_FILES = (".mcp.json", ".cursor/mcp.json")
MCP_NAME = "memkit"
SETTINGS = ".claude/settings.json"
MAX_JSON = 4 * 1024 * 1024  # bytes of a settings file memkit reads
# Marks a launcher as memkit's (uninstall removes it, install does not add it twice).
MARK = ": memkit-launcher"
# Entries running memkit's earlier spellings (`memkit-hook EVENT`, `memkit hook EVENT`)
# are memkit's too: install replaces them with the launcher, uninstall removes them.
_OWN_PREFIXES = ("memkit-hook ", "memkit claude-hook ", "memkit hook ", f"sh -c '{MARK}")
# event -> (matcher or None, handler argument, timeout in seconds)
HOOK_EVENTS: dict[str, tuple[str | None, str, int]] = {
    "SessionStart": ("startup|resume|clear|compact", "session-start", 30),
    "UserPromptSubmit": (None, "user-prompt-submit", 10),
    "PreToolUse": (EDIT_MATCHER, "pre-tool-use", 10),
    "PostToolUse": (TOOL_MATCHER, "post-tool-use", 10),
    "Stop": (None, "stop", 30),
    "SessionEnd": (None, "session-end", 30),
}
# The project folder, as each agent names it when it runs a hook or starts a server.
# Plain `$VAR` only: agents expand `${VAR}` in .mcp.json themselves.
_ROOT = 'r=$CLAUDE_PROJECT_DIR; [ -n "$r" ] || r=$MEMKIT_ROOT; [ -n "$r" ] || r=$PWD'


def launcher(program: str, *args: str) -> str:
    """A POSIX sh command running memkit's `program` (memkit-hook, memkit) with `args`.
    It looks in the project's .venv/bin and venv/bin, then on PATH. Without memkit it
    says so once and exits 0, so an agent without memkit is never blocked: a hook
    prints a `systemMessage` once per session (the session id read from the payload),
    the server one line on stderr once per client process."""
    notice = (
        "memkit is not installed for this project, so its agent hooks do nothing; "
        f"to install it: {ANYWHERE}"
    )
    if program == "memkit-hook":
        key = (
            "$(head -c 4096 | sed -n "
            '"s/.*\\"session_id\\" *: *\\"\\([^\\"]*\\)\\".*/\\1/p" '
            "| tr -cd A-Za-z0-9_-)"
        )
        say = f'echo "{{\\"systemMessage\\": \\"{notice}.\\"}}"'
    else:
        key, say = "$PPID", f'echo "{notice}." >&2'
    script = (
        f"{MARK}; {_ROOT}; "
        f'for p in "$r/.venv/bin/{program}" "$r/venv/bin/{program}"; do '
        f'[ -x "$p" ] && exec "$p" "$@"; done; '
        f'command -v {program} >/dev/null 2>&1 && exec {program} "$@"; '
        f'm=$TMPDIR; [ -n "$m" ] || m=/tmp; m="$m/memkit-missing-$(id -u)-{key}"; '
        f'[ -e "$m" ] || {{ : > "$m"; {say}; }}; exit 0'
    )
    return f"sh -c '{script}' {program} {' '.join(args)}".rstrip()


def _script(program: str) -> str:
    """The script part of `launcher(program)` (what goes after `sh -c`)."""
    return launcher(program).split("'")[1]


MCP_ENTRY = {"command": "sh", "args": ["-c", _script("memkit"), "memkit", "mcp"]}
_OLD_MCP_ENTRIES = ({"command": "memkit", "args": ["mcp"]},)


def _load_json(path: Path, root: Path) -> dict[str, Any] | None:
    from memkit.errors import MemkitError
    from memkit.fsutil import read_inside, without_bom, write_target

    rel = path.relative_to(root).as_posix()
    write_target(root, rel, forbidden=(".git", ".memory"))  # a link is refused, not read
    try:
        data = json.loads(without_bom(read_inside(root, rel, limit=MAX_JSON).decode("utf-8")))
    except FileNotFoundError:
        return None
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise MemkitError(f"{rel} is not valid JSON ({e}); fix it, then run this again") from None
    if not isinstance(data, dict):
        raise MemkitError(f"{rel} must hold a JSON object; fix it, then run this again")
    return data


def _save_json(
    path: Path, root: Path, data: dict[str, Any] | None, existed: bool, dry_run: bool = False
) -> str:
    from memkit.fsutil import BOM, atomic_write, write_target

    rel = path.relative_to(root).as_posix()
    target = write_target(root, rel, forbidden=(".git", ".memory"))
    if dry_run:
        verb = "remove" if data is None else "update" if existed else "create"
        return f"would {verb} {rel}"
    if data is None:
        target.unlink()
        return f"removed {rel}"
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    atomic_write(target, (BOM + text if _starts_with_bom(target) else text).encode("utf-8"))
    return f"{'updated' if existed else 'created'} {rel}"


def _starts_with_bom(path: Path) -> bool:
    """Whether the file at `path` starts with a byte-order mark (kept when it is rewritten)."""
    try:
        with path.open("rb") as f:
            return f.read(3) == b"\xef\xbb\xbf"
    except OSError:
        return False


def _section(data: dict[str, Any], key: str, rel: str) -> dict[str, Any]:
    from memkit.errors import MemkitError

    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise MemkitError(f"{rel}: `{key}` must be a JSON object; fix it, then run this again")
    return value


def install_mcp(root: Path, *, dry_run: bool = False) -> list[str]:
    """Register `memkit mcp` in .mcp.json (Claude Code) and .cursor/mcp.json (Cursor).
    An entry earlier versions wrote (a bare `memkit mcp`) becomes the launcher; one a
    person adjusted is kept as it is."""
    changed = []
    for name in MCP_FILES:
        path = root / name
        data = _load_json(path, root)
        existed = data is not None
        data = data or {}
        servers = _section(data, "mcpServers", name)
        if MCP_NAME in servers and servers[MCP_NAME] not in _OLD_MCP_ENTRIES:
            continue  # ours already, or adjusted by a person: keep it
        servers[MCP_NAME] = dict(MCP_ENTRY)
        changed.append(_save_json(path, root, data, existed, dry_run))
    return changed


def uninstall_mcp(root: Path, *, dry_run: bool = False) -> list[str]:
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
        changed.append(_save_json(path, root, data or None, True, dry_run))
    return changed


def _ours(hook: Any) -> bool:
    return isinstance(hook, dict) and str(hook.get("command", "")).startswith(_OWN_PREFIXES)


def _current(hook: Any, arg: str) -> bool:
    return _ours(hook) and hook.get("command") == launcher("memkit-hook", arg)


def install_claude(root: Path, *, dry_run: bool = False) -> list[str]:
    """Merge memkit's hook entries into .claude/settings.json; other settings stay as they are.
    Entries earlier versions wrote (`memkit-hook EVENT`, which fails for a teammate
    without memkit on PATH) are replaced by the launcher."""
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
    if existed and json.dumps(data) == before:
        return []
    return [_save_json(path, root, data, existed, dry_run)]


def _drop_ours(groups: list[Any]) -> None:
    """Remove memkit's entries from an event's groups, and the groups left empty."""
    for g in groups:
        if isinstance(g, dict) and isinstance(g.get("hooks"), list):
            g["hooks"] = [h for h in g["hooks"] if not _ours(h)]
    groups[:] = [g for g in groups if not (isinstance(g, dict) and g.get("hooks") == [])]


def uninstall_claude(root: Path, *, dry_run: bool = False) -> list[str]:
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
        _drop_ours(groups)
        if not groups:
            del hooks[event]
    if not hooks:
        del data["hooks"]
    if json.dumps(data) == before:
        return []
    return [_save_json(path, root, data or None, True, dry_run)]
