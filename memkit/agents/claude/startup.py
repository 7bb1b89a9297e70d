"""What the SessionStart hook gives: the always-on memories, the lines of those fetched by
their description, and after a resume or compact the memories about the files touched;
with a receipt for each. Imported at session start and by `compile --explain`, never on
a tool call (those hooks stay light).
"""

from __future__ import annotations

import os

from memkit.agents.claude import pointofaction as poa
from memkit.agents.claude import recall
from memkit.agents.claude.filecontext import asked
from memkit.agents.claude.session_text import CONTEXT_CHARS, HEAD, assemble, block, left_out_note

TYPE_CHECKING = False  # imported at session start: no typing, dataclasses nor pathlib (~25 ms)
if TYPE_CHECKING:
    from typing import Any

    # The SessionStart text; always-on (id, characters); described (id, characters, path);
    # about the files touched (id, why, characters, blob); {id: (text, bytes)} read. A
    # tuple: a dataclass (and inspect with it) would cost every session start ~15 ms.
    Composed = tuple[
        str,
        list[tuple[str, int]],
        list[tuple[str, int, str]],
        list[tuple[str, str, int, str]],
        dict[str, Any],
    ]

DESCRIBED = (
    "\n## Fetch when useful\n\nRead one with `memkit show ID` when its description "
    "fits the task.\n\n"
)


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

    got = _compose(index, today, files)
    if got is None:
        return None
    text, chosen, described, more, texts = got
    at, commit = poa.now(), ledger.head_commit(index.root)
    recs: list[dict[str, object]] = []
    if source != "resume":  # a new session, /clear, a compaction: the context starts afresh
        recs.append({"at": at, "event": "start", "why": source or "startup", "id": "", "chars": 0})
    recs += at_start(index.root, cwd or index.root, at, f"loaded at {source or 'startup'}", commit)
    given = [(m, "always on", n, ledger.blob_id(texts[m][1]), "") for m, n in chosen]
    given += [(*f, "") for f in more]
    why = "described (activation: agent)"
    given += [(m, why, n, _blob(index.root, p), "description") for m, n, p in described]
    for mid, why, chars, blob, form in given:  # ledger.line leaves out an empty form
        rec = {"at": at, "event": "session-start", "why": why, "id": mid, "chars": chars}
        recs.append({**rec, "blob": blob, "commit": commit, "form": form})
    if sid:
        ledger.append(ledger.receipts_file(index.root, sid), recs)
    return text


def _compose(index: recall.Index, today: str, files: list[str]) -> Composed | None:
    """The SessionStart text and what it gives, or None when a memory that could be given
    changed since the index was built."""
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
    got = asked(root, today, lambda idx: _compose(idx, today, []), thorough=True)
    if got is None:
        return [], []
    return [m for m, _ in got[1]], [m for m, _, _ in got[2]]


def _described(found: Any, text: str, room: int) -> tuple[str, list[tuple[str, int, str]]]:
    """`text` with a line for each memory the agent fetches by its description
    (`activation: agent`), as many as fit in `room`; with (id, characters, path) of each."""
    from memkit.controls import for_agent

    rows = [
        r
        for r in found or ()
        if isinstance(r, list) and len(r) == 4 and all(isinstance(x, str) for x in r)
    ]
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
    ctx, paths = indexed_context(index, files, budget_tokens=budget, today=today)
    skip = compiled_ids(index.root)
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
