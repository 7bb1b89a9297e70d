"""Text that is not ASCII, for memkit.search.analysis: accents folded, words and unspaced
runs found, offsets in the folded text mapped back to the original.

Its patterns are long character classes, about 0.8 ms to compile: a search whose query
and hits are ASCII (analysis handles those itself) never imports this module.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from itertools import groupby

from memkit.unspaced import is_unspaced

# analysis._PART_RE for folded text that is not ASCII; unspaced runs are then cut out of
# its parts. An upper run ends before a capitalised word, never before an unspaced run
# ("UTC时间"): the letter after the capital is below U+0E00 (all unspaced scripts are above).
_LETTER = r"[^\W\d_A-Z]"
_UPPER_RUN = r"[A-Z]+(?=[A-Z](?![^\x00-\u0dff])[^\W\d_A-Z])"
_UNICODE_RE = re.compile(rf"{_UPPER_RUN}|[A-Z]?{_LETTER}+|[A-Z]+|\d+")
# The same where Thai, Lao, Myanmar or Khmer appear: their vowel signs and tone marks are
# not word characters, but belong in the run (a slower pattern, so only there).
_MARKED = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
_MARKED_RE = re.compile(f"[{_MARKED}]")
_MARKED_LETTER = rf"(?:{_LETTER}|[{_MARKED}])"
_MARKED_PART_RE = re.compile(rf"{_UPPER_RUN}|[A-Z]?{_MARKED_LETTER}+|[A-Z]+|\d+")
_KINDS: dict[str, bool] = {}  # character -> whether it is of an unspaced script
# The generic combining accents (Latin, Greek, Cyrillic); a script's own marks (kana
# voicing, Thai tones and vowels, Devanagari) change the letter and are kept.
_ACCENTS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_ACCENTS_RE = re.compile(f"[{_ACCENTS}]")
# A character with the marks that fold into it (accents, kana voicing, half-width too).
_CLUSTER_RE = re.compile(f"(?s).[{_ACCENTS}\u3099\u309a\uff9e\uff9f]*")


def fold(text: str) -> str:
    """`text` without accents and compatibility forms (NFKD, accents dropped, NFC again)."""
    if text.isascii():
        return text
    bare = _ACCENTS_RE.sub("", unicodedata.normalize("NFKD", text))
    return unicodedata.normalize("NFC", bare)


def part_re(folded: str) -> re.Pattern[str]:
    """The pattern that finds the words and runs of `folded` text."""
    return _MARKED_PART_RE if _MARKED_RE.search(folded) else _UNICODE_RE


def segments(part: str) -> Iterator[tuple[bool, str]]:
    """(is an unspaced run, its text) of each piece of a part that is not ASCII."""
    kinds = _KINDS
    for c in set(part).difference(kinds):
        kinds[c] = is_unspaced(c)
    for run, chars in groupby(part, kinds.__getitem__):
        yield run, "".join(chars)


def parts(folded: str) -> Iterator[tuple[bool, str, int]]:
    """(is an unspaced run, its text, its start) of each part of `folded` text."""
    for m in part_re(folded).finditer(folded):
        part = m.group()
        if part.isascii():
            yield False, part, m.start()
        else:
            at = m.start()
            for run, seg in segments(part):
                yield run, seg, at
                at += len(seg)


@functools.lru_cache(maxsize=4096)
def _fold_cluster(c: str) -> str:
    return fold(c)


def folded_offsets(text: str) -> tuple[str, list[int]]:
    """`text` folded a character (and its marks) at a time, and each folded offset's
    offset in `text` (one more at the end: the length of `text`)."""
    chars: list[str] = []
    at: list[int] = []  # folded offset -> offset in `text`
    for m in _CLUSTER_RE.finditer(text):
        c = m.group()
        f = c if c.isascii() else _fold_cluster(c)
        chars.append(f)
        at.extend([m.start()] * len(f))
    at.append(len(text))
    return "".join(chars), at


def end_in(text: str, at: list[int], end: int) -> int:
    """The offset in `text` of the folded offset `end`: past the marks of its last character."""
    stop = at[end - 1] + 1
    mark = _CLUSTER_RE.match(text, at[end - 1])
    return max(stop, mark.end()) if mark and at[end] >= mark.end() else stop
