"""Turning text into index terms: accents folded, identifiers split, stop words dropped,
words stemmed, and scripts written without spaces cut into overlapping character pairs.

The same analysis runs on memories (at indexing) and on queries, so both meet on
the same terms. Text is folded first (fold: compatibility forms and accents gone,
so "café" and "cafe" meet) and each word casefolded. Stems come from the Snowball
English stemmer (PyStemmer, in C), each word stemmed once per process. A run of
Chinese, Japanese, Korean, Thai, Lao, Khmer or Myanmar characters has no spaces to
find its words by, so it is indexed as its overlapping pairs of characters and its
last character alone ("日本語" -> 日本 本語 語): a query's run is the phrase of its
pairs, found inside any longer run; one character alone is a prefix (it starts a
pair or ends a run). Text in ASCII takes the path it always took: English terms,
and so English ranking, do not change (other text goes through memkit.search.folding).
SYNONYMS lists words developers use for the same thing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

import Stemmer

from memkit.unspaced import is_unspaced as _unspaced

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


def _run_terms(run: str, *, tail: bool = True) -> list[str]:
    """An unspaced run's terms: its overlapping pairs, then (with `tail`) its last character."""
    if len(run) == 1:
        return [run]
    pairs = [run[i : i + 2] for i in range(len(run) - 1)]
    return [*pairs, run[-1]] if tail else pairs


def analyze(text: str) -> list[str]:
    """The index terms of `text` (folded, split, casefolded, stop words dropped, stemmed)."""
    stop = STOP_WORDS
    if text.isascii():
        words = [w for w in map(str.lower, _PART_RE.findall(text)) if w not in stop]
        stems = _stems(words)
        return [stems[w] for w in words]
    return [t for group in _groups(text, tail=True) for t in group]


def _groups(text: str, *, tail: bool) -> list[tuple[str, ...]]:
    """The terms of `text`, one group per word (its stem) or per unspaced run."""
    from memkit.search.folding import fold, part_re, segments

    parts: list[tuple[bool, str]] = []  # (is a run, the run or the word)
    stop = STOP_WORDS
    folded = fold(text)
    for part in part_re(folded).findall(folded):
        if part.isascii():
            word = part.lower()
            if word not in stop:
                parts.append((False, word))
            continue
        for run, seg in segments(part):
            word = seg if run else seg.casefold()
            if run or word not in stop:
                parts.append((run, word))
    stems = _stems([w for run, w in parts if not run])
    return [tuple(_run_terms(w, tail=tail)) if run else (stems[w],) for run, w in parts]


def query_groups(text: str) -> list[tuple[str, ...]]:
    """The terms of a query's `text`, grouped: a word alone, an unspaced run as its pairs
    (the phrase to find inside a longer run), or one unspaced character (see unspaced_char)."""
    if text.isascii():
        return [(t,) for t in analyze(text)]
    return _groups(text, tail=False)


def phrase_terms(text: str) -> tuple[list[str], bool]:
    """(terms, prefix): the terms a quoted phrase's `text` must match in order. They are
    the index's, but when the phrase ends in an unspaced run the text it is in may go
    on: a run's last character alone is dropped, and one character is a prefix."""
    terms = analyze(text)
    groups = _groups(text, tail=True) if not text.isascii() else []
    last = groups[-1] if groups else ()
    if len(last) > 1 and unspaced_char(last[-1]):
        terms.pop()
    return terms, len(last) == 1 and unspaced_char(last[0])


def unspaced_char(term: str) -> bool:
    """Whether `term` is one character of an unspaced script (a query's prefix)."""
    return len(term) == 1 and _unspaced(term)


def spans(text: str, stop_after: int | None = None) -> Iterator[tuple[str, int, int]]:
    """(term, start, end) of each term of `text`, in order (the snippets mark them).

    With `stop_after`, the terms that start after that character are not analyzed.
    """
    if not text.isascii():
        yield from _unicode_spans(text, stop_after)
        return
    stems, stop = _STEMS, STOP_WORDS
    for m in _PART_RE.finditer(text):
        if stop_after is not None and m.start() > stop_after:
            return
        word = m.group().lower()
        if word in stop:
            continue
        stem = stems.get(word) or _stems([word])[word]
        yield stem, m.start(), m.end()


def _unicode_spans(text: str, stop_after: int | None) -> Iterator[tuple[str, int, int]]:
    """spans() of text that is not ASCII: folded a character (and its marks) at a time,
    the offsets mapped back."""
    from memkit.search.folding import end_in, folded_offsets, parts

    folded, at = folded_offsets(text)
    for run, part, p in parts(folded):
        if stop_after is not None and at[p] > stop_after:
            return
        if run:
            for k, term in enumerate(_run_terms(part)):
                s = p + (len(part) - 1 if k == len(part) - 1 and k else k)
                yield term, at[s], end_in(text, at, s + len(term))
            continue
        word = part.casefold()
        if word not in STOP_WORDS:
            yield _stems([word])[word], at[p], end_in(text, at, p + len(part))


@functools.cache
def synonyms() -> dict[str, tuple[str, ...]]:
    """term -> the terms of its SYNONYMS group (analyzed as queries are)."""
    out: dict[str, tuple[str, ...]] = {}
    for group in SYNONYMS:
        stems = list(dict.fromkeys(t for w in group.split() for t in analyze(w)))
        for s in stems:
            out[s] = tuple(x for x in stems if x != s)
    return out
