"""The hook handlers that run on every tool call, prompt and session start, kept light.

PostToolUse appends the session's journal line; after a Read, and before an edit
(PreToolUse), the memories about that file not yet given are added to the context;
UserPromptSubmit adds those the prompt calls for; SessionStart (without files to
recall) gives the always-on memories from the cached candidates. All of them read
the point-of-action index (memkit.agents.recall): it is checked against its sources
on every call (SessionStart also compares every memory file's stamp) and rebuilt
from one store load when it no longer holds, or when a memory about to be given
changed. Standard library only while the index holds and nothing stale is given.
"""

from __future__ import annotations

import os

from memkit.agents import pointofaction as poa
from memkit.agents import recall
from memkit.agents.payload import (
    additional_context,
    edited_file,
    find_root,
    record,
    session_id,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _rebuild(root: str, today: str) -> recall.Index:
    from memkit.agents.indexer import build_bytes

    return recall.from_bytes(root, build_bytes(root, today))


def index(root: str, today: str, *, thorough: bool = False) -> recall.Index:
    """The index of `root`, rebuilt if it no longer holds."""
    idx = recall.open_index(root)
    if idx is not None and recall.fresh(idx, today):
        if not thorough:
            return idx
        from memkit.agents.indexer import digest

        if idx.header.get("digest") == digest(root):
            return idx
    if idx is not None:
        idx.close()
    return _rebuild(root, today)


def _answer(root: str, today: str, ask: Callable[[recall.Index], str | None]) -> str:
    """`ask` the index; when a memory changed under it, rebuild it and ask once more."""
    idx = index(root, today)
    try:
        got = ask(idx)
    finally:
        idx.close()
    if got is None:
        idx = _rebuild(root, today)
        try:
            got = ask(idx)
        finally:
            idx.close()
    return got or ""


def post_tool_use(payload: dict[str, Any]) -> tuple[str, str]:
    """Append one line to the session's journal; after a Read, the memories about the
    file. (stdout, text for stderr)."""
    from memkit.agents.journal import append, journal_file

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
    text = _answer(root, today, lambda idx: poa.on_file(idx, sid, rel, today=today))
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
    text = _answer(root, today, lambda idx: poa.on_file(idx, sid, rel, today=today))
    return additional_context("PreToolUse", text)


def user_prompt_submit(payload: dict[str, Any]) -> str:
    """The few memories the prompt calls for, not yet given in this session."""
    root = find_root(payload)
    prompt = payload.get("prompt")
    if root is None or not isinstance(prompt, str) or not prompt.strip():
        return ""
    sid, today = session_id(payload), recall.today_iso()
    text = _answer(root, today, lambda idx: poa.on_prompt(idx, sid, prompt, today=today))
    return additional_context("UserPromptSubmit", text)


def session_start(payload: dict[str, Any]) -> str | None:
    """The SessionStart output from the index; None when the full handler must answer
    (the session touched files before a resume or compaction, or a memory changed)."""
    root = find_root(payload)
    if root is None:
        return ""
    sid = payload.get("session_id")
    sid = sid if isinstance(sid, str) else ""
    source = payload.get("source")
    source = source if isinstance(source, str) else ""
    from memkit.agents.journal import journal_file

    if sid and os.path.exists(journal_file(root, sid)):
        return None  # resume / compact: the files it touched come too (the full handler)
    today = recall.today_iso()
    _prune(root, today)
    idx = index(root, today, thorough=True)
    try:
        text = poa.on_start(idx, sid, source, today=today)
    finally:
        idx.close()
    return None if text is None else additional_context("SessionStart", text)


def _prune(root: str, today: str) -> None:
    import datetime as dt
    from pathlib import Path

    from memkit.agents.journal import JOURNAL_DAYS, prune_journals

    try:
        day = dt.date.fromisoformat(today)
    except ValueError:
        return
    prune_journals(Path(root), keep_days=JOURNAL_DAYS, today=day)


HANDLERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "post-tool-use": post_tool_use,
    "pre-tool-use": pre_tool_use,
    "user-prompt-submit": user_prompt_submit,
}
