"""The handlers of the Claude Code hooks that give memories, kept light.

PostToolUse appends the session's journal line; after a Read and before an edit the
memories about the file not yet given are added to the context, UserPromptSubmit adds
those the prompt calls for, SessionStart the always-on ones (and after a resume or
compact those about the files touched). All read the point-of-action index, checked
against its sources on every call and rebuilt from one store load when it no longer
holds or a memory about to be given changed.
"""

from __future__ import annotations

import os

from memkit.agents.claude import pointofaction as poa
from memkit.agents.claude import recall
from memkit.agents.claude.filecontext import asked
from memkit.agents.claude.payload import (
    additional_context,
    edited_file,
    find_root,
    record,
    session_id,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def post_tool_use(payload: dict[str, Any]) -> tuple[str, str]:
    """Append one line to the session's journal; after a Read, the memories about the
    file. (stdout, text for stderr)."""
    from memkit.agents.claude.journal import append, journal_file

    root = find_root(payload)
    if root is None:
        return "", "no .memory/ directory here or above; nothing recorded (run `memkit init`)"
    rec = record(payload, root)
    if rec is None:
        return "", ""
    sid = session_id(payload)
    append(journal_file(root, sid), rec)
    if rec["kind"] != "read":
        return "", ""
    today, rel = recall.today_iso(), rec["file"]
    from memkit.agents.claude.loaded import on_read

    on_read(root, sid, rel, poa.now())  # the rule files Claude Code loads for it
    text = asked(root, today, lambda idx: poa.on_file(idx, sid, rel, today=today)) or ""
    return additional_context("PostToolUse", text), ""


def pre_tool_use(payload: dict[str, Any]) -> str:
    """Before an edit: the memories about the file, not yet given in this session."""
    root = find_root(payload)
    if root is None:
        return ""
    rel = edited_file(payload, root)
    if rel is None:
        return ""
    sid, today = session_id(payload), recall.today_iso()
    text = asked(root, today, lambda idx: poa.on_file(idx, sid, rel, today=today)) or ""
    return additional_context("PreToolUse", text)


def user_prompt_submit(payload: dict[str, Any]) -> str:
    """The few memories the prompt calls for, not yet given in this session."""
    root = find_root(payload)
    prompt = payload.get("prompt")
    if root is None or not isinstance(prompt, str) or not prompt.strip():
        return ""
    sid, today = session_id(payload), recall.today_iso()
    text = asked(root, today, lambda idx: poa.on_prompt(idx, sid, prompt, today=today)) or ""
    return additional_context("UserPromptSubmit", text)


def session_start(payload: dict[str, Any], today: str | None = None) -> str:
    """The memories Claude Code does not already load (memkit.agents.claude.session_text); after
    a resume or compact, also those about the files the session touched."""
    root = find_root(payload)
    if root is None:
        return ""
    sid, source, cwd = payload.get("session_id"), payload.get("source"), payload.get("cwd")
    sid = sid if isinstance(sid, str) else ""
    source = source if isinstance(source, str) else ""
    cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else root
    day = today or recall.today_iso()
    _prune(root, day)
    files = _touched(root, sid) if sid else []

    from memkit.agents.claude.startup import start_text

    def ask(idx: recall.Index) -> str | None:
        return start_text(idx, sid, source, today=day, files=files, cwd=cwd)

    return additional_context("SessionStart", asked(root, day, ask, thorough=True) or "")


def _touched(root: str, sid: str) -> list[str]:
    """The files the session read or edited, from its journal (none for a new one)."""
    from memkit.agents.claude.journal import journal_file

    path = journal_file(root, sid)
    if not os.path.exists(path):
        return []
    from pathlib import Path

    from memkit.agents.claude.journal import read_journal

    return sorted({r["file"] for r in read_journal(Path(path)) if "file" in r})


def _prune(root: str, today: str) -> None:
    import datetime as dt

    from memkit.agents.claude.journal import JOURNAL_DAYS, prune_journals

    try:
        day = dt.date.fromisoformat(today)
    except ValueError:
        return
    prune_journals(root, keep_days=JOURNAL_DAYS, today=day)
