"""Give an agent the memories it needs when it touches a file or asks something.

`on_file` (before an edit, after a read) and `on_prompt` pick memories from the index
(memkit.agents.claude.recall), leave out what the session has (its ledger) and what
Claude Code loaded itself, read those given fresh, mark stale ones, and fit them in the
`[agents]` budgets of .memory/config.toml; everything given gets a receipt. Each returns
the text, or None when a memory changed since the index was built (the caller rebuilds
and asks again). Standard library only until a memory with verified links is given.
"""

from __future__ import annotations

import os
import time

from memkit.agents.claude import ledger, recall, session_text, words
from memkit.agents.claude.recall import (
    ABOUT,
    COMPILED,
    LINKED,
    MTIME,
    OFFSET,
    PATH,
    SIZE,
    TITLE,
    TYPE,
)
from memkit.controls import for_agent

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

CONTEXT_CHARS = 10_000  # Claude Code's cap on one additionalContext
DEFAULTS = {"session_budget": 40_000, "file_budget": 4_000, "prompt_budget": 3_000,
            "prompt_memories": 3}  # fmt: skip
CAPS = {"session_budget": 10**7, "file_budget": CONTEXT_CHARS, "prompt_budget": CONTEXT_CHARS,
        "prompt_memories": 20}  # fmt: skip
MAX_MEMORY = 1024 * 1024  # bytes of a memory file read for its body
MAX_PATH = 4096  # characters of a touched file's path looked up: Linux's PATH_MAX


def budget_values(root: Path) -> dict[str, int]:
    """The `[agents]` budgets; a value that is not a positive integer keeps the default."""
    from memkit.config import load

    try:
        section = load(root).section("agents")
    except Exception:
        section = {}
    out = {}
    for key, default in DEFAULTS.items():
        v = section.get(key, default)
        ok = isinstance(v, int) and not isinstance(v, bool) and v > 0
        out[key] = min(v, CAPS[key]) if ok else default
    return out


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def body(root: str, entry: list[Any]) -> tuple[str, bytes] | None:
    """(markdown text, file bytes) of the memory `entry` names, read fresh (through
    memkit.fsutil); None when the file changed since it was indexed."""
    from memkit.errors import MemkitError
    from memkit.fsutil import read_regular

    path = os.path.join(root, entry[PATH])
    if recall.stamp(path) != [entry[SIZE], entry[MTIME]]:
        return None
    try:
        data = read_regular(path, limit=MAX_MEMORY, what=entry[PATH])
    except (OSError, MemkitError):
        return None
    head = data[: entry[OFFSET]].rstrip(b" \t\r\n")
    if len(data) != entry[SIZE] or not head.endswith((b"---", b"...")):
        return None
    return data[entry[OFFSET] :].decode("utf-8", "replace").strip("\n"), data


VERDICTS = "agents-verdicts.json"
MAX_VERDICTS = 4096


def marks(root: str, chosen: list[tuple[str, list[Any]]], today: str) -> dict[str, str]:
    """{id: how its linked code changed} for the stale ones among `chosen` ((id, entry)
    with verified links). A verdict is kept (agents-verdicts.json in the private folder)
    with what it was made from: the memory file's and its linked files' stamps and
    HEAD; the engine is asked only when one of them changed."""
    if not chosen:
        return {}
    import json

    from memkit.cachedir import cache_dir

    path = os.path.join(cache_dir(root), VERDICTS)
    try:
        with open(path, "rb") as f:
            cache = json.loads(f.read(16 * 1024 * 1024))
    except (OSError, ValueError, RecursionError):
        cache = {}
    cache = cache if isinstance(cache, dict) else {}
    head = ledger.head_commit(root)
    keys = {
        mid: [e[SIZE], e[MTIME], [recall.stamp(os.path.join(root, p)) for p in e[LINKED]], head]
        for mid, e in chosen
    }
    out: dict[str, str] = {}
    missing = []
    for mid, key in keys.items():
        got = cache.get(mid)
        if isinstance(got, list) and len(got) == 2 and got[0] == key and isinstance(got[1], str):
            if got[1]:
                out[mid] = got[1]
        else:
            missing.append(mid)
    if missing:
        found = _staleness(root, missing, today)
        out.update(found)
        for mid in missing:
            cache.pop(mid, None)
            cache[mid] = [keys[mid], found.get(mid, "")]
        while len(cache) > MAX_VERDICTS:
            cache.pop(next(iter(cache)))
        import contextlib
        from pathlib import Path

        from memkit.fsutil import atomic_write

        with contextlib.suppress(OSError):
            data = json.dumps(cache, separators=(",", ":")).encode("ascii")
            atomic_write(Path(path), data, fsync=False)
    return out


def _staleness(root: str, ids: list[str], today: str) -> dict[str, str]:
    """{id: how its linked code changed} for the stale ones among `ids` (the engine)."""
    import datetime as dt
    from pathlib import Path

    from memkit.staleness import check_store
    from memkit.store import Store

    try:
        statuses = check_store(Store(Path(root)), today=dt.date.fromisoformat(today), ids=ids)
    except Exception:
        return {}  # outside git, or a broken repository: give the memories unmarked
    return {s.id: s.describe() or s.state for s in statuses if s.stale}


def give(
    index: recall.Index,
    sid: str,
    *,
    event: str,
    picks: list[tuple[str, list[Any], str]],
    heading: str,
    cap: int,
    today: str,
    had: tuple[set[str], int] | None = None,
) -> str | None:
    """The markdown for `picks` ((id, entry, why)) not yet given this session, within
    `cap` and the session's budget; receipts written for what it holds. "" for nothing.
    `had`: the session's (ids given, characters spent), when already read."""
    root = index.root
    path = ledger.receipts_file(root, sid)
    seen, spent = ledger.state(ledger.records(path, since_start=True)) if had is None else had
    room = min(cap, index.budget("session_budget") - spent)
    wanted = [(mid, e, why) for mid, e, why in picks if mid not in seen and not e[COMPILED]]
    if not wanted or room < 200:
        return ""
    head = f"# {heading}\n\nFrom .memory/ (memkit). `memkit show ID` prints one in full.\n"
    used = len(head)
    chosen: list[tuple[str, list[Any], str, tuple[str, bytes]]] = []
    for mid, e, why in wanted:  # read only what may fit
        if used + 60 + len(e[TITLE]) > room:
            continue
        got = body(root, e)
        if got is None:
            return None
        chosen.append((mid, e, why, got))
        used += len(_block(mid, e, got[0], ""))
    stale_of = marks(root, [(mid, e) for mid, e, _, _ in chosen if e[LINKED]], today)
    blocks: list[str] = []
    given: list[dict[str, object]] = []
    size, at, commit = len(head), now(), ledger.head_commit(root)
    for mid, e, why, (text, data) in chosen:
        stale = stale_of.get(mid, "")
        b = _block(mid, e, text, stale)
        if size + len(b) <= room:
            blocks.append(b)
            size += len(b)
            given.append({"at": at, "event": event, "why": why, "id": mid, "chars": len(b)})
            given[-1].update(blob=ledger.blob_id(data), commit=commit, stale=stale)
    names = {str(g["id"]) for g in given}
    left = [mid for mid, _, _ in wanted if mid not in names]
    while blocks and size + len(session_text.left_out_note(left)) > room:  # the list counts too
        size -= len(blocks.pop())
        left.insert(0, str(given.pop()["id"]))
    if not given:
        return ""
    ledger.append(path, given)
    return head + "".join(blocks) + session_text.left_out_note(left)


def _block(mid: str, e: list[Any], text: str, stale: str) -> str:
    return session_text.block(e[TITLE], e[TYPE], mid, stale, text, str(e[ABOUT]))


def on_file(index: recall.Index, sid: str, rel: str, *, today: str) -> str | None:
    """What to give when the agent touches `rel`: memories linked to it or scoped to it.
    A path longer than MAX_PATH names no file the system can open: it gets nothing."""
    if len(rel) > MAX_PATH:
        return ""
    had = ledger.state(ledger.records(ledger.receipts_file(index.root, sid), since_start=True))
    if index.budget("session_budget") - had[1] < 200:
        return ""  # the session's budget is spent: no lookup
    found = recall.about_file(index, rel)
    if not found:
        return ""
    picks = [(mid, e, rel) for mid, e, _ in found]
    cap = index.budget("file_budget")
    return give(
        index,
        sid,
        event="file",
        picks=picks,
        heading=f"Memories about {for_agent(rel)}",
        cap=cap,
        today=today,
        had=had,
    )


def on_prompt(index: recall.Index, sid: str, prompt: str, *, today: str) -> str | None:
    """What to give for a prompt: the few memories whose words it shares most."""
    found = words.about_prompt(index, prompt, limit=index.budget("prompt_memories"))
    picks = []
    for mid, why in found:
        e = index.entry(mid)
        if e is not None:
            picks.append((mid, e, f"prompt: {why}"))
    if not picks:
        return ""
    return give(
        index,
        sid,
        event="prompt",
        picks=picks,
        heading="Memories that may bear on this request",
        cap=index.budget("prompt_budget"),
        today=today,
    )
