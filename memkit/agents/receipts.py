"""Receipts: which memories reached which agent session, when, why, and at which version.

Each session has `receipts/<session>.jsonl` in memkit's private folder (memkit.cachedir;
local, never committed): one JSON line per memory given to the agent, with the time,
the event (`session-start`, `file`, `prompt`), why (the file touched, the words of the
prompt that matched), the memory file's git blob id and the commit HEAD pointed at.
The same file is the session's ledger: `given` says what the session already has, so
no memory is given twice, and `spent` how much of the session's budget is used.
Standard library only: the point-of-action hooks read it on every file touch.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

RECEIPTS_DIR = "receipts"


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
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", sid)[:100].lstrip(".") or "session"
    return receipts_dir(root) / f"{safe}.jsonl"


def read(path: Path) -> list[Receipt]:
    """The receipts in `path`; missing file = none, unreadable lines skipped."""
    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return []
    out = []
    for line in text.splitlines():
        try:
            rec = json.loads(line)
            out.append(
                Receipt(
                    at=str(rec["at"]),
                    event=str(rec["event"]),
                    why=str(rec.get("why", "")),
                    id=str(rec.get("id", "")),
                    chars=int(rec.get("chars", 0)),
                    blob=str(rec.get("blob", "")),
                    commit=str(rec.get("commit", "")),
                    stale=str(rec.get("stale", "")),
                )
            )
        except (ValueError, KeyError, TypeError, RecursionError):
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
    if not receipts:
        return
    data = "".join(
        json.dumps(r.to_record(), ensure_ascii=False, sort_keys=True) + "\n" for r in receipts
    ).encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def blob_id(data: bytes) -> str:
    """The git blob id of `data` (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def head_commit(root: Path) -> str:
    """The commit HEAD points at, read from git's files (no git library); "" if unknown."""
    from memkit.cachedir import git_dir

    gd = git_dir(str(root))
    if gd is None:
        return ""
    try:
        head = Path(gd, "HEAD").read_text("utf-8").strip()
        if not head.startswith("ref: "):
            return head
        ref = head[5:]
        common = _common_dir(Path(gd))
        for base in (Path(gd), common):
            loose = base / ref
            if loose.is_file():
                return loose.read_text("utf-8").strip()
        for line in (common / "packed-refs").read_text("utf-8").splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    except OSError:
        return ""
    return ""


def _common_dir(gd: Path) -> Path:
    try:
        common = (gd / "commondir").read_text("utf-8").strip()
    except OSError:
        return gd
    return (gd / common).resolve()


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
