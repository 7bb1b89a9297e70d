"""Turning text into index terms: identifiers split, stop words dropped, words stemmed.

The same analysis runs on memories (at indexing) and on queries, so both meet on
the same terms. Stems come from the Snowball English stemmer (PyStemmer, in C), each
word stemmed once per process. SYNONYMS lists words developers use for the same thing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

import Stemmer

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
# ASCII upper runs before a capitalised word, capitalised words, upper runs, digit runs.
_PART_RE = re.compile(r"[A-Z]+(?=[A-Z][^\W\d_A-Z])|[A-Z]?[^\W\d_A-Z]+|[A-Z]+|\d+")
_STEMMER = Stemmer.Stemmer("english")
_STEMS: dict[str, str] = {}  # word -> stem, filled on first sight


def _stems(words: list[str]) -> dict[str, str]:
    """The stem table, with every word of `words` in it."""
    stems = _STEMS
    new = [w for w in set(words) if w not in stems]
    if new:
        if len(stems) > 500_000:
            stems.clear()
            new = list(set(words))
        stems.update(zip(new, _STEMMER.stemWords(new), strict=True))
    return stems


def analyze(text: str) -> list[str]:
    """The index terms of `text` (split, lowercased, stop words dropped, stemmed)."""
    stop = STOP_WORDS
    words = [w for w in map(str.lower, _PART_RE.findall(text)) if w not in stop]
    stems = _stems(words)
    return [stems[w] for w in words]


def spans(text: str, stop_after: int | None = None) -> Iterator[tuple[str, int, int]]:
    """(term, start, end) of each term of `text`, in order (the snippets mark them).

    With `stop_after`, the terms that start after that character are not analyzed.
    """
    stems, stop = _STEMS, STOP_WORDS
    for m in _PART_RE.finditer(text):
        if stop_after is not None and m.start() > stop_after:
            return
        word = m.group().lower()
        if word in stop:
            continue
        stem = stems.get(word) or _stems([word])[word]
        yield stem, m.start(), m.end()


@functools.cache
def synonyms() -> dict[str, tuple[str, ...]]:
    """term -> the terms of its SYNONYMS group (analyzed as queries are)."""
    out: dict[str, tuple[str, ...]] = {}
    for group in SYNONYMS:
        stems = list(dict.fromkeys(t for w in group.split() for t in analyze(w)))
        for s in stems:
            out[s] = tuple(x for x in stems if x != s)
    return out
