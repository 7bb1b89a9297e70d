"""The keyword engine: an SQLite FTS5 table of analyzed terms (standard library only).

One database file, `search/index.db`: `docs` holds each indexed memory's stored
fields, `fts` its analyzed terms (memkit.search.analysis) in five columns (title,
tags, paths, links, body) tokenized on spaces only, and `files` each memory file's
size and mtime when indexed (invalid files too, so they are not retried). Ranking is
FTS5's BM25 with per-column weights (schema.WEIGHTS).

The file is derived data and never trusted: open() checks that its schema is exactly
the one made here (a planted trigger, view or other tokenizer is refused), with
`trusted_schema` off, and any SQLite error reading it means Damaged: rebuild it.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.search.schema import COLUMNS, SCHEMA_VERSION, STORED, STORED_TYPES, WEIGHTS

if TYPE_CHECKING:
    from memkit.search.query import Query, Sql

_DOCS = ", ".join(f"{name} {kind}" for name, kind in STORED_TYPES.items())
SCHEMA = f"""
CREATE TABLE docs (rowid INTEGER PRIMARY KEY, {_DOCS}, tagterms TEXT);
CREATE UNIQUE INDEX docs_path ON docs(path);
CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, mtime INTEGER) WITHOUT ROWID;
CREATE VIRTUAL TABLE fts USING fts5({", ".join(COLUMNS)}, tokenize = 'ascii', detail = full);
"""
_SCORE = f"-bm25(fts, {', '.join(str(w) for w in WEIGHTS)})"
_FIELDS = ", ".join(f"d.{f}" for f in STORED)
SYNONYM_WEIGHT = 0.5  # a synonym's score next to the query's own word


class Damaged(Exception):
    """The index file is missing, of another version, not ours, or unreadable."""


def open_db(path: Path, *, write: bool = False) -> sqlite3.Connection:
    """The index at `path`, checked (Damaged when it is not exactly ours)."""
    from memkit.store.sqlite import expected

    if not path.is_file():
        raise Damaged(f"{path} is missing")
    try:
        mode = "rw" if write else "ro"
        con = sqlite3.connect(f"{path.as_uri()}?mode={mode}", uri=True, isolation_level=None)
    except sqlite3.Error as e:
        raise Damaged(str(e)) from e
    try:
        con.execute("PRAGMA trusted_schema = OFF")
        version = con.execute("PRAGMA user_version").fetchone()[0]
        rows = frozenset(con.execute("SELECT type, name, sql FROM sqlite_master").fetchall())
        if version != SCHEMA_VERSION or rows != expected(SCHEMA):
            raise Damaged(f"{path} is not a memkit index of version {SCHEMA_VERSION}")
    except (sqlite3.Error, Damaged) as e:
        con.close()
        raise Damaged(str(e)) from e
    return con


def create(path: Path) -> sqlite3.Connection:
    """A new, empty index at `path` (which must not exist), in one transaction."""
    con = sqlite3.connect(path, isolation_level=None)
    con.executescript(
        f"PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;"
        f"PRAGMA user_version = {SCHEMA_VERSION}; {SCHEMA}"
    )
    con.execute("BEGIN")
    return con


def add(con: sqlite3.Connection, rows: Iterable[tuple[Any, ...]]) -> None:
    """Index rows of schema.row(): stored fields, tag terms, then the column texts."""
    n = len(STORED) + 1
    cur = con.cursor()
    for r in rows:
        cur.execute(f"INSERT INTO docs VALUES (NULL{', ?' * n})", r[:n])
        cur.execute(
            f"INSERT INTO fts(rowid, {', '.join(COLUMNS)}) VALUES (?{', ?' * len(COLUMNS)})",
            (cur.lastrowid, *r[n:]),
        )


def remove(con: sqlite3.Connection, paths: Sequence[str]) -> None:
    """Take the memories at `paths` out of the index (a path not in it is ignored)."""
    for p in paths:
        found = con.execute("SELECT rowid FROM docs WHERE path = ?", (p,)).fetchone()
        if found:
            con.execute("DELETE FROM fts WHERE rowid = ?", found)
            con.execute("DELETE FROM docs WHERE rowid = ?", found)


def set_files(con: sqlite3.Connection, files: dict[str, list[int]], gone: Sequence[str]) -> None:
    con.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in gone])
    con.executemany(
        "INSERT OR REPLACE INTO files VALUES (?, ?, ?)", [(p, *st) for p, st in files.items()]
    )


def files(con: sqlite3.Connection, paths: list[str] | None = None) -> dict[str, list[int]]:
    """path -> [size, mtime_ns] as last indexed, of every memory file or of `paths`."""
    sql = "SELECT path, size, mtime FROM files"
    if paths is not None:  # SQLite takes an empty list: nothing matches
        sql += f" WHERE path IN ({', '.join('?' * len(paths))})"
    return {p: [s, m] for p, s, m in con.execute(sql, paths or ())}


def finish_build(con: sqlite3.Connection) -> None:
    """Commit a build with its FTS segments merged into one (smaller, faster to query)."""
    con.execute("INSERT INTO fts(fts) VALUES ('optimize')")
    con.execute("COMMIT")
    con.close()


def top(
    con: sqlite3.Connection, query: Query, limit: int, filters: Sequence[Sql | None]
) -> list[dict[str, Any]]:
    """The best `limit` documents for `query` that pass `filters`, each with its `score`.

    Each ranked word's BM25 is FTS5's with a gentler IDF, log(N / (n + 1)) + 1: FTS5's
    own gives nothing to a word in more than half the memories, which in a small
    store is most of the words a question shares with its answer. Required clauses
    (phrases, fields) add FTS5's own score.
    """
    where, params = _conditions(query, filters)
    main = query.expression()
    if main is None:  # fields with exact values only (id:, type:, status:): no ranking
        sql = f"SELECT {_FIELDS}, 1.0 FROM docs d WHERE {where} ORDER BY d.path LIMIT ?"
        return _docs(con.execute(sql, (*params, limit)))
    ranked = " OR ".join(query.should + query.synonyms)
    expr = _combine_must(query.must, ranked)
    join = "FROM fts JOIN docs d ON d.rowid = fts.rowid WHERE fts MATCH ?"
    scores: dict[int, float] = {}
    if query.must:  # the required clauses' own score, and the candidates
        sql = f"SELECT d.rowid, {_SCORE} {join} AND {where}"
        scores = dict(con.execute(sql, (_combine_must(query.must, ""), *params)))
    if ranked:
        if not query.must:
            sql = f"SELECT d.rowid {join} AND {where}"
            scores = dict.fromkeys((r for (r,) in con.execute(sql, (expr, *params))), 0.0)
        total = con.execute("SELECT count(*) FROM docs").fetchone()[0]
        weighted = [(t, 1.0) for t in query.should] + [(t, SYNONYM_WEIGHT) for t in query.synonyms]
        for term, weight in weighted if scores else ():  # no candidate: nothing to score
            rows = con.execute(f"SELECT rowid, {_SCORE} FROM fts WHERE fts MATCH ?", (term,))
            found = rows.fetchall()
            factor = weight * _idf(total, len(found)) / _fts_idf(total, len(found))
            for rowid, score in found:
                if rowid in scores:
                    scores[rowid] += score * factor
    best = sorted(scores.items(), key=lambda x: -x[1])[: limit * 2]  # SQLite takes IN ()
    sql = f"SELECT {_FIELDS}, d.rowid FROM docs d WHERE d.rowid IN ({', '.join('?' * len(best))})"
    got = _docs(con.execute(sql, [r for r, _ in best]))
    for d in got:
        d["score"] = scores[d["score"]]
    return sorted(got, key=lambda d: (-d["score"], d["path"]))[:limit]


def _combine_must(must: Sequence[str], ranked: str) -> str:
    required = " AND ".join(f"({m})" for m in must)
    if must and ranked:  # the ranked words do not restrict what the required ones find
        return f"{required} AND ({ranked} OR {required})"
    return required or ranked


def _idf(total: int, hits: int) -> float:
    """whoosh's IDF, log(N / (n + 1)) + 1; an empty index (N = 0) counts as one memory."""
    return math.log(max(total, hits, 1) / (hits + 1)) + 1.0


def _fts_idf(total: int, hits: int) -> float:
    """FTS5's IDF (fts5_aux.c): log((N - n + 0.5) / (n + 0.5)), at least 1e-6."""
    idf = math.log((total - hits + 0.5) / (hits + 0.5)) if hits < total else 0.0
    return max(idf, 1e-6)


def documents(
    con: sqlite3.Connection, paths: Sequence[str], filters: Sequence[Sql | None]
) -> dict[str, dict[str, Any]]:
    """path -> stored fields (score 0) of those of `paths` that pass `filters`."""
    out: dict[str, dict[str, Any]] = {}
    where, params = _conditions(None, filters)
    for i in range(0, len(paths), 500):
        part = paths[i : i + 500]
        sql = f"SELECT {_FIELDS}, 0.0 FROM docs d WHERE d.path IN ({', '.join('?' * len(part))})"
        for d in _docs(con.execute(f"{sql} AND {where}", (*part, *params))):
            out[d["path"]] = d
    return out


def _conditions(query: Query | None, filters: Sequence[Sql | None]) -> tuple[str, list[Any]]:
    parts: list[str] = ["1"]
    params: list[Any] = []
    for cond in (*(query.where if query else ()), *filters):
        if cond is not None:
            parts.append(cond[0])
            params.extend(cond[1])
    for expr in query.excluded if query else ():
        parts.append("d.rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)")
        params.append(expr)
    return " AND ".join(parts), params


def _docs(rows: Iterable[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [{**dict(zip(STORED, r, strict=False)), "score": r[-1]} for r in rows]
