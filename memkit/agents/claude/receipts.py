"""Receipts: which memories reached which agent session, when, why, and at which version.

`receipts/<session>.jsonl` in memkit's private folder (local, never committed) holds one
JSON line per memory given: the time, the event (`session-start`, `file`, `prompt`), why
(the file touched, the prompt's matching words), the route (`via`: the compiled file
Claude Code loaded it from, none for a hook's own text), the version (`blob`: the memory
file's git blob id, or for a compiled file that file's, as it was on disk) and HEAD.
The hooks write and read it as the session's ledger (memkit.agents.claude.ledger,
memkit.agents.claude.loaded); this module reads it for `memkit sessions` and `memkit why`.
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
    blob: str = ""  # the memory file's git blob id at that moment (or `via`'s)
    commit: str = ""  # HEAD at that moment
    stale: str = ""  # how its linked code changed, when it was given marked stale
    via: str = ""  # the compiled file Claude Code loaded it from; "" for a hook's text
    form: str = ""  # "" in full; `title` or `description` when only that was given

    @property
    def route(self) -> str:
        """How it came: the compiled file, or the hook; and in what form if not in full."""
        where = self.via or "hook"
        return f"{where} ({self.form} only)" if self.form else where

    def to_record(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if v != ""}


def receipts_path(root: Path, sid: str) -> Path:
    return Path(ledger.receipts_file(str(root), sid))


def _files(root: Path) -> list[os.DirEntry[str]]:
    """Every session's receipts file."""
    from memkit.cachedir import cache_dir

    try:
        folder = os.path.join(cache_dir(str(root)), RECEIPTS_DIR)
        return [e for e in os.scandir(folder) if e.name.endswith(".jsonl")]
    except OSError:
        return []


TEXTS = ("why", "id", "blob", "commit", "stale", "via", "form")


def read(path: Path) -> list[Receipt]:
    """The receipts in `path`; missing file = none, unreadable lines skipped."""
    out = []
    for rec in ledger.records(str(path)):
        texts = {k: str(rec.get(k, "")) for k in TEXTS}
        try:
            chars = int(rec.get("chars", 0))  # type: ignore[call-overload]
            out.append(Receipt(str(rec["at"]), str(rec["event"]), chars=chars, **texts))
        except (ValueError, KeyError, TypeError):
            continue
    return out


def write(path: Path, receipts: list[Receipt]) -> None:
    """Append receipts, one O_APPEND write for all (concurrent hooks never interleave)."""
    ledger.append(str(path), [r.to_record() for r in receipts])


@dataclass(frozen=True)
class Session:
    id: str
    started: str
    last: str
    memories: int
    chars: int


def sessions(root: Path, limit: int = 20) -> list[Session]:
    """The sessions that received memories, most recent first."""
    out = []
    for e in _files(root):
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
    found = [
        (r.at, e.name.removesuffix(".jsonl"), n, r)
        for e in _files(root)
        for n, r in enumerate(read(Path(e.path)))
        if r.id and r.id == mid
    ]
    found.sort(key=lambda x: x[:3], reverse=True)  # within a second, the later line first
    return [(sid, r) for _, sid, _, r in found]


SHOWN = 3  # candidates named when a prefix matches several sessions


def resolve(root: Path, given: str) -> str:
    """The session `given` names: its full id, or a prefix of exactly one session's id
    (as `memkit sessions` lists them; an 8-character prefix is usually enough).
    Raises MemkitError naming the candidates, or `memkit sessions` when none matches."""
    from memkit.agents.claude.journal import safe_name
    from memkit.errors import MemkitError

    names = sorted(e.name.removesuffix(".jsonl") for e in _files(root))
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
