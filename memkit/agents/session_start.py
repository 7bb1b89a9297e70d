"""What Claude Code gets at session start: the memories it does not already load.

CLAUDE.md (and the files it imports with `@file`) may carry memories memkit compiled;
their `<!-- memkit:id=ID -->` lines say which. Everything else that is always on comes
first, then, after a resume or compact, the memories about the files the session
touched, all within what Claude Code accepts as additionalContext. The store is read
once (Store(once=True)) and every step (the always-on memories, their staleness, the context
for files) works from that one read.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.agents.startlayout import CONTEXT_CHARS, assemble, block, left_out_note
from memkit.store import Store

if TYPE_CHECKING:
    from memkit.memory import Memory

MAX_IMPORTED = 4 * 1024 * 1024  # a file CLAUDE.md imports, read for memkit's own ids


def compiled_ids(root: Path, read: list[str] | None = None) -> set[str]:
    """Ids of the memories compiled in full into what Claude Code loads at startup.

    Reads the `<!-- memkit:id=ID -->` provenance lines of CLAUDE.md (and
    .claude/CLAUDE.md), following their `@file` imports as Claude Code does. The
    imported files read are added to `read` (relative paths) when given.
    """
    from memkit.errors import MemkitError
    from memkit.fsutil import read_inside

    ids: set[str] = set()
    todo = [(root / "CLAUDE.md", 0), (root / ".claude" / "CLAUDE.md", 0)]
    seen: set[Path] = set()
    while todo:
        path, depth = todo.pop()
        if path in seen or depth > 5 or not path.is_relative_to(root):
            continue  # memkit compiles only inside the project; `@~/x` is not its file
        seen.add(path)
        try:
            text = read_inside(root, path.relative_to(root), limit=MAX_IMPORTED).decode("utf-8")
        except (OSError, UnicodeDecodeError, MemkitError):
            continue  # missing, a link out, a FIFO or device, too big: not memkit's file
        if read is not None:
            read.append(path.relative_to(root).as_posix())
        ids.update(re.findall(r"<!-- memkit:id=([a-z0-9-]+) -->", text))
        for target in re.findall(r"^@([^\s]+)[ \t]*$", text, re.MULTILINE):
            todo.append((Path(os.path.normpath(path.parent / target)), depth + 1))
    return ids


@dataclasses.dataclass(frozen=True)
class StartContext:
    """What SessionStart gives: the text (at most CONTEXT_CHARS, everything counted)
    and, per memory in it, (id, why, characters) for the receipts."""

    text: str
    given: tuple[tuple[str, str, int], ...] = ()


def context(store: Store, *, files: list[str], today: dt.date) -> StartContext:
    """The memories relevant to a session, within CONTEXT_CHARS including the list of
    what was left out.

    The always-on memories CLAUDE.md does not already carry in full, then (on resume
    or compact) the memories about the files the session touched; stale ones marked.
    Staleness is asked only for the memories that can fit.
    """
    from memkit.agents.tools import status_source
    from memkit.memory import TYPES

    store = store if store.once else Store(store.root, store._config, once=True)
    skip = compiled_ids(store.root)
    statuses = status_source(store, today)
    always = sorted(
        (m for m in store.memories() if _live(m, today) and not m.paths and m.id not in skip),
        key=lambda m: (
            bool(m.origin),
            not m.pin,
            -m.priority,
            TYPES.index(m.type),
            m.id,
        ),  # as compiled
    )
    by_id = {m.id: m for m in always}

    def marked(ids: list[str]) -> dict[str, str]:
        got = statuses(ids)
        return {mid: _block(by_id[mid], s.describe()) for mid, s in got.items() if s.stale}

    room = CONTEXT_CHARS * 3 // 4 if files else CONTEXT_CHARS
    plain = {m.id: _block(m, "") for m in always}
    text, chosen, left = assemble([m.id for m in always], plain, marked, room)
    given = [(mid, "always on", chars) for mid, chars in chosen]
    if files:
        text, more = _for_files(store, files, text, skip, statuses, today, len(left_out_note(left)))
        given += more
    text += left_out_note(left)
    assert len(text) <= CONTEXT_CHARS, len(text)
    return StartContext(text, tuple(given))


def _block(m: Memory, stale: str) -> str:
    return block(m.title, m.type, m.id, stale, m.text)


def _for_files(
    store: Store,
    files: list[str],
    text: str,
    skip: set[str],
    statuses: Any,
    today: dt.date,
    note: int,
) -> tuple[str, list[tuple[str, str, int]]]:
    """`text` plus the memories about `files` (resume, compact), if they fit."""
    from memkit.search.context import build_context

    budget = (CONTEXT_CHARS - len(text) - note - 400) // 4
    if budget <= 0:
        return text, []
    ctx = build_context(
        store,
        files=files,
        query=None,
        budget_tokens=budget,
        exclude_always_on=True,
        today=today,
        statuses=statuses,
    )
    items = tuple(i for i in ctx.items if i.id not in skip)
    more = dataclasses.replace(ctx, items=items).to_markdown()
    if not more or len(text) + 1 + len(more) + note > CONTEXT_CHARS:
        return text, []
    share = len(more) // max(1, len(items))
    return text + ("\n" if text else "") + more, [(i.id, "files touched", share) for i in items]


def _live(m: Any, today: dt.date) -> bool:
    return bool(m.in_force(today))
