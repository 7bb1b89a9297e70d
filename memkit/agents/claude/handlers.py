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
from memkit.agents.claude.filecontext import index, rebuild
from memkit.agents.claude.payload import (
    additional_context,
    edited_file,
    find_root,
    record,
    session_id,
)
from memkit.agents.claude.session_text import CONTEXT_CHARS, HEAD, assemble, block, left_out_note

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    # the SessionStart text, then what it gives: always-on ids with their characters,
    # described ids (characters, path), file memories, and the memories' texts
    Composed = tuple[
        str, list[tuple[str, int]], list[tuple[str, int, str]], list[tuple[str, str, int, str]], Any
    ]


def _answer(
    root: str, today: str, ask: Callable[[recall.Index], str | None], *, thorough: bool = False
) -> str:
    """`ask` the index; when a memory changed under it, rebuild it and ask once more."""
    idx = index(root, today, thorough=thorough)
    try:
        got = ask(idx)
    finally:
        idx.close()
    if got is None:
        idx = rebuild(root, today)
        try:
            got = ask(idx)
        finally:
            idx.close()
    return got or ""


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

    def ask(idx: recall.Index) -> str | None:
        return start_text(idx, sid, source, today=day, files=files, cwd=cwd)

    return additional_context("SessionStart", _answer(root, day, ask, thorough=True))


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
    from pathlib import Path

    from memkit.agents.claude.journal import JOURNAL_DAYS, prune_journals

    try:
        day = dt.date.fromisoformat(today)
    except ValueError:
        return
    prune_journals(Path(root), keep_days=JOURNAL_DAYS, today=day)


def start_text(
    index: recall.Index, sid: str, source: str, *, today: str, files: list[str], cwd: str = ""
) -> str | None:
    """The SessionStart text, with receipts; None when a memory that could be given
    changed since the index was built. `files`: those the session touched (resume,
    compact), whose memories come after the always-on ones. The receipts also name
    what Claude Code loads by itself from the compiled files (memkit.agents.claude.loaded),
    for a session started in `cwd` (the root when empty)."""
    from memkit.agents.claude import ledger
    from memkit.agents.claude.loaded import at_start

    composed = _compose(index, today, files)
    if composed is None:
        return None
    text, chosen, lines, more, texts = composed
    at, commit = poa.now(), ledger.head_commit(index.root)
    recs: list[dict[str, object]] = []
    if source != "resume":  # a new session, /clear, a compaction: the context starts afresh
        recs.append({"at": at, "event": "start", "why": source or "startup", "id": "", "chars": 0})
    recs += at_start(index.root, cwd or index.root, at, f"loaded at {source or 'startup'}", commit)
    given = [(m, "always on", chars, ledger.blob_id(texts[m][1])) for m, chars in chosen]
    for mid, why, chars, blob in [*given, *more]:
        recs.append({"at": at, "event": "session-start", "why": why, "id": mid,
                     "chars": chars, "blob": blob, "commit": commit})  # fmt: skip
    why = "described (activation: agent)"
    for mid, chars, path in lines:
        recs.append({"at": at, "event": "session-start", "why": why, "id": mid, "chars": chars,
                     "blob": _blob(index.root, path), "commit": commit,
                     "form": "description"})  # fmt: skip
    if sid:
        ledger.append(ledger.receipts_file(index.root, sid), recs)
    return text


def _compose(index: recall.Index, today: str, files: list[str]) -> Composed | None:
    """(text, chosen, described lines, file memories, texts) of the SessionStart text, or
    None when a memory that could be given changed since the index was built."""
    start = index.chunk_start()
    ids, entries = start["ids"], start["m"]
    room = CONTEXT_CHARS * 3 // 4 if files else CONTEXT_CHARS
    texts = _fitting(index, ids, entries)
    if texts is None:
        return None
    never = " " * (CONTEXT_CHARS + 1)  # a block that cannot fit: never read
    plain = {m: _block(entries[m], m, "", texts[m][0]) if m in texts else never for m in ids}

    def marked(fits: list[str]) -> dict[str, str]:
        got = poa.marks(
            index.root, [(m, entries[m]) for m in fits if entries[m][recall.LINKED]], today
        )
        return {m: _block(entries[m], m, s, texts[m][0]) for m, s in got.items()}

    unnamed = max(0, int(start["n"]) - len(ids))
    text, chosen, left = assemble(ids, plain, marked, room, unnamed)
    note = left_out_note(left, unnamed)
    text, lines = _described(start.get("a"), text, room - len(note))
    more: list[tuple[str, str, int, str]] = []
    if files:
        text, more = _for_files(index, files, text, len(note), today)
    return text + note, chosen, lines, more, texts


def start_picks(root: str, today: str) -> tuple[list[str], list[str]]:
    """What the SessionStart hook gives a new session started at `root`: the ids given in
    full, then those given by their description (`activation: agent`). Nothing is recorded."""
    composed = _compose(index(root, today, thorough=True), today, [])
    if composed is None:  # a memory changed since the index was built
        composed = _compose(rebuild(root, today), today, [])
    if composed is None:
        return [], []
    return [m for m, _ in composed[1]], [m for m, _, _ in composed[2]]


DESCRIBED = (
    "\n## Fetch when useful\n\nRead one with `memkit show ID` when its description "
    "fits the task.\n\n"
)


def _described(found: Any, text: str, room: int) -> tuple[str, list[tuple[str, int, str]]]:
    """`text` with a line for each memory the agent fetches by its description
    (`activation: agent`), as many as fit in `room`; with (id, characters, path) of each."""
    from memkit.controls import for_agent

    rows = [r for r in found or () if isinstance(r, list) and len(r) == 4
            and all(isinstance(x, str) for x in r)]  # fmt: skip
    size = len(text or HEAD) + len(DESCRIBED)
    lines: list[str] = []
    given: list[tuple[str, int, str]] = []
    for mid, title, about, path in rows:
        line = f"- {for_agent(title)}: {for_agent(about)} (`memkit show {for_agent(mid)}`)\n"
        if size + len(line) > room:
            break
        size += len(line)
        lines.append(line)
        given.append((mid, len(line), path))
    if not lines:
        return text, []
    return (text or HEAD) + DESCRIBED + "".join(lines), given


def _block(e: list[Any], mid: str, stale: str, text: str) -> str:
    return block(e[recall.TITLE], e[recall.TYPE], mid, stale, text)


def _fitting(index: recall.Index, ids: list[str], entries: dict[str, Any]) -> dict[str, Any] | None:
    """{id: (text, bytes)} of the candidates that could fit, read fresh; None when one
    changed since the index was built."""
    texts: dict[str, Any] = {}
    size = len(HEAD)
    for mid in ids:
        e = entries[mid]
        if size > CONTEXT_CHARS:
            break  # cannot fit: never read
        got = poa.body(index.root, e)
        if got is None:
            return None
        texts[mid] = got
        size += len(_block(e, mid, "", got[0]))
    return texts


def _for_files(
    index: recall.Index, files: list[str], text: str, note: int, today: str
) -> tuple[str, list[tuple[str, str, int, str]]]:
    """`text` plus the memories about `files` that are not always on, if they fit; with
    (id, why, characters, blob) for their receipts."""
    import dataclasses

    from memkit.agents.claude.filecontext import indexed_context
    from memkit.agents.claude.preloaded import compiled_ids

    budget = (CONTEXT_CHARS - len(text) - note - 400) // 4
    if budget <= 0:
        return text, []
    from pathlib import Path

    ctx, paths = indexed_context(index, files, budget_tokens=budget, today=today)
    skip = compiled_ids(Path(index.root))
    items = tuple(i for i in ctx.items if i.id not in skip)
    more = dataclasses.replace(ctx, items=items).to_markdown()
    if not more or len(text) + 1 + len(more) + note > CONTEXT_CHARS:
        return text, []
    share = len(more) // max(1, len(items))
    given = [(i.id, "files touched", share, _blob(index.root, paths.get(i.id))) for i in items]
    return text + ("\n" if text else "") + more, given


def _blob(root: str, rel: str | None) -> str:
    """The git blob id of the memory file at `rel`, for its receipt ("" if unreadable)."""
    from memkit.agents.claude import ledger

    if rel is None:
        return ""
    try:
        with open(os.path.join(root, rel), "rb") as f:
            return ledger.blob_id(f.read(poa.MAX_MEMORY))
    except OSError:
        return ""


HANDLERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "post-tool-use": post_tool_use,
    "pre-tool-use": pre_tool_use,
    "user-prompt-submit": user_prompt_submit,
    "session-start": session_start,
}
