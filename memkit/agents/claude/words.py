"""The distinctive words of a prompt, and of a memory's title, tags and links, that the
point-of-action index keys prompt recall on (memkit.agents.claude.recall, indexer): accents
folded, crudely stemmed, common words dropped; a run of a script written without spaces
counts as its pairs of characters (memkit.unspaced). Standard library only. Bump
recall.VERSION whenever these words change: the index keys on them.
"""

from __future__ import annotations

_STOP_WORDS = (
    "the and for with that this from are was were has have had not but you your can will "
    "would should could into when then than them they there what which who why how all "
    "any some our out use used using about also just like make made get got does did "
    "done its let lets please want need add fix run file files code "
)
STOP = frozenset(_STOP_WORDS.split())


# The accents folded (scripts written without spaces: memkit.unspaced).
_ACCENTS = "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"


def words(text: str) -> list[str]:
    """Distinctive words, accents folded, crudely stemmed (`issued`, `issues`, `issuing`
    -> `issu`); a run of an unspaced script counts as its pairs of characters."""
    import re

    pairs: list[str] = []
    if not text.isascii():
        import unicodedata

        bare = re.sub(_ACCENTS, "", unicodedata.normalize("NFKD", text))
        text = unicodedata.normalize("NFC", bare)
        text = re.sub("[^\x00-\u0dff]+", lambda m: _pairs(m.group(), pairs), text)
    found = re.findall(r"[a-z0-9][a-z0-9_]{2,}", text.casefold())
    return [_stem(w) for w in found if w not in STOP] + pairs


def _pairs(chars: str, out: list[str]) -> str:
    """`chars` with its unspaced runs blanked; the runs' pairs of characters go to `out`."""
    from memkit.unspaced import is_unspaced

    mask = [is_unspaced(c) for c in chars]
    runs = "".join(c if m else " " for c, m in zip(chars, mask, strict=True)).split()
    out += [run[i : i + 2] for run in runs for i in range(len(run) - 1)]
    return "".join(" " if m else c for c, m in zip(chars, mask, strict=True))


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "e", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
