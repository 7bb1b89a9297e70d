"""Claude Code hook handlers: inject memories at session start, capture what a session did.

`memkit-hook EVENT` (the console script: `main`) and `memkit claude-hook EVENT` read
the hook's JSON payload on stdin and call `handle`, which returns what to print.
PostToolUse runs after every tool call, so its path imports nothing heavy: it turns
the payload into one compact record, likely secrets already redacted, and appends it
to the session's journal (memkit.agents.journal). After a Read, and before an edit
(PreToolUse), the memories about that file not yet given are added to the context,
and UserPromptSubmit adds those the prompt calls for (memkit.agents.pointofaction,
with receipts). Stop / SessionEnd turn that journal into one draft memory
(memkit.agents.drafts); SessionStart prints the memories Claude Code does not already
load (memkit.agents.session_start). A payload that is not what Claude Code sends gets
one line on stderr and exit code 0, and nothing is written. The installers that
register these hooks are in register.py.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.agents import EVENTS
from memkit.agents.journal import (
    JOURNAL_DAYS,
    append,
    journal_path,
    prune_journals,
    read_journal,
    redact_then_cut,
)
from memkit.clock import today

if TYPE_CHECKING:
    import datetime as dt

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


def handle(event: str, raw: bytes | str, clock: Callable[[], dt.date]) -> tuple[str, str]:
    """(stdout, stderr) of one hook call. Never raises: the agent must go on regardless.

    stderr is empty or one line, `memkit hook EVENT: why` (control characters escaped).
    """
    try:
        payload = parse_payload(raw)
        if event == "post-tool-use":
            out, said = post_tool_use(payload, clock)
            if out:
                return out, ""
        elif event == "pre-tool-use":
            return pre_tool_use(payload, clock), ""
        elif event == "user-prompt-submit":
            return user_prompt_submit(payload, clock), ""
        elif event == "session-start":
            return session_start(payload, today=clock()), ""
        else:
            said = stop(payload, today=clock(), end=event == "session-end")
            if said.startswith("saved "):  # the first save: tell the person, once
                draft = said.removeprefix("saved ").split(" ")[0]
                note = f"memkit saved a draft of what this session did: {draft} (`memkit approve`)"
                return json.dumps({"systemMessage": note}), f"memkit hook {event}: {said}"
    except Exception as e:
        said = str(e) or type(e).__name__
    return "", f"memkit hook {event}: {one_line(said)}" if said else ""


def one_line(text: str) -> str:
    """`text` with line breaks and other control characters escaped."""
    return re.sub(r"[\x00-\x1f\x7f\x85\u2028\u2029]", lambda m: repr(m.group())[1:-1], text)


def main(argv: list[str] | None = None) -> int:
    """`memkit-hook EVENT` (or `python -m memkit.agents.claude EVENT`): the handlers
    without the CLI's start-up cost. `memkit claude-hook EVENT` runs the same handlers."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in EVENTS:
        print(f"usage: memkit-hook {{{','.join(EVENTS)}}}", file=sys.stderr)
        return 0
    out, err = handle(args[0], sys.stdin.buffer.read(), today)
    if out:
        print(out)
    if err:
        print(err, file=sys.stderr)
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


def post_tool_use(payload: Mapping[str, Any], clock: Callable[[], dt.date]) -> tuple[str, str]:
    """Append one line to the session's journal; after a Read, the memories about the
    file. (stdout, text for stderr)."""
    root = find_root(payload)
    if root is None:
        return "", "no .memory/ directory here or above; nothing recorded (run `memkit init`)"
    rec = record(payload, root)
    if rec is None:
        return "", ""
    sid = session_id(payload)
    append(journal_path(root, sid), rec)
    if rec["kind"] != "read":
        return "", ""
    from memkit.agents.pointofaction import on_file

    return additional_context("PostToolUse", on_file(root, sid, rec["file"], today=clock())), ""


def pre_tool_use(payload: Mapping[str, Any], clock: Callable[[], dt.date]) -> str:
    """Before an edit: the memories about the file, not yet given in this session."""
    root = find_root(payload)
    if root is None:
        return ""
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if tool not in TOOLS or TOOLS[tool][0] == "command" or not isinstance(tool_input, Mapping):
        return ""
    rel = _relative(root, tool_input.get(TOOLS[tool][1]))
    if rel is None or rel.startswith(".memory/") or TOOLS[tool][0] == "search":
        return ""
    from memkit.agents.pointofaction import on_file

    text = on_file(root, session_id(payload), rel, today=clock())
    return additional_context("PreToolUse", text)


def user_prompt_submit(payload: Mapping[str, Any], clock: Callable[[], dt.date]) -> str:
    """The few memories the prompt calls for, not yet given in this session."""
    root = find_root(payload)
    prompt = payload.get("prompt")
    if root is None or not isinstance(prompt, str) or not prompt.strip():
        return ""
    from memkit.agents.pointofaction import on_prompt

    text = on_prompt(root, session_id(payload), prompt, today=clock())
    return additional_context("UserPromptSubmit", text)


def additional_context(event: str, text: str) -> str:
    """The hook's JSON output adding `text` to the agent's context ("" for no text)."""
    if not text:
        return ""
    out = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(out, ensure_ascii=False)


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

    from memkit.agents.drafts import conclusion, first_prompt, save_episode, summarise
    from memkit.store import Store

    transcript = payload.get("transcript_path")
    path = transcript if isinstance(transcript, str) else None
    asked = first_prompt(path)
    concluded = conclusion(payload.get("last_assistant_message"), path)
    summary = dataclasses.replace(
        summarise(root, read_journal(journal)), asked=asked, concluded=concluded
    )
    message = save_episode(Store(root), summary, sid, today=today)
    if end or payload.get("hook_event_name") == "SessionEnd":
        journal.unlink(missing_ok=True)
    return message


def session_start(payload: Mapping[str, Any], *, today: dt.date) -> str:
    """The SessionStart JSON output: relevant memories, minus those already in CLAUDE.md."""
    root = find_root(payload)
    if root is None:
        return ""
    files: list[str] = []
    prune_journals(root, keep_days=JOURNAL_DAYS, today=today)
    sid = payload.get("session_id")
    journal = journal_path(root, sid if isinstance(sid, str) else "")
    if sid and isinstance(sid, str) and journal.exists():  # resume / compact: what it touched
        files = sorted({r["file"] for r in read_journal(journal) if "file" in r})
    from memkit.agents import recall
    from memkit.agents.pointofaction import record_start
    from memkit.agents.session_start import ReadOnce, context
    from memkit.store import Store

    store = ReadOnce(Store(root))
    given = context(store, files=files, today=today)
    recall.refresh(store, today=today, full=True)  # point-of-action lookups start true
    if isinstance(sid, str) and sid:
        source = payload.get("source")
        record_start(root, sid, source if isinstance(source, str) else "", given.given)
    return additional_context("SessionStart", given.text)


if __name__ == "__main__":
    sys.exit(main())
