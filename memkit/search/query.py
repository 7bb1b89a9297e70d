"""The query syntax, parsed into whoosh query objects; and the filters on type, tag, status.

Words are optional and ranked (each also finds its synonyms, weighted down);
"quoted phrases" and field:value are required; -word excludes. Fields: id, title,
body, tag, type, status, path, link (FIELD_NAMES has their aliases). A prefix that
names no field (`http://x`, `a::b`) leaves the token a word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memkit.memory import STATUSES
from memkit.search._whoosh import wq
from memkit.search.analysis import analyze, synonyms

FREE_FIELDS = ("text",)  # title, tags, paths, links and body, weighted (see schema.document)
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
SYNONYM_BOOST = 0.5  # a synonym's weight next to the word the query has


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
    return [(term, 1.0)] + [(s, SYNONYM_BOOST) for s in synonyms().get(term, ())]


def filters(
    types: Sequence[str], tags: Sequence[str], wanted: set[str], every: bool
) -> tuple[Any, Any]:
    """(filter, mask): what results must match, and what they must not.

    Results have one of `types` and every tag. The mask drops the statuses not
    `wanted`; none is dropped for `every`, or when expired memories are wanted
    (expiry is a date, judged on the results).
    """
    parts: list[Any] = []
    if types:
        parts.append(wq.Or([wq.Term("type", t) for t in types]))
    for tag in tags:
        parts.extend(wq.Term("tags", t) for t in analyze(tag))
    unwanted = () if every or "expired" in wanted else sorted(set(STATUSES) - wanted)
    mask = wq.Or([wq.Term("status", s) for s in unwanted]) if unwanted else None
    return (wq.And(parts) if parts else None), mask
