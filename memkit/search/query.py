"""The query syntax, parsed into FTS5 expressions; and the filters on type, tag, status.

Words are optional and ranked (each also finds its synonyms, weighted down);
"quoted phrases" and field:value are required; -word excludes. Fields: id, title,
body, tag, type, status, path, link (FIELD_NAMES has their aliases). A prefix that
names no field (`http://x`, `a::b`) leaves the token a word. Text is matched as
analyzed terms (memkit.search.analysis); id, type and status are exact values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memkit.choices import STATUSES
from memkit.search.analysis import analyze, phrase_terms, query_groups, synonyms, unspaced_char

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
    "link": "links",
    "links": "links",
    "symbol": "links",
}
_KEYWORD_FIELDS = frozenset({"id", "type", "status"})
_POSITIONS = frozenset({"text", "tags"})  # fields where a phrase keeps its word order

Sql = tuple[str, Sequence[Any]]  # an SQL condition on the stored fields (`d.`) and its values


@dataclass(frozen=True)
class Query:
    """A parsed query: FTS5 expressions, SQL conditions, the analyzed terms (for snippets)."""

    must: tuple[str, ...] = ()  # required expressions
    should: tuple[str, ...] = ()  # the free words: optional, ranked
    synonyms: tuple[str, ...] = ()  # the free words' synonyms, ranked lower
    excluded: tuple[str, ...] = ()  # -word: expressions a result must not match
    where: tuple[Sql, ...] = ()  # id:, type:, status: (and their negations)
    terms: frozenset[str] = frozenset()
    fields: frozenset[str] = frozenset()  # the fields named in it (`tag:x` -> tags)

    def expression(self) -> str | None:
        """The FTS5 expression results match (None: no text clause)."""
        required = " AND ".join(f"({m})" for m in self.must)
        return required or " OR ".join(self.should + self.synonyms) or None


_TOKEN_RE = re.compile(r'(-?)(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))')


def parse_query(text: str) -> Query | None:
    """Words are optional (ranked), phrases and field:value required, -x excluded."""
    must: list[str] = []
    should: list[str] = []
    syns: list[str] = []
    nots: list[str] = []
    where: list[Sql] = []
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
            value = value if name == "id" else value.lower()
            where.append((f"d.{name} {'!=' if neg else '='} ?", (value,)))
            continue
        groups = query_groups(value)
        terms.update(t for g in groups for t in g)
        if not groups:
            continue
        if neg:
            nots.append(_clause(name or "text", value, groups, phrase is not None))
        elif name or phrase is not None:
            must.append(_clause(name or "text", value, groups, phrase is not None))
        else:
            for g in groups:
                should.append(_group(g))
                syns.extend(_term(s) for s in synonyms().get(g[0], ()) if len(g) == 1)
    if not (must or should or where):
        return None
    syns = [s for s in dict.fromkeys(syns) if s not in should]
    return Query(
        tuple(must),
        tuple(dict.fromkeys(should)),
        tuple(syns),
        tuple(nots),
        tuple(where),
        frozenset(terms),
        frozenset(named),
    )


def _term(t: str) -> str:
    return '"' + t.replace('"', '""') + '"'


def _phrase(terms: Sequence[str], prefix: bool = False) -> str:
    return _term(" ".join(terms)) + (" *" if prefix else "")


def _group(g: tuple[str, ...]) -> str:
    """One word; an unspaced run's pairs in order; one unspaced character as a prefix."""
    if len(g) > 1:
        return _phrase(g)
    return _phrase(g, unspaced_char(g[0]))


def _clause(field: str, text: str, groups: list[tuple[str, ...]], phrase: bool) -> str:
    """All of `groups` in `field` (the phrase of `text`, in a field with positions)."""
    terms, prefix = phrase_terms(text) if phrase and field in _POSITIONS else ([], False)
    if len(terms) > 1 or (terms and prefix):
        expr = _phrase(terms, prefix)
    else:
        expr = " AND ".join(_group(g) for g in groups)
    return expr if field == "text" else f"{{{field}}} : ({expr})"


def filters(
    types: Sequence[str], tags: Sequence[str], wanted: set[str], every: bool
) -> tuple[Sql | None, Sql | None]:
    """(filter, mask): what results must match, and what they must not.

    Results have one of `types` and every tag. The mask drops the statuses not
    `wanted`; none is dropped for `every`, or when expired memories are wanted
    (expiry is a date, judged on the results).
    """
    parts: list[str] = []
    params: list[Any] = []
    if types:
        parts.append(f"d.type IN ({', '.join('?' * len(types))})")
        params.extend(types)
    for tag in tags:
        for t in analyze(tag):
            parts.append("instr(d.tagterms, ?) > 0")
            params.append(f" {t} ")
    unwanted = () if every or "expired" in wanted else sorted(set(STATUSES) - wanted)
    mask = (f"d.status NOT IN ({', '.join('?' * len(unwanted))})", unwanted) if unwanted else None
    return ((" AND ".join(parts), params) if parts else None), mask
