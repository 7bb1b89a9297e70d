"""Register `memkit mcp` with agents beyond Claude Code and Cursor (`memkit hooks install --agent`).

AGENTS names each agent's project file and the key holding its servers, as its maker
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memkit.agents.install.register import MARK, MAX_JSON, MCP_NAME, _script
from memkit.errors import MemkitError
from memkit.fsutil import without_bom


def _args() -> list[str]:
    return ["-c", _script("memkit"), "memkit", "mcp"]


def _gemini_args() -> list[str]:
    """Gemini CLI replaces `$NAME` in settings with the variable's value when it is set:
    the launcher's own variables get names no environment holds."""
    script = _script("memkit")
    for short in ("r", "p", "m"):
        script = re.sub(rf"(?<![\w$]){short}=", f"memkit_{short}=", script)
        script = re.sub(rf"\$\b{short}\b", f"$memkit_{short}", script)
        script = script.replace(f"for {short} in", f"for memkit_{short} in")
    return ["-c", script, "memkit", "mcp"]


@dataclass(frozen=True)
class Agent:
    name: str
    file: str
    key: str  # the object (JSON) or table (TOML) holding servers
    entry: Callable[[], Any]  # memkit's server entry
    toml: bool = False


def _sh(**extra: Any) -> Callable[[], dict[str, Any]]:
    return lambda: {"command": "sh", "args": _args(), **extra}


AGENTS: dict[str, Agent] = {a.name: a for a in (
    Agent("vscode", ".vscode/mcp.json", "servers", lambda: {"type": "stdio", **_sh(
        env={"MEMKIT_ROOT": "${workspaceFolder}"})()}),
    Agent("gemini", ".gemini/settings.json", "mcpServers",
          lambda: {"command": "sh", "args": _gemini_args()}),
    Agent("codex", ".codex/config.toml", "mcp_servers", _sh(), toml=True),
    Agent("kiro", ".kiro/settings/mcp.json", "mcpServers", _sh()),
    Agent("amazonq", ".amazonq/mcp.json", "mcpServers", _sh()),
    Agent("roo", ".roo/mcp.json", "mcpServers", _sh()),
    Agent("zed", ".zed/settings.json", "context_servers", _sh(env={})),
    Agent("opencode", "opencode.json", "mcp",
          lambda: {"type": "local", "command": ["sh", *_args()], "enabled": True}),
)}  # fmt: skip
NAMES = tuple(AGENTS)


def _ours(entry: Any) -> bool:
    """An entry memkit wrote (any version of the launcher), as opposed to a person's."""
    return MARK in json.dumps(entry)


# ------------------------------------------------------------------ reading and writing


def _read(root: Path, rel: str) -> str | None:
    from memkit.fsutil import read_inside

    try:
        raw = read_inside(root, rel, limit=MAX_JSON)
    except FileNotFoundError:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MemkitError(f"{rel} is not UTF-8 text; fix it, then run this again") from None


def _indent(text: str) -> int | str:
    m = re.search(r"\n([ \t]+)\S", text)
    if m is None:
        return 2
    return "\t" if m.group(1).startswith("\t") else len(m.group(1))


def _dump(data: dict[str, Any], like: str | None) -> str:
    return json.dumps(data, indent=_indent(like or ""), ensure_ascii=False) + "\n"


def _load(agent: Agent, text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        data = json.loads(without_bom(text))
    except (ValueError, RecursionError) as e:
        if re.search(r"(?m)^\s*//|/\*", text):
            snippet = json.dumps({agent.key: {MCP_NAME: agent.entry()}}, indent=2)
            raise MemkitError(
                f"{agent.file} has comments, which memkit would lose by rewriting it; add "
                f"memkit's server yourself:\n{snippet}"
            ) from None
        raise MemkitError(
            f"{agent.file} is not valid JSON ({e}); fix it, then run this again"
        ) from None
    if not isinstance(data, dict):
        raise MemkitError(f"{agent.file} must hold a JSON object; fix it, then run this again")
    section = data.get(agent.key, {})
    if not isinstance(section, dict):
        raise MemkitError(f"{agent.file}: `{agent.key}` must be a JSON object; fix it first")
    return data


def _json_change(agent: Agent, text: str | None, install: bool) -> str | None:
    """The file's new text (None: no change; "" : delete it)."""
    data = _load(agent, text)
    servers = data.get(agent.key, {})
    current = servers.get(MCP_NAME)
    if install:
        if current is not None and (current == agent.entry() or not _ours(current)):
            return None  # ours already, or a person's: kept
        data.setdefault(agent.key, {})[MCP_NAME] = agent.entry()
        return _dump(data, text)
    if current is None or not _ours(current):
        return None
    del servers[MCP_NAME]
    if not servers:
        del data[agent.key]
    return _dump(data, text) if data else ""


# ------------------------------------------------------------------ TOML (Codex)

_HEADER = re.compile(r"^\s*\[\s*mcp_servers\s*\.\s*(?:memkit|\"memkit\"|'memkit')\s*\]\s*(?:#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")


def _toml_string(s: str) -> str:
    return "'" + s + "'" if "'" not in s and "\n" not in s else json.dumps(s)


def _toml_block(agent: Agent) -> str:
    entry = agent.entry()
    args = ", ".join(_toml_string(a) for a in entry["args"])
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


def _plan(root: Path, names: list[str], install: bool) -> list[tuple[Agent, str | None, str]]:
    plan = []
    for name in dict.fromkeys(names):
        agent = AGENTS[name]
        text = _read(root, agent.file)
        if not install and text is None:
            continue
        change = (_toml_change if agent.toml else _json_change)(agent, text, install)
        if change is not None:
            plan.append((agent, text, change))
    return plan


def would(verb: str) -> str:
    """`created` -> `would create`: what a dry run says."""
    return "would " + {"created": "create", "updated": "update", "removed": "remove"}[verb]


def _apply(root: Path, plan: list[tuple[Agent, str | None, str]], dry_run: bool) -> list[str]:
    from memkit.fsutil import atomic_write, with_bom, write_target

    lines = []
    for agent, old, new in plan:
        target = write_target(root, agent.file, forbidden=(".git", ".memory"))
        verb = "removed" if new == "" else "created" if old is None else "updated"
        if not dry_run:
            if new == "":
                target.unlink()
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(target, with_bom(new, old).encode("utf-8"))
        lines.append(f"{would(verb) if dry_run else verb} {agent.file}")
    return lines


def install(root: Path, names: list[str], *, dry_run: bool = False) -> list[str]:
    """Add memkit's server to each named agent's file; one line per file changed."""
    for name in names:
        write_target_ok(root, AGENTS[name].file)
    return _apply(root, _plan(root, names, True), dry_run)


def uninstall(root: Path, names: list[str], *, dry_run: bool = False) -> list[str]:
    """Remove memkit's server (only an entry memkit wrote); a file left empty is removed."""
    return _apply(root, _plan(root, names, False), dry_run)


def write_target_ok(root: Path, rel: str) -> None:
    """Refuse, before anything is written, a file (or folder) leading out of the repository."""
    from memkit.fsutil import write_target

    write_target(root, rel, forbidden=(".git", ".memory"))
