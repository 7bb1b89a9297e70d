"""Register `memkit mcp` in agents' project files (`memkit hooks install --mcp / --agent`).

AGENTS names each agent's project file (Claude Code's and Cursor's for `--mcp`, the others'
for `--agent`) and the key holding its servers, as its maker
documents them (sources in docs/agents.md); the command is register.py's launcher. JSON
files are merged (everything else kept, in order, with the file's own indentation), the
TOML file is edited as text (only memkit's table is added or removed), files go through
the safe-path layer, writes are atomic, a server entry a person changed is left alone. A
JSON file with comments is never rewritten: the error says what to add by hand. Every
file is checked before any is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memkit.agents.install.files import (
    dump_json,
    load_json,
    read_text,
    without_bom,
    write_change,
)
from memkit.agents.install.launcher import MARK, MCP_ENTRY, MCP_NAME
from memkit.errors import MemkitError


def _gemini_args() -> list[str]:
    """Gemini CLI replaces `$NAME` in settings with the variable's value when it is set:
    the launcher's own variables get names no environment holds."""
    args = list(MCP_ENTRY["args"])
    text = args[1]
    for short in ("r", "p", "m"):
        text = re.sub(rf"(?<![\w$]){short}=", f"memkit_{short}=", text)
        text = re.sub(rf"\$\b{short}\b", f"$memkit_{short}", text)
        text = text.replace(f"for {short} in", f"for memkit_{short} in")
    return [args[0], text, *args[2:]]


@dataclass(frozen=True)
class Agent:
    name: str
    file: str
    key: str  # the object (JSON) or table (TOML) holding servers
    entry: Callable[[], Any]  # memkit's server entry
    toml: bool = False
    # Uninstall removes the `memkit` entry even when a person changed it (`--mcp`).
    removes_any: bool = False


def _sh(**extra: Any) -> Callable[[], dict[str, Any]]:
    return lambda: {**MCP_ENTRY, **extra}


MCP_FILES = {"claude": ".mcp.json", "cursor": ".cursor/mcp.json"}  # `--mcp`
AGENTS: dict[str, Agent] = {
    a.name: a
    for a in (
        *(
            Agent(name, file, "mcpServers", MCP_ENTRY.copy, removes_any=True)
            for name, file in MCP_FILES.items()
        ),
        Agent(
            "vscode",
            ".vscode/mcp.json",
            "servers",
            lambda: {"type": "stdio", **_sh(env={"MEMKIT_ROOT": "${workspaceFolder}"})()},
        ),
        Agent(
            "gemini",
            ".gemini/settings.json",
            "mcpServers",
            lambda: {"command": MCP_ENTRY["command"], "args": _gemini_args()},
        ),
        Agent("codex", ".codex/config.toml", "mcp_servers", _sh(), toml=True),
        Agent("kiro", ".kiro/settings/mcp.json", "mcpServers", _sh()),
        Agent("amazonq", ".amazonq/mcp.json", "mcpServers", _sh()),
        Agent("roo", ".roo/mcp.json", "mcpServers", _sh()),
        Agent("zed", ".zed/settings.json", "context_servers", _sh(env={})),
        Agent(
            "opencode",
            "opencode.json",
            "mcp",
            lambda: {
                "type": "local",
                "command": [MCP_ENTRY["command"], *MCP_ENTRY["args"]],
                "enabled": True,
            },
        ),
    )
}
NAMES = tuple(name for name in AGENTS if name not in MCP_FILES)  # `--agent NAME`
# What earlier versions wrote in .mcp.json: a bare `memkit mcp`, which fails for a teammate
# without memkit on PATH.
_OLD_ENTRIES = ({"command": "memkit", "args": ["mcp"]},)


def _ours(entry: Any) -> bool:
    """An entry memkit wrote (any version of it), as opposed to a person's."""
    return MARK in json.dumps(entry) or entry in _OLD_ENTRIES


def _json_change(agent: Agent, text: str | None, install: bool) -> str | None:
    """The file's new text (None: no change; "" : delete it)."""
    data = load_json(agent.file, text, agent.key, lambda: {agent.key: {MCP_NAME: agent.entry()}})
    servers = data.get(agent.key, {})
    current = servers.get(MCP_NAME)
    if install:
        if current is not None and (current == agent.entry() or not _ours(current)):
            return None  # ours already, or a person's: kept
        data.setdefault(agent.key, {})[MCP_NAME] = agent.entry()
        return dump_json(data, text)
    if current is None or not (agent.removes_any or _ours(current)):
        return None
    del servers[MCP_NAME]
    if not servers:
        del data[agent.key]
    return dump_json(data, text)


# ------------------------------------------------------------------ TOML (Codex)

_HEADER = re.compile(r"^\s*\[\s*mcp_servers\s*\.\s*(?:memkit|\"memkit\"|'memkit')\s*\]\s*(?:#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")


def _toml_block(agent: Agent) -> str:
    entry = agent.entry()
    # a literal string ('...') where it can be one, else a basic string (JSON's escapes)
    args = ", ".join(
        f"'{a}'" if "'" not in a and "\n" not in a else json.dumps(a) for a in entry["args"]
    )
    return f'[mcp_servers.{MCP_NAME}]\ncommand = "{entry["command"]}"\nargs = [{args}]\n'


def _toml_span(lines: list[str]) -> tuple[int, int] | None:
    """The lines of memkit's table `[mcp_servers.memkit]` (to the next table header)."""
    for i, line in enumerate(lines):
        if _HEADER.match(line):
            end = i + 1
            while end < len(lines) and not _ANY_HEADER.match(lines[end]):
                end += 1
            while end > i + 1 and not lines[end - 1].strip():
                end -= 1
            return i, end
    return None


def _parse_toml(agent: Agent, text: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(without_bom(text))
    except tomllib.TOMLDecodeError as e:
        raise MemkitError(f"{agent.file} is not valid TOML ({e}); fix it first") from None


def _toml_change(agent: Agent, text: str | None, install: bool) -> str | None:
    text = text or ""
    current = _parse_toml(agent, text).get(agent.key, {}).get(MCP_NAME)
    lines = text.splitlines(keepends=True)
    span = _toml_span(lines)
    if install:
        if current is not None and (current == agent.entry() or not _ours(current)):
            return None
        if current is not None and span is None:
            return None  # defined some other way (inline, dotted keys): a person's
        block = _toml_block(agent)
        if span is not None:
            new = "".join(lines[: span[0]]) + block + "".join(lines[span[1] :])
        elif not text.strip():
            new = block
        else:
            new = text + ("\n" if text.endswith("\n") else "\n\n") + block
    else:
        if current is None or not _ours(current) or span is None:
            return None
        start = span[0] - 1 if span[0] and not lines[span[0] - 1].strip() else span[0]
        new = "".join(lines[:start]) + "".join(lines[span[1] :]).lstrip("\n")
        if not new.strip():
            return ""
    got = _parse_toml(agent, new).get(agent.key, {}).get(MCP_NAME)
    if got != (agent.entry() if install else None):  # never write what does not read back
        raise MemkitError(f"{agent.file}: cannot place memkit's server table; add it by hand")
    return new


# ------------------------------------------------------------------ install / uninstall


def _apply(root: Path, names: Iterable[str], install: bool, dry_run: bool) -> list[str]:
    """Every file's change, worked out (and each file checked) before any is written;
    one line per file changed."""
    plan = []
    for name in dict.fromkeys(names):
        agent = AGENTS[name]
        text = read_text(root, agent.file)
        if not install and text is None:
            continue
        change = (_toml_change if agent.toml else _json_change)(agent, text, install)
        if change is not None:
            plan.append((agent.file, text, change))
    return [write_change(root, file, old, new, dry_run) for file, old, new in plan]


def install(root: Path, names: Iterable[str], *, dry_run: bool = False) -> list[str]:
    """Add memkit's server to each named agent's file; one line per file changed."""
    return _apply(root, names, True, dry_run)


def uninstall(root: Path, names: Iterable[str], *, dry_run: bool = False) -> list[str]:
    """Remove memkit's server (only an entry memkit wrote); a file left empty is removed."""
    return _apply(root, names, False, dry_run)
