"""Give an agent the memories it needs when it touches a file or asks something.

`on_file` (PreToolUse before an edit, PostToolUse after a read) and `on_prompt`
(UserPromptSubmit) pick memories with memkit.agents.recall, leave out what the session
already has (its receipts, memkit.agents.receipts) and what Claude Code already loaded
(memories compiled into CLAUDE.md or .claude/rules/), mark stale ones with what
changed, and fit the rest in the event's budget and what is left of the session's.
Everything given gets a receipt. Budgets, in characters, come from `[agents]` in
.memory/config.toml: `session_budget`, `file_budget`, `prompt_budget`, `prompt_memories`.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.agents import recall
from memkit.agents import receipts as rc

if TYPE_CHECKING:
    import datetime as dt

CONTEXT_CHARS = 10_000  # Claude Code's cap on one additionalContext
DEFAULTS = {"session_budget": 40_000, "file_budget": 4_000, "prompt_budget": 3_000}
PROMPT_MEMORIES = 3


@dataclass(frozen=True)
class Budget:
    session: int
    file: int
    prompt: int
    prompt_memories: int


def budget(root: Path) -> Budget:
    """The `[agents]` budgets; a value that is not a positive integer keeps the default."""
    from memkit.config import load

    try:
        section = load(root).section("agents")
    except Exception:
        section = {}

    def value(key: str, default: int, cap: int) -> int:
        v = section.get(key, default)
        return min(v, cap) if isinstance(v, int) and not isinstance(v, bool) and v > 0 else default

    return Budget(
        session=value("session_budget", DEFAULTS["session_budget"], 10**7),
        file=value("file_budget", DEFAULTS["file_budget"], CONTEXT_CHARS),
        prompt=value("prompt_budget", DEFAULTS["prompt_budget"], CONTEXT_CHARS),
        prompt_memories=value("prompt_memories", PROMPT_MEMORIES, 20),
    )


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _index(root: Path, today: dt.date, part: str = recall.INDEX_NAME) -> dict[str, Any]:
    index = recall.load(root, part)
    if index is None:
        from memkit.store import Store

        index = recall.build(Store(root), today=today, part=part)
    return index


def give(
    root: Path,
    sid: str,
    *,
    event: str,
    picks: list[tuple[str, str]],
    heading: str,
    cap: int,
    today: dt.date,
    index: dict[str, Any],
    again: bool = True,
) -> str:
    """The markdown for `picks` ((id, why)) not yet given this session, within `cap`
    and the session's budget; receipts written for what it holds. "" for nothing."""
    ledger = rc.receipts_path(root, sid)
    had = rc.read(ledger)
    seen = rc.given(had)
    room = min(cap, budget(root).session - rc.spent(had))
    skip = seen | set(index["compiled"])
    wanted = [
        (e, why) for mid, why in picks if mid not in skip for e in recall.entries(index, [mid])
    ]
    if not wanted or room < 200:
        return ""
    bodies = {}
    for e, _ in wanted:
        got = recall.body(root, e)
        if got is None and again:  # changed since indexing: rebuild once, then read again
            from memkit.store import Store

            part = recall.WORDS_NAME if "words" in index else recall.INDEX_NAME
            fresh = recall.build(Store(root), today=today, part=part)
            return give(
                root,
                sid,
                event=event,
                picks=picks,
                heading=heading,
                cap=cap,
                today=today,
                index=fresh,
                again=False,
            )
        if got is not None:
            bodies[e.id] = got
    wanted = [(e, why) for e, why in wanted if e.id in bodies]
    marks = _staleness(root, [e.id for e, _ in wanted if e.verified], today)
    text, given, _ = _render(heading, wanted, bodies, marks, room)
    if not given:
        return ""
    commit = rc.head_commit(root)
    at = _now()
    rc.write(
        ledger,
        [
            rc.Receipt(at, event, why, e.id, chars, rc.blob_id(bodies[e.id][1]), commit, stale)
            for e, why, chars, stale in given
        ],
    )
    return text


def _staleness(root: Path, ids: list[str], today: dt.date) -> dict[str, str]:
    """{id: how its linked code changed} for the stale ones among `ids`."""
    if not ids:
        return {}
    from memkit.staleness import check_store
    from memkit.store import Store

    try:
        statuses = check_store(Store(root), today=today, ids=ids)
    except Exception:
        return {}  # outside git, or a broken repository: give the memories unmarked
    return {s.id: s.describe() or s.state for s in statuses if s.stale}


def _render(
    heading: str,
    wanted: list[tuple[recall.Entry, str]],
    bodies: dict[str, tuple[str, bytes]],
    marks: dict[str, str],
    room: int,
) -> tuple[str, list[tuple[recall.Entry, str, int, str]], list[str]]:
    """(text, [(entry, why, chars, stale)] given, ids left out), the text within `room`."""
    head = f"# {heading}\n\nFrom .memory/ (memkit). `memkit show ID` prints one in full.\n"
    blocks: list[str] = []
    given: list[tuple[recall.Entry, str, int, str]] = []
    left: list[str] = []
    for e, why in wanted:
        stale = marks.get(e.id, "")
        warn = f"\n> **Possibly out of date**: {stale}\n" if stale else ""
        about = f", about {e.about}" if e.about else ""
        block = f"\n## {e.title}\n\n_{e.type} `{e.id}`{about}_\n{warn}\n{bodies[e.id][0]}\n"
        if len(head) + sum(map(len, blocks)) + len(block) + _note_len([*left, e.id]) <= room:
            blocks.append(block)
            given.append((e, why, len(block), stale))
        else:
            left.append(e.id)
    if not given:
        return "", [], left
    return head + "".join(blocks) + _note(left), given, left


def _note(left: list[str]) -> str:
    return f"\n_Left out for size: {', '.join(left)} (`memkit show ID`)._\n" if left else ""


def _note_len(left: list[str]) -> int:
    return len(_note(left))


def record_start(
    root: Path, sid: str, source: str, given: tuple[tuple[str, str, int], ...]
) -> None:
    """Receipts for what SessionStart gave. A new session, /clear and a compaction
    start the agent's context afresh: what it was given before counts no more."""
    path = rc.receipts_path(root, sid)
    at, commit = _now(), rc.head_commit(root)
    lines = [] if source == "resume" else [rc.Receipt(at, "start", source or "startup", "", 0)]
    index = recall.load(root, recall.WORDS_NAME) or {"memories": {}}
    for mid, why, chars in given:
        blob = _blob(root, index, mid)
        lines.append(rc.Receipt(at, "session-start", why, mid, chars, blob, commit))
    rc.write(path, lines)


def _blob(root: Path, index: dict[str, Any], mid: str) -> str:
    entry = recall.entries(index, [mid])
    got = recall.body(root, entry[0]) if entry else None
    return rc.blob_id(got[1]) if got else ""


def on_file(root: Path, sid: str, rel: str, *, today: dt.date) -> str:
    """What to give when the agent touches `rel`: memories linked to it or scoped to it."""
    index = _index(root, today)
    ids = recall.about_file(index, rel)
    if not ids:
        return ""
    b = budget(root)
    return give(
        root,
        sid,
        event="file",
        picks=[(mid, rel) for mid in ids],
        heading=f"Memories about {rel}",
        cap=b.file,
        today=today,
        index=index,
    )


def on_prompt(root: Path, sid: str, prompt: str, *, today: dt.date) -> str:
    """What to give for a prompt: the few memories whose words it shares most."""
    b = budget(root)
    index = _index(root, today, recall.WORDS_NAME)
    picks = recall.about_prompt(index, prompt, limit=b.prompt_memories)
    if not picks:
        return ""
    picks = [(mid, f"prompt: {words}") for mid, words in picks]
    return give(
        root,
        sid,
        event="prompt",
        picks=picks,
        heading="Memories that may bear on this request",
        cap=b.prompt,
        today=today,
        index=index,
    )
