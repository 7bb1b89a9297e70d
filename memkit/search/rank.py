"""From index documents to hits: stale memories demoted, the order fixed, snippets added.

A memory whose linked code changed stays in the results, its score multiplied by
STALE_FACTOR. Equal scores go to the more recent memory, then to the
smaller id, so the same store and query always give the same list. The verdict
comes as a StatusSource: a mapping, or a function such as staleness_checker's that
asks the staleness engine about just the ids that can make the cut. staleness_checker's
is asked only about memories with a recorded fingerprint: the index tells the state of
the others (index_state), so a search reads and parses no memory for them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from pathlib import Path

    from memkit.search.query import Query
    from memkit.staleness.verdict import MemoryStatus
    from memkit.store import Store

# The staleness verdict by id, or a function computing it for the ids it is given.
StatusSource: TypeAlias = (
    "Mapping[str, MemoryStatus] | Callable[[list[str]], Mapping[str, MemoryStatus]]"
)
STALE_FACTOR = 0.5  # a stale memory's score is multiplied by this


@dataclass(frozen=True)
class Hit:
    """One search result; to_record() is its form in `memkit search --json`."""

    id: str
    title: str
    score: float
    state: str  # draft|archived|superseded|expired, else the staleness state, else active
    path: str
    type: str
    snippet: str
    stale: str | None = None  # how the linked code changed (MemoryStatus.describe())
    recency: str = ""

    def to_record(self) -> dict[str, Any]:
        """The hit as `search --json` gives it: a public format, so each key is named here
        (a field added to Hit stays out of it until it is added here)."""
        return {
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 3),
            "state": self.state,
            "path": self.path,
            "type": self.type,
            "snippet": self.snippet,
            "stale": self.stale,
        }


def staleness_checker(store: Store, *, today: dt.date) -> StatusSource:
    """check_store's verdict for just the ids asked about (Store.get_many reads only those)."""
    return Checker(store, today)


class Checker:
    """staleness_checker's function: rank asks it only about what index_state cannot tell."""

    def __init__(self, store: Store, today: dt.date) -> None:
        self.store = store
        self.today = today

    def __call__(self, ids: list[str]) -> Mapping[str, MemoryStatus]:
        if not ids:
            return {}
        from memkit.errors import MemoryNotFoundError
        from memkit.staleness import check_store

        store, today = self.store, self.today
        try:
            return {s.id: s for s in check_store(store, today=today, ids=ids)}
        except MemoryNotFoundError:  # a shared store's memory: it has no verdict here
            own = [i for i in ids if store.exists(i)]
            return {s.id: s for s in check_store(store, today=today, ids=own)} if own else {}


def index_state(d: Mapping[str, Any], today: dt.date) -> str | None:
    """A document's staleness state (memkit.staleness.check.memory_state) from the index
    alone, or None when a recorded fingerprint needs the engine, or when the document
    may not be the file check_store would read (a shared store's, an unusual path)."""
    path, mid = d["path"], d["id"]
    if d["linkstate"] == "recorded" or not path.startswith(".memory/"):
        return None
    if not path.endswith(f"/{mid}.md") or ".." in path or ":" in path:
        return None
    iso = today.isoformat()
    if d["expires"] and d["expires"] < iso:
        return "expired"
    if d["linkstate"] == "unverified":
        return "unverified"
    return "review-due" if d["review"] and d["review"] < iso else "fresh"


def rank(
    store: Store,
    docs: list[dict[str, Any]],
    query: Query,
    *,
    today: dt.date,
    limit: int,
    statuses: StatusSource | None,
) -> list[Hit]:
    """Hits from index documents: demote stale ones, order, cut, add snippets."""
    store.hint_paths({d["id"]: d["path"] for d in docs})  # no walk to find them again
    asked = [d["id"] for d in docs[: limit * 2]]  # what can make the cut (stale only drops)
    known: dict[str, str] = {}  # id -> state, told by the index
    if isinstance(statuses, Checker):
        last = {d["id"]: d for d in docs}  # the document whose file get_many reads (hints)
        known = {i: s for i in asked if (s := index_state(last[i], today)) is not None}
        asked = [i for i in asked if i not in known]
    if callable(statuses):
        statuses = statuses(asked)
    statuses = statuses or {}
    scored = []
    for d in docs:
        ms = None if d["id"] in known else statuses.get(d["id"])
        score = d["score"] * (STALE_FACTOR if ms is not None and ms.stale else 1.0)
        scored.append((score, d, ms))
    scored.sort(key=lambda x: (-round(x[0], 6), _neg_date(x[1]["recency"]), x[1]["id"]))
    hits = []
    for score, d, ms in scored[:limit]:
        expired = bool(d["expires"]) and d["expires"] < today.isoformat()
        state = (
            d["status"]
            if d["status"] != "active"
            else "expired"
            if expired
            else known.get(d["id"]) or (ms.state if ms else "active")
        )
        hits.append(
            Hit(
                id=d["id"],
                title=d["title"],
                score=score,
                state=state,
                path=d["path"],
                type=d["type"],
                snippet=snippet(store.root / d["path"], query.terms),
                stale=ms.describe() or None if ms is not None and ms.stale else None,
                recency=d["recency"],
            )
        )
    return hits


def _neg_date(iso: str) -> int:
    """Sort key putting recent dates first (and undated memories last)."""
    return -dt.date.fromisoformat(iso).toordinal() if iso else 0


def snippet(path: Path, terms: frozenset[str], width: int = 160) -> str:
    """About `width` characters of the body around the first matched term, **marked**
    (an unspaced run's overlapping pairs in one mark). The body is read again from the
    memory's file (the index stores no body), its whitespace collapsed, and cut at word
    boundaries around the first matched term."""
    from memkit.errors import MemkitError
    from memkit.memfile import split
    from memkit.search.analysis import spans as term_spans

    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    try:
        body = split(text, str(path))[2]
    except MemkitError:
        body = text
    body = " ".join(body.split())
    first = next((s for t, s, _ in term_spans(body) if t in terms), None)
    spans: list[tuple[int, int]] = []
    if first is not None:  # the window is around the first match: only it needs analyzing
        # (again from there: a run's pairs overlap the first match)
        spans = [
            (s + first, e + first) for t, s, e in term_spans(body[first:], width) if t in terms
        ]
    start = spans[0][0] - width // 4 if spans and spans[0][0] > width // 2 else 0
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < spans[0][0] else start
    end = min(len(body), start + width)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > start else end
    out, at = [], start
    for s, e in _merged(spans):
        if s >= at and e <= end:
            out += [body[at:s], "**", body[s:e], "**"]
            at = e
    out.append(body[at:end])
    return ("..." if start else "") + "".join(out) + ("..." if end < len(body) else "")


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` with overlapping ones joined (an unspaced run's pairs overlap: 日本 本語)."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s < out[-1][1]:
            out[-1] = (out[-1][0], max(e, out[-1][1]))
        else:
            out.append((s, e))
    return out
