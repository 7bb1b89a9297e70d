"""What Claude Code gets at session start: the memories it does not already load.

CLAUDE.md (and the files it imports with `@file`) may carry memories memkit compiled;
their `<!-- memkit:id=ID -->` lines say which. Everything else that is always on comes
first, then, after a resume or compact, the memories about the files the session
touched, all within what Claude Code accepts as additionalContext. The store is read
once (ReadOnce) and every step (the always-on memories, their staleness, the context
for files) works from that one read.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.store import Store

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.store import Loaded

CONTEXT_CHARS = 10_000  # what Claude Code accepts as SessionStart additionalContext
MAX_IMPORTED = 4 * 1024 * 1024  # a file CLAUDE.md imports, read for memkit's own ids


def compiled_ids(root: Path) -> set[str]:
    """Ids of the memories compiled in full into what Claude Code loads at startup.

    Reads the `<!-- memkit:id=ID -->` provenance lines of CLAUDE.md (and
    .claude/CLAUDE.md), following their `@file` imports as Claude Code does.
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
        ids.update(re.findall(r"<!-- memkit:id=([a-z0-9-]+) -->", text))
        for target in re.findall(r"^@([^\s]+)[ \t]*$", text, re.MULTILINE):
            todo.append((Path(os.path.normpath(path.parent / target)), depth + 1))
    return ids


class ReadOnce(Store):
    """A store that answers from one read of .memory/: memories(), load() and get_many()
    return what the first load found (an id it did not find is looked up as usual)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store.root)
        self._loaded = store.load()
        self._by_id = {m.id: m for m in self._loaded.memories}

    def load(self) -> Loaded:
        return self._loaded

    def memories(self) -> list[Memory]:
        return sorted(self._loaded.memories, key=lambda m: m.id)

    def get_many(self, ids: Iterable[str]) -> list[Memory]:
        wanted = sorted(set(ids))
        if all(mid in self._by_id for mid in wanted):
            return [self._by_id[mid] for mid in wanted]
        return super().get_many(wanted)


def context_text(store: Store, *, files: list[str], today: dt.date) -> str:
    """Markdown of the memories relevant to a session, within CONTEXT_CHARS.

    The always-on memories CLAUDE.md does not already carry in full, then (on resume
    or compact) the memories about the files the session touched; stale ones marked.
    """
    from memkit.agents.tools import status_source
    from memkit.memory import TYPES
    from memkit.search.context import build_context

    store = ReadOnce(store)
    skip = compiled_ids(store.root)
    statuses = status_source(store, today)
    always = sorted(
        (m for m in store.memories() if _live(m, today) and not m.paths and m.id not in skip),
        key=lambda m: (not m.pin, -m.priority, TYPES.index(m.type), m.id),  # as compiled
    )
    marks = statuses([m.id for m in always]) if always else {}
    head = (
        "# Project memories (memkit)\n\nFrom .memory/, reviewed in git; CLAUDE.md does not "
        "carry these. `memkit show ID` prints one in full.\n"
    )
    blocks: list[str] = []
    left_out: list[str] = []
    size = len(head)
    room = CONTEXT_CHARS * 3 // 4 if files else CONTEXT_CHARS - 200  # keep room for files
    for m in always:
        ms = marks.get(m.id)
        stale = f"\n> **Possibly out of date**: {ms.describe()}\n" if ms and ms.stale else ""
        block = f"\n## {m.title}\n\n_{m.type} `{m.id}`_\n{stale}\n{m.text}\n"
        if size + len(block) > room:
            left_out.append(m.id)
        else:
            blocks.append(block)
            size += len(block)
    text = head + "".join(blocks) if blocks else ""
    if files:
        budget = (CONTEXT_CHARS - len(text) - 400) // 4
        ctx = build_context(
            store,
            files=files,
            query=None,
            budget_tokens=budget,
            exclude_always_on=True,
            today=today,
            statuses=statuses,
        )
        ctx = dataclasses.replace(ctx, items=tuple(i for i in ctx.items if i.id not in skip))
        more = ctx.to_markdown()
        if more and len(text) + len(more) < CONTEXT_CHARS - 200:
            text += ("\n" if text else "") + more
    if left_out:
        text += f"\n_Left out for size: {', '.join(left_out)} (`memkit show ID`)._\n"
    return text


def _live(m: Any, today: dt.date) -> bool:
    return bool(m.in_force(today))
