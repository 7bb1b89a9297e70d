"""Full-text search over memories: a whoosh index kept in memkit's private folder.

The index is derived data. Every search first compares each memory file's size and
mtime with what the index recorded (manifest.json) and re-indexes only what changed;
a missing or unreadable index is rebuilt. One lock file serializes writers (exclusive)
against readers (shared), so a reader never sees a half-written index.

This is the only module that imports whoosh. Query syntax: words (any of them, ranked
by BM25F with the title boosted), "quoted phrases" and field:value (both required),
-word (excluded). Fields: id, title, body, tag, type, status, path, link.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import json
import os
import re
import shutil
import sys
import time
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.errors import MemkitError
from memkit.fsutil import atomic_write, file_lock
from memkit.memory import STATUSES
from memkit.staleness.verdict import MemoryStatus

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.store import Store


def _import_whoosh() -> None:
    """Import whoosh without the ~65 ms of modules it imports and never uses here.

    whoosh.compat imports urllib.request (ssl, http, email) for a download helper and
    whoosh.reading imports the `cached_property` package (asyncio). Stand-ins are put
    in sys.modules for the import only, then removed, so later imports get the real ones.
    """
    stubs: dict[str, types.ModuleType] = {}
    if "urllib.request" not in sys.modules:
        req = types.ModuleType("urllib.request")

        def urlretrieve(*args: Any, **kwargs: Any) -> Any:
            sys.modules.pop("urllib.request", None)
            from urllib.request import urlretrieve as real

            return real(*args, **kwargs)

        req.urlretrieve = urlretrieve  # type: ignore[attr-defined]
        stubs["urllib.request"] = req
    if "cached_property" not in sys.modules:
        cp = types.ModuleType("cached_property")
        cp.cached_property = __import__("functools").cached_property  # type: ignore[attr-defined]
        stubs["cached_property"] = cp
    sys.modules.update(stubs)
    try:
        import whoosh.analysis
        import whoosh.query
        import whoosh.reading  # noqa: F401
    finally:
        for name, mod in stubs.items():
            if sys.modules.get(name) is mod:
                del sys.modules[name]


_import_whoosh()

from whoosh import query as wq  # noqa: E402
from whoosh.analysis import Token, Tokenizer  # noqa: E402

SCHEMA_VERSION = 5
FREE_FIELDS = ("text",)  # title, tags, paths, links and body, weighted (see document())
# BM25F: each part's weight multiplies its term frequencies before saturation. The
# parts of `text` are separated by these characters; the tokenizer weighs each part.
TITLE_END, KEYWORDS_END = "\x1e", "\x1f"
TITLE_WEIGHT, KEYWORD_WEIGHT = 3.0, 2.0
FIELD_NAMES = {
    "id": "id",
    "title": "title",
    "body": "text",
    "text": "text",
    "tag": "tags",
    "tags": "tags",
    "type": "type",
    "status": "status",
    "path": "paths",
    "paths": "paths",
    "link": "symbols",
    "links": "symbols",
    "symbol": "symbols",
}
_KEYWORD_FIELDS = frozenset({"id", "type", "status"})
STALE_FACTOR = 0.5  # a stale memory's score is multiplied by this
MAX_SEGMENTS = 8  # past this many segments, an update merges the small ones
PROCS, MP_MIN = 2, 2000  # processes writing a full build of MP_MIN memories or more
STOP_WORDS = frozenset(
    """a about all also am an and any are as at be been but by can could did do does doing
    for from get got had has have how i if in into is it its me my no not of on or our out
    should so some than that the their them then there these they this those to us was we
    were what when where which while who whom why will with would you your""".split()  # noqa: SIM905
)
# Words developers use for the same thing; a query word also finds the others (weighted
# down). Each word must stem to a term no other word stems to ("production" -> "product").
SYNONYMS = (
    "auth authentication login logon signin",
    "db database",
    "config configuration",
    "env environment",
    "dev development",
    "repo repository",
    "deps dependency",
    "mail email",
    "pw password passwd",
    "perf performance",
    "msg message",
    "docs documentation",
    "pkg package",
    "deploy release",
    "err error",
    "delete remove",
)
SYNONYM_BOOST = 0.5
# ASCII upper runs before a capitalised word, capitalised words, upper runs, digit runs.
_PART_RE = re.compile(r"[A-Z]+(?=[A-Z][^\W\d_A-Z])|[A-Z]?[^\W\d_A-Z]+|[A-Z]+|\d+")


class IdentifierAnalyzer(Tokenizer):  # type: ignore[misc]
    """The whole analysis in one pass (a chain of whoosh filters costs a third more).

    Words, with identifiers split (`AuthService.login` -> auth, service, login),
    lowercased, stop words dropped, Porter-stemmed. Positions count dropped words.
    In a document's `text`, the title and keyword parts get their BM25F weights.
    """

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Any]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        title_end, keywords_end = value.find(TITLE_END), value.find(KEYWORDS_END)
        stems = _STEMS
        for pos, m in enumerate(_PART_RE.finditer(value), start_pos):
            word = m.group().lower()
            if word in STOP_WORDS:
                continue
            t.text = stems.get(word) or _stem(word)
            at = m.start()
            t.boost = (
                TITLE_WEIGHT if at < title_end else KEYWORD_WEIGHT if at < keywords_end else 1.0
            )
            t.stopped = False
            if keeporiginal:
                t.original = word
            if positions:
                t.pos = pos
            if chars:
                t.startchar = start_char + at
                t.endchar = start_char + m.end()
            yield t


_STEMS: dict[str, str] = {}


def _stem(word: str) -> str:
    from whoosh.lang.snowball.english import EnglishStemmer

    if len(_STEMS) > 200_000:
        _STEMS.clear()
    out: str = _stemmer(EnglishStemmer).stem(word)
    _STEMS[word] = out
    return out


@functools.cache
def _stemmer(cls: Any) -> Any:
    return cls()


def analyzer() -> Any:
    return IdentifierAnalyzer()


def analyze(text: str) -> list[str]:
    """The index terms of `text` (split, lowercased, stop words dropped, stemmed)."""
    return [t.text for t in _ANALYZER(text)]


_ANALYZER = analyzer()


def schema() -> Any:
    from whoosh.fields import ID, STORED, TEXT, Schema

    ana = _ANALYZER
    return Schema(
        path=ID(unique=True, stored=True),
        id=ID(stored=True),
        title=TEXT(analyzer=ana, stored=True, phrase=False),
        text=TEXT(analyzer=ana),
        tags=TEXT(analyzer=ana),
        paths=TEXT(analyzer=ana, phrase=False),
        symbols=TEXT(analyzer=ana, phrase=False),
        type=ID(stored=True),
        status=ID(stored=True),
        expires=STORED(),
        recency=STORED(),
    )


def document(mem: Memory) -> dict[str, Any]:
    """The index fields of one memory."""
    recency = mem.updated or mem.created
    return {
        "path": mem.path,
        "id": mem.id,
        "title": mem.title,
        "text": f"{mem.title}{TITLE_END}{' '.join((*mem.tags, *mem.paths, *mem.links))}"
        f"{KEYWORDS_END}{mem.body}",
        "tags": " ".join(mem.tags),
        "paths": " ".join(mem.paths),
        "symbols": " ".join(mem.links),
        "type": mem.type,
        "status": mem.status,
        "expires": mem.expires.isoformat() if mem.expires else "",
        "recency": recency.isoformat() if recency else "",
    }


# ------------------------------------------------------------------ queries


@dataclass(frozen=True)
class Query:
    """A parsed query: the whoosh query object and the analyzed terms (for snippets)."""

    q: Any
    terms: frozenset[str]
    fields: frozenset[str] = frozenset()  # the fields named in it (`tag:x` -> tags)


_TOKEN_RE = re.compile(r'(-?)(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))')


def parse_query(text: str) -> Query | None:
    """Words are optional (ranked), phrases and field:value required, -x excluded."""
    must: list[Any] = []
    should: list[Any] = []
    nots: list[Any] = []
    terms: set[str] = set()
    named: set[str] = set()
    for m in _TOKEN_RE.finditer(text):
        neg, field, phrase, word = m.groups()
        name = FIELD_NAMES.get((field or "").lower())
        if name:
            named.add(name)
        if field and name is None:  # not a field: `http://x`, `a::b` are words
            word, phrase = f"{field}:{word or phrase or ''}", None
        value = phrase if phrase is not None else word
        if name in _KEYWORD_FIELDS:
            clause: Any = wq.Term(name, value if name == "id" else value.lower())
        else:
            toks = analyze(value)
            terms.update(toks)
            if not toks:
                continue
            fields = (name,) if name else FREE_FIELDS
            clause = _clause(fields, toks, phrase is not None, bool(name or neg))
        if neg:
            nots.append(clause)
        elif name or phrase is not None:
            must.append(clause)
        else:
            should.extend(clause.subqueries if isinstance(clause, _Words) else [clause])
    if not (must or should):
        return None
    if must and should:
        q: Any = wq.AndMaybe(wq.And(must), wq.Or(should))
    else:
        q = wq.And(must) if must else wq.Or(should)
    if nots:
        q = wq.AndNot(q, wq.Or(nots))
    return Query(q, frozenset(terms), frozenset(named))


class _Words(wq.Or):  # type: ignore[misc]
    """Free words: each becomes an optional clause of its own."""


def _clause(fields: Sequence[str], toks: list[str], phrase: bool, required: bool) -> Any:
    def one(f: str) -> Any:
        if phrase and len(toks) > 1 and f in ("text", "tags"):  # fields with positions
            return wq.Phrase(f, toks)
        parts = [wq.Term(f, t) for t in toks]
        return parts[0] if len(parts) == 1 else wq.And(parts) if required else wq.Or(parts)

    if phrase or required:
        subs = [one(f) for f in fields]
        return subs[0] if len(subs) == 1 else wq.Or(subs)
    return _Words(
        [wq.Or([wq.Term(f, t, boost=b) for t, b in _expand(w) for f in fields]) for w in toks]
    )


def _expand(term: str) -> list[tuple[str, float]]:
    return [(term, 1.0)] + [(s, SYNONYM_BOOST) for s in _synonyms().get(term, ())]


@functools.cache
def _synonyms() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for group in SYNONYMS:
        stems = list(dict.fromkeys(t for w in group.split() for t in analyze(w)))
        for s in stems:
            out[s] = tuple(x for x in stems if x != s)
    return out


# -------------------------------------------------------------------- index

_RACY_NS = 20_000_000  # a file modified this close to its scan may change again unseen


class Index:
    """The search index of one store: `search/` in its private folder (memkit.cachedir)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.dir = store.cache_dir / "search"
        self.ix_dir = self.dir / "index"
        self.manifest_path = self.dir / "manifest.json"

    # ------------------------------------------------------------ locking

    @contextlib.contextmanager
    def _locked(self, exclusive: bool) -> Iterator[None]:
        with file_lock(self.dir / "lock", shared=not exclusive):
            yield

    # ------------------------------------------------------------ freshness

    def scan(self) -> dict[str, list[int]]:
        """rel path -> [size, mtime_ns] of every memory file now (as Store._walk lists them).

        A file modified too recently to trust its mtime is recorded with mtime -1, so
        the next scan sees it as changed and indexes it again.
        """
        from memkit.walk import memory_entries

        self.store.require()
        out: dict[str, list[int]] = {}
        now = time.time_ns()
        for rel, entry in memory_entries(str(self.store.root)):
            if entry.is_symlink():
                continue
            st = entry.stat(follow_symlinks=False)
            mtime = st.st_mtime_ns
            window = 2_000_000_000 if mtime % 1_000_000_000 == 0 else _RACY_NS
            out[rel] = [st.st_size, -1 if now - mtime < window else mtime]
        return out

    def _manifest_id(self) -> tuple[int, ...]:
        try:
            st = os.stat(self.manifest_path)
        except OSError:
            return ()
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _manifest(self) -> dict[str, list[int]] | None:
        try:
            data = json.loads(self.manifest_path.read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("version") != SCHEMA_VERSION:
            return None
        files = data.get("files")
        return files if isinstance(files, dict) else None

    def _save_manifest(self, files: Mapping[str, list[int]]) -> None:
        data = {"version": SCHEMA_VERSION, "files": dict(sorted(files.items()))}
        atomic_write(self.manifest_path, json.dumps(data, separators=(",", ":")).encode())

    def refresh(self) -> str:
        """Bring the index up to date: 'current', 'updated N', or 'built N'."""
        now = self.scan()
        seen = self._manifest_id()
        known = self._manifest()
        if known == now and -1 not in (st[1] for st in now.values()) and self._exists():
            return "current"
        with self._locked(exclusive=True):
            if self._manifest_id() != seen:  # another process updated the index meanwhile
                known = self._manifest()
            if known is None or not self._exists():
                return f"built {self._build(now)}"
            changed, gone = _changes(known, now)
            if not (changed or gone):
                return "current"
            try:
                self._update(known, now, changed, gone)
            except Exception:  # an unreadable index is derived data: rebuild it
                if self._open_ok():
                    raise
                return f"built {self._build(now)}"
            return f"updated {len(changed) + len(gone)}"

    def rebuild(self) -> int:
        """Build the index from scratch; the number of memories indexed."""
        with self._locked(exclusive=True):
            return self._build(self.scan())

    def _exists(self) -> bool:
        return any(self.ix_dir.glob("_MAIN_*.toc"))

    # ------------------------------------------------------------ writing

    def _build(self, now: dict[str, list[int]]) -> int:
        from whoosh.filedb.filestore import FileStorage

        with contextlib.suppress(FileNotFoundError):
            self.manifest_path.unlink()
        tmp = self.dir / "index.new"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        ix = FileStorage(str(tmp)).create_index(schema())
        memories = self.store.load().memories
        procs = min(PROCS, os.cpu_count() or 1) if len(memories) >= MP_MIN else 1
        if procs > 1:  # each process writes a segment of its own; they are not merged
            from whoosh.multiproc import MpWriter

            writer = MpWriter(ix, procs=procs, batchsize=250, multisegment=True,
                              limitmb=128, codec=_codec())  # fmt: skip
        else:
            writer = ix.writer(limitmb=256, codec=_codec())
        try:
            for mem in memories:
                writer.add_document(**document(mem))
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        ix.close()
        old = self.dir / "index.old"
        shutil.rmtree(old, ignore_errors=True)
        if self.ix_dir.exists():
            os.replace(self.ix_dir, old)
        os.replace(tmp, self.ix_dir)
        shutil.rmtree(old, ignore_errors=True)
        self._save_manifest(now)
        return len(memories)

    def _update(
        self,
        known: dict[str, list[int]],
        now: dict[str, list[int]],
        changed: list[str],
        gone: list[str],
    ) -> None:
        from memkit import memory as mm

        ix = self._open()
        writer = ix.writer(compound=False, codec=_codec())  # no copy into one file
        try:
            for rel in gone:
                writer.delete_by_term("path", rel)
            for rel in changed:
                writer.delete_by_term("path", rel)
                try:
                    raw = (self.store.root / rel).read_bytes()
                except OSError:
                    continue
                mem, errs = mm.parse_all(raw, mid=Path(rel).stem, path=rel)
                if mem is not None and not errs:
                    writer.add_document(**document(mem))
            writer.commit(mergetype=_merge_small)
        except BaseException:
            writer.cancel()
            raise
        self._save_manifest(now)

    def _open(self) -> Any:
        from whoosh.filedb.filestore import FileStorage

        return FileStorage(str(self.ix_dir)).open_index()

    # ------------------------------------------------------------ reading

    def search(
        self, query: Query, *, limit: int, filter: Any = None, mask: Any = None
    ) -> list[dict[str, Any]]:
        """The top `limit` documents' stored fields, each with its `score`."""
        try:
            with self._locked(exclusive=False):
                return self._search(query, limit, filter, mask)
        except Exception:
            if self._healthy():
                raise  # not the index's fault: a bug, reported as one
        self.rebuild()
        with self._locked(exclusive=False):
            return self._search(query, limit, filter, mask)

    def _open_ok(self) -> bool:
        try:
            self._open().reader().close()
        except Exception:
            return False
        return True

    def _healthy(self) -> bool:
        """Whether the index opens and every segment can be read."""
        try:
            with self._locked(exclusive=False), self._open().reader() as r:
                for _ in r.all_stored_fields():
                    pass
        except Exception:
            return False
        return True

    def paths_of(self, ids: Sequence[str]) -> dict[str, str]:
        """The indexed file (relative path) of each of `ids` that the index knows."""
        try:
            with self._locked(exclusive=False), self._open().searcher() as s:
                docs = ((mid, s.document(id=mid)) for mid in ids)
                return {mid: doc["path"] for mid, doc in docs if doc}
        except Exception:  # no usable index: callers fall back to walking the store
            return {}

    def _search(self, query: Query, limit: int, filter: Any, mask: Any) -> list[dict[str, Any]]:
        from whoosh.scoring import BM25F

        ix = self._open()
        with ix.searcher(weighting=BM25F(B=0.75, K1=1.2, title_B=0.5)) as s:
            results = s.search(query.q, limit=limit, filter=filter, mask=mask)
            return [{**hit.fields(), "score": hit.score} for hit in results]


def _codec() -> Any:
    """Posting blocks uncompressed: builds take a tenth less time for a bigger index."""
    from whoosh.codec.whoosh3 import W3Codec

    return W3Codec(compression=0)


def _merge_small(writer: Any, segments: list[Any]) -> list[Any]:
    """Whoosh merge policy: past MAX_SEGMENTS, merge the small segments into one.

    Each update adds a small segment; merging those (a twentieth of the biggest
    segment or less) costs little and keeps queries fast. Bigger segments (a full build
    with two processes writes two) are merged only past twice MAX_SEGMENTS, which
    takes thousands of updates, so an update practically never costs a rebuild.
    """
    from whoosh.reading import SegmentReader

    if len(segments) < MAX_SEGMENTS:
        return segments
    ordered = sorted(segments, key=lambda seg: seg.doc_count_all())
    biggest = ordered[-1].doc_count_all()
    small = max(biggest // 20, 50)
    merge = [seg for seg in ordered[:-1] if seg.doc_count_all() <= small]
    if len(segments) >= 2 * MAX_SEGMENTS:
        merge = ordered[:-1]
    if len(merge) < 2:
        return segments
    for seg in merge:
        reader = SegmentReader(writer.storage, writer.schema, seg)
        writer.add_reader(reader)
        reader.close()
    return [seg for seg in segments if seg not in merge]


def _changes(
    known: Mapping[str, list[int]], now: Mapping[str, list[int]]
) -> tuple[list[str], list[str]]:
    """(new or changed paths, deleted paths), sorted."""
    changed = sorted(rel for rel, st in now.items() if st[1] < 0 or known.get(rel) != st)
    gone = sorted(set(known) - set(now))
    return changed, gone


# ------------------------------------------------------------------ results

StatusSource = Mapping[str, MemoryStatus] | Callable[[list[str]], Mapping[str, MemoryStatus]]
MEMORY_STATUSES = (*STATUSES, "expired")  # search also filters on expiry


@dataclass(frozen=True)
class Hit:
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

    def of(ids: list[str]) -> Mapping[str, MemoryStatus]:
        from memkit.staleness import check_store

        return {s.id: s for s in check_store(store, today=today, ids=ids)} if ids else {}

    return of


def search(
    store: Store,
    text: str,
    *,
    today: dt.date,
    limit: int = 10,
    types: Sequence[str] = (),
    tags: Sequence[str] = (),
    status: Sequence[str] = (),
    include_all: bool = False,
    statuses: StatusSource | None = None,
) -> list[Hit]:
    """The best `limit` memories for `text`, stale ones demoted, ties by recency then id.

    By default only active, unexpired memories; `status` picks states (expired
    included), `include_all` takes every memory. `statuses` is the staleness
    engine's verdict, or a function that computes it for the ids it is given.
    """
    bad = sorted(set(status) - set(MEMORY_STATUSES))
    if bad:
        raise MemkitError(f"unknown status {bad[0]!r}; use one of: {', '.join(MEMORY_STATUSES)}")
    query = parse_query(text)
    if query is None or limit <= 0:
        return []
    index = Index(store)
    index.refresh()
    wanted = set(status) or {"active"}
    if "status" in query.fields and not status:  # `status:draft` asks for drafts
        wanted = set(MEMORY_STATUSES) - {"expired"}
    filt, mask = _filter(types, tags, wanted, include_all)
    docs = index.search(query, limit=limit * 2 + 20, filter=filt, mask=mask)
    iso = today.isoformat()

    def keep(d: dict[str, Any]) -> bool:
        if include_all:
            return True
        if d["expires"] and d["expires"] < iso:
            return "expired" in wanted
        return d["status"] in wanted

    docs = [d for d in docs if keep(d)]
    return rank(store, docs, query, today=today, limit=limit, statuses=statuses)


def _filter(
    types: Sequence[str], tags: Sequence[str], wanted: set[str], every: bool
) -> tuple[Any, Any]:
    """(filter, mask): what results must match, and what they must not."""
    parts: list[Any] = []
    if types:
        parts.append(wq.Or([wq.Term("type", t) for t in types]))
    for tag in tags:
        parts.extend(wq.Term("tags", t) for t in analyze(tag))
    unwanted = () if every or "expired" in wanted else sorted(set(STATUSES) - wanted)
    mask = wq.Or([wq.Term("status", s) for s in unwanted]) if unwanted else None
    return (wq.And(parts) if parts else None), mask


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
    if callable(statuses):  # ask only about what can make the cut (a stale hit only drops)
        statuses = statuses([d["id"] for d in docs[: limit * 2]])
    statuses = statuses or {}
    scored = []
    for d in docs:
        ms = statuses.get(d["id"])
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
            else ms.state
            if ms
            else "active"
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
    """About `width` characters of the body around the first matched term, **marked**."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    from memkit.memory import split

    try:
        body = split(text, str(path))[2]
    except MemkitError:
        body = text
    body = " ".join(body.split())
    spans = [(t.startchar, t.endchar) for t in _ANALYZER(body, chars=True) if t.text in terms]
    start = spans[0][0] - width // 4 if spans and spans[0][0] > width // 2 else 0
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < spans[0][0] else start
    end = min(len(body), start + width)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > start else end
    out, at = [], start
    for s, e in spans:
        if s >= at and e <= end:
            out += [body[at:s], "**", body[s:e], "**"]
            at = e
    out.append(body[at:end])
    return ("..." if start else "") + "".join(out) + ("..." if end < len(body) else "")
