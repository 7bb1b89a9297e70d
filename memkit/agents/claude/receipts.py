"""Receipts: which memories reached which agent session, when, why, and at which version.

Each session has `receipts/<session>.jsonl` in memkit's private folder (memkit.cachedir;
local, never committed): one JSON line per memory given to the agent, with the time,
the event (`session-start`, `file`, `prompt`), why (the file touched, the words of the
prompt that matched), the memory file's git blob id and the commit HEAD pointed at.
The same file is the session's ledger: `given` says what the session already has, so
no memory is given twice, and `spent` how much of the session's budget is used.
The point-of-action hooks read and write the same lines through memkit.agents.claude.ledger.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memkit.agents.claude import ledger
from memkit.agents.claude.ledger import RECEIPTS_DIR


@dataclass(frozen=True)
class Receipt:
    at: str  # ISO 8601, UTC, to the second
    event: str  # session-start | file | prompt; `start` marks a fresh context (no id)
    why: str  # the file touched, the prompt's matching words, "always on"
    id: str
    chars: int  # what the agent was given for this memory
    blob: str = ""  # the memory file's git blob id at that moment
    commit: str = ""  # HEAD at that moment
    stale: str = ""  # how its linked code changed, when it was given marked stale

    def to_record(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if v != ""}


def receipts_dir(root: Path) -> Path:
    from memkit.cachedir import cache_dir

    return Path(cache_dir(str(root))) / RECEIPTS_DIR


def receipts_path(root: Path, sid: str) -> Path:
    return Path(ledger.receipts_file(str(root), sid))


def read(path: Path) -> list[Receipt]:
    """The receipts in `path`; missing file = none, unreadable lines skipped."""
    out = []
    for rec in ledger.records(str(path)):
        try:
            out.append(
                Receipt(
                    at=str(rec["at"]),
                    event=str(rec["event"]),
                    why=str(rec.get("why", "")),
                    id=str(rec.get("id", "")),
                    chars=int(rec.get("chars", 0)),  # type: ignore[call-overload]
                    blob=str(rec.get("blob", "")),
                    commit=str(rec.get("commit", "")),
                    stale=str(rec.get("stale", "")),
                )
            )
        except (ValueError, KeyError, TypeError):
            continue
    return out


def current(receipts: list[Receipt]) -> list[Receipt]:
    """The receipts since the agent's context last started afresh (a `start` line:
    a new session, /clear, a compaction); what came before is no longer in its context."""
    starts = [i for i, r in enumerate(receipts) if r.event == "start"]
    return receipts[starts[-1] + 1 :] if starts else receipts


def given(receipts: list[Receipt]) -> set[str]:
    """Ids of the memories the agent has in its context now."""
    return {r.id for r in current(receipts) if r.id}


def spent(receipts: list[Receipt]) -> int:
    """Characters of memories given since the context last started afresh."""
    return sum(r.chars for r in current(receipts))


def write(path: Path, receipts: list[Receipt]) -> None:
    """Append receipts, one O_APPEND write for all (concurrent hooks never interleave)."""
    ledger.append(str(path), [r.to_record() for r in receipts])


def blob_id(data: bytes) -> str:
    """The git blob id of `data` (what `git hash-object` prints)."""
    return ledger.blob_id(data)


def head_commit(root: Path) -> str:
    """The commit HEAD points at, read from git's files (no git library); "" if unknown."""
    return ledger.head_commit(str(root))


@dataclass(frozen=True)
class Session:
    id: str
    started: str
    last: str
    memories: int
    chars: int


def sessions(root: Path, limit: int = 20) -> list[Session]:
    """The sessions that received memories, most recent first."""
    try:
        entries = [e for e in os.scandir(receipts_dir(root)) if e.name.endswith(".jsonl")]
    except OSError:
        return []
    out = []
    for e in entries:
        recs = read(Path(e.path))
        if recs:
            sid = e.name.removesuffix(".jsonl")
            mems = [r for r in recs if r.id]
            chars = sum(r.chars for r in mems)
            out.append(Session(sid, recs[0].at, recs[-1].at, len({r.id for r in mems}), chars))
    out.sort(key=lambda s: (s.last, s.id), reverse=True)
    return out[:limit]


def influenced(root: Path, mid: str) -> list[tuple[str, Receipt]]:
    """(session, receipt) for every session that was given memory `mid`, most recent first."""
    try:
        entries = [e for e in os.scandir(receipts_dir(root)) if e.name.endswith(".jsonl")]
    except OSError:
        return []
    out = [
        (e.name.removesuffix(".jsonl"), r)
        for e in entries
        for r in read(Path(e.path))
        if r.id and r.id == mid
    ]
    out.sort(key=lambda x: (x[1].at, x[0]), reverse=True)
    return out


SHOWN = 3  # candidates named when a prefix matches several sessions


def resolve(root: Path, given: str) -> str:
    """The session `given` names: its full id, or a prefix of exactly one session's id
    (as `memkit sessions` lists them; an 8-character prefix is usually enough).
    Raises MemkitError naming the candidates, or `memkit sessions` when none matches."""
    from memkit.agents.claude.journal import safe_name
    from memkit.errors import MemkitError

    try:
        names = sorted(
            e.name.removesuffix(".jsonl")
            for e in os.scandir(receipts_dir(root))
            if e.name.endswith(".jsonl")
        )
    except OSError:
        names = []
    if safe_name(given) in names:
        return given
    found = [n for n in names if given and n.startswith(given)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise MemkitError(f"no agent session {given!r} has receipts (see `memkit sessions`)")
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    raise MemkitError(
        f"{given!r} is the start of {len(found)} sessions' ids: {', '.join(found[:SHOWN])}"
        f"{more}; give more of the id"
    )
