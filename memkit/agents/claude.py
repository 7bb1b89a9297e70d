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
load (memkit.agents.session_text). A payload that is not what Claude Code sends gets
one line on stderr and exit code 0, and nothing is written. The installers that
register these hooks are in register.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.agents import hook_handlers
from memkit.agents.journal import journal_path, read_journal
from memkit.agents.payload import (
    TOOLS,
    HookInputError,
    one_line,
    parse_payload,
    record,
    session_id,
)
from memkit.agents.payload import find_root as _find_root
from memkit.clock import today

if TYPE_CHECKING:
    import datetime as dt

__all__ = ["TOOLS", "HookInputError", "handle", "main", "one_line", "parse_payload", "record"]


def handle(event: str, raw: bytes | str, clock: Callable[[], dt.date]) -> tuple[str, str]:
    """(stdout, stderr) of one hook call. Never raises: the agent must go on regardless.

    stderr is empty or one line, `memkit hook EVENT: why` (control characters escaped).
    """
    try:
        payload = parse_payload(raw)
        if event == "post-tool-use":
            out, said = hook_handlers.post_tool_use(payload)
            if out:
                return out, ""
        elif event == "session-start":
            return session_start(payload, today=clock()), ""
        elif event in hook_handlers.HANDLERS:
            return hook_handlers.HANDLERS[event](payload), ""
        else:
            said = stop(payload, today=clock(), end=event == "session-end")
            if said.startswith("saved "):  # the first save: tell the person, once
                draft = said.removeprefix("saved ").split(" ")[0]
                note = f"memkit saved a draft of what this session did: {draft} (`memkit approve`)"
                return json.dumps({"systemMessage": note}), f"memkit hook {event}: {said}"
    except Exception as e:
        said = str(e) or type(e).__name__
    return "", f"memkit hook {event}: {one_line(said)}" if said else ""


def main(argv: list[str] | None = None) -> int:
    """`memkit-hook EVENT` (or `python -m memkit.agents.claude EVENT`): the handlers
    without the CLI's start-up cost. `memkit claude-hook EVENT` runs the same handlers."""
    from memkit.agents.hookio import serve

    return serve(argv, lambda event, raw: handle(event, raw, today))


def find_root(payload: Mapping[str, Any]) -> Path | None:
    """The project holding .memory/: MEMKIT_ROOT, else the nearest parent of the payload's cwd."""
    found = _find_root(payload)
    return Path(found) if found else None


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
    """The SessionStart JSON output: the memories Claude Code does not already load, and
    (resume, compact) those about the files the session touched, from the point-of-action
    index (memkit.agents.hook_handlers, memkit.agents.session_text)."""
    return hook_handlers.session_start(dict(payload), today.isoformat())


if __name__ == "__main__":
    sys.exit(main())
