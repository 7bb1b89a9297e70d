"""Turning text into index terms: identifiers split, stop words dropped, words stemmed.

The same analysis runs on memories (at indexing) and on queries, so both meet on
the same terms. A document's `text` field is its title, its keywords (tags, paths,
links) and its body, separated by TITLE_END and KEYWORDS_END; the analyzer gives
each part its BM25F weight. SYNONYMS lists words developers use for the same thing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from memkit.search._whoosh import Token, Tokenizer, english_stemmer

# BM25F: each part's weight multiplies its term frequencies before saturation. The
# parts of `text` are separated by these characters; the tokenizer weighs each part.
TITLE_END, KEYWORDS_END = "\x1e", "\x1f"
TITLE_WEIGHT, KEYWORD_WEIGHT = 3.0, 2.0
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
    if len(_STEMS) > 200_000:
        _STEMS.clear()
    out: str = english_stemmer().stem(word)
    _STEMS[word] = out
    return out


ANALYZER = IdentifierAnalyzer()  # the one the index schema, queries and snippets share


def analyze(text: str) -> list[str]:
    """The index terms of `text` (split, lowercased, stop words dropped, stemmed)."""
    return [t.text for t in ANALYZER(text)]


@functools.cache
def synonyms() -> dict[str, tuple[str, ...]]:
    """term -> the terms of its SYNONYMS group (analyzed as queries are)."""
    out: dict[str, tuple[str, ...]] = {}
    for group in SYNONYMS:
        stems = list(dict.fromkeys(t for w in group.split() for t in analyze(w)))
        for s in stems:
            out[s] = tuple(x for x in stems if x != s)
    return out
