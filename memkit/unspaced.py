"""Scripts written without spaces between words, told a character at a time.

Thai, Lao, Myanmar, Khmer, CJK radicals, the iteration marks, kana (not the middle dot),
bopomofo, hangul compatibility jamo, ideographs, hangul syllables. Search
(memkit.search.analysis) and the hooks' prompt recall (memkit.agents.claude.recall) both cut
such runs into pairs of characters, so they must agree on the ranges: this is the one
list. A regular expression class this wide costs tens of milliseconds to compile, so
each character is looked up by bisection instead.
"""

from __future__ import annotations

from bisect import bisect_right

UNSPACED = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x2E80, 0x2FDF),
            (0x3005, 0x3007), (0x3041, 0x30FA), (0x30FC, 0x30FF), (0x3100, 0x31FF),
            (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF),
            (0x20000, 0x3134F))  # fmt: skip
_STARTS = tuple(lo for lo, _ in UNSPACED)


def is_unspaced(c: str) -> bool:
    """Whether the character `c` belongs to a script written without spaces."""
    o = ord(c)
    i = bisect_right(_STARTS, o) - 1
    return i >= 0 and o <= UNSPACED[i][1]
