"""A Claude Code hook payload read and checked: JSON in, the project, the session, the file.

Standard library only (json, os): the hook runs on every tool call, and this module is
on the path of every hook call (memkit.agents.claude.hook).
`record` turns a PostToolUse payload into the session journal's line.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # not even `typing` on the hook's path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

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


def one_line(text: str) -> str:
    """A hook's message for stderr: controls.printable, on one line."""
    from memkit.controls import printable

    return printable(text, one_line=True)


def find_root(payload: Mapping[str, Any]) -> str | None:
    """The project holding .memory/: MEMKIT_ROOT, else the nearest parent of the payload's cwd."""
    from memkit.walk import ROOT_ENV, find_up

    cwd = payload.get("cwd")
    if cwd is None:
        cwd = os.getcwd()
    if not os.environ.get(ROOT_ENV) and (
        not isinstance(cwd, str) or not os.path.isabs(cwd) or "\x00" in cwd
    ):
        raise HookInputError("the hook input's cwd is not an absolute path")
    return find_up(cwd)


def session_id(payload: Mapping[str, Any]) -> str:
    sid = payload.get("session_id")
    if not isinstance(sid, str) or not sid:
        raise HookInputError("the hook input has no session_id")
    return sid


def relative(root: str, value: Any) -> str | None:
    """A path inside the project, relative and with forward slashes; None outside it."""
    if not isinstance(value, str) or not value or "\x00" in value:
        return None
    rel = os.path.relpath(os.path.join(root, value), root)
    if rel == os.curdir or rel.startswith(os.pardir):
        return None
    return rel.replace(os.sep, "/")


def record(payload: Mapping[str, Any], root: str) -> dict[str, str] | None:
    """The journal line for one PostToolUse payload, or None for tools not worth a line."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or tool not in TOOLS:
        return None
    kind, key = TOOLS[tool]
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        raise HookInputError(f"the {tool} payload has no tool_input object")
    value = tool_input.get(key)
    if not isinstance(value, str):
        raise HookInputError(f"the {tool} payload's tool_input has no {key} string")
    from memkit.agents.claude.journal import redact_then_cut

    if kind in ("command", "search"):
        if not value:
            return None
        rec = {"kind": kind, "text": redact_then_cut(value)}
        where = relative(root, tool_input.get("path"))
        if where:
            rec["path"] = where
        return rec
    rel = relative(root, value)
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


def edited_file(payload: Mapping[str, Any], root: str) -> str | None:
    """The project file a PreToolUse payload is about to change, None for anything else."""
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if tool not in TOOLS or TOOLS[tool][0] in ("command", "search"):
        return None
    if not isinstance(tool_input, dict):
        return None
    rel = relative(root, tool_input.get(TOOLS[tool][1]))
    return None if rel is None or rel.startswith(".memory/") else rel


def additional_context(event: str, text: str) -> str:
    """The hook's JSON output adding `text` to the agent's context ("" for no text)."""
    if not text:
        return ""
    out = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(out, ensure_ascii=False)
