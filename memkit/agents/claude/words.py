"""The distinctive words of a prompt, and of a memory's title, tags and links, that the
point-of-action index keys prompt recall on (memkit.agents.claude.recall, indexer): accents
folded, crudely stemmed, common words dropped; a run of a script written without spaces
counts as its pairs of characters (memkit.unspaced); and which memories a prompt names
by them (about_prompt). Standard library only. Bump recall.VERSION whenever these words
change: the index keys on them.
"""

from __future__ import annotations

import functools  # loaded with re on the hook's route already

TYPE_CHECKING = False  # on the hook's fast path: not even `typing`
if TYPE_CHECKING:
    from memkit.agents.claude import recall

_STOP_WORDS = (
    "the and for with that this from are was were has have had not but you your can will "
    "would should could into when then than them they there what which who why how all "
    "any some our out use used using about also just like make made get got does did "
    "done its let lets please want need add fix run file files code "
)
STOP = frozenset(_STOP_WORDS.split())

# Everyday words of English and of programming: in a prompt they say little about which
# memory it needs, however few memories' titles hold them. Prompt recall weighs them
# down and never injects a memory on them alone (about_prompt).
_COMMON_WORDS = (
    "able above across act action actually after again against ago allow already always "
    "another answer anything anyway api app application around ask avoid back bad base "
    "basic before behaviour behavior being below best better between big bit both branch break "
    "bug build built button call called calls case cause change changed changes check "
    "class clean clear cli click client close command comment commit common compare "
    "complete config connect could count create current data date day debug default "
    "delete describe detail different directory doc docs document doesn don down each "
    "easy edit either else empty end enough entry error errors even event every example "
    "exist expect explain fail failing fails false fast feature field find fine first "
    "folder follow format found free full function functions future general give good "
    "great group handle handler happen happens help here high hold idea import improve "
    "include info input inside instead issue item items keep key kind know large last "
    "later latest least leave left less level library line lines link list little load merge "
    "local log long look lot low main many may maybe mean message method might mind "
    "missing mode model module more most move much must name names need needs never new "
    "next nice none note nothing now number object off often old once one only open "
    "option order other output over own package page part pass path place point "
    "possible problem program project pull put query question quick raise rather read "
    "ready real really reason release remove rename replace report request required "
    "result return right rule run running same save say second section see seems send "
    "server set setting settings setup should show side simple since single size small "
    "some something sort source start state step still stop string sure system table "
    "take tell test tests text thing things think through time today tool tools top "
    "try turn type types under until update upgrade usage user users value values "
    "variable version very view wait way well where whether while whole without work "
    "working works wrap write wrong yes yet"
)


# The accents folded (scripts written without spaces: memkit.unspaced).
_ACCENTS = "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"


@functools.cache
def common() -> frozenset[str]:
    """The everyday words (see _COMMON_WORDS), stemmed as words() stems."""
    return frozenset(_stem(w) for w in _COMMON_WORDS.split())


def general(word: str) -> bool:
    """Whether `word` (stemmed as words() stems) is general English: in SCOWL's most
    common levels (english.txt, written by scripts/english_words.py). One such word alone
    says too little about what a prompt needs ("flag", "match", "stream"), unlike a word
    of a project's own ("pyright", "anyio"). Read only when a memory shares one word."""
    return f"\n{word}\n" in _english()


@functools.cache
def _english() -> str:
    import os

    with open(os.path.join(os.path.dirname(__file__), "english.txt"), encoding="utf-8") as f:
        return f.read()


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
    if len(word) == 4 and word[-1] == "s" and word[-2] not in "su":  # cves, bugs, docs
        return word[:-1]
    return word


COMMON_WEIGHT = 0.25  # of an everyday word's IDF (words.common)
RELATIVE_FLOOR = 0.5  # of the best memory's score, below which a memory is left out
UNTITLED_WEIGHT = 0.5  # of the IDF of a word in a memory's tags or links, not its title


def about_prompt(index: recall.Index, prompt: str, *, limit: int) -> list[tuple[str, str]]:
    """(id, why) of the memories whose title, tags or links share the most distinctive
    words with `prompt`, best first; `why` names the words, the score and the floor.

    A word counts its IDF in the store; an everyday word (words.common, or one in more
    than a tenth of the memories) a quarter of it, and a word in the memory's tags or
    links but not its title half of it. A memory is given only when the words it shares
    that are not everyday words reach the floor (the IDF of a word in 1 memory of 1,000:
    one such word in its title, or several), it shares more than one word with a prompt
    of several words unless that word is not general English (words.general), and its
    score is at least half the best one's: when unsure, nothing is given."""
    import math

    from memkit.agents.claude.recall import TITLE

    total = max(1, index.count)
    said = list(dict.fromkeys(words(prompt[:4000])))
    scores, matched, rare = _shared_words(index, said, total)
    floor = math.log(1 + total / max(1, total // 1000))
    # Reading a title costs a bucket of the index, and it only lowers a score (a word in
    # tags or links alone counts half): titles are read best first, and once `limit`
    # memories that reach the floor score more than the next can before its title is
    # read, the rest are left out unread (they could not be among the `limit` given).
    given: list[float] = []  # the scores of the `limit` best read so far, lowest first
    for mid in sorted(rare, key=lambda m: (-scores[m], m)):
        found = rare[mid]
        if (
            sum(found.values()) < floor
            or (0 < limit <= len(given) and scores[mid] < given[0])
            or (len(matched[mid]) == 1 < len(said) and general(matched[mid][0]))
        ):
            del rare[mid]  # left out whatever its title holds: no need to read it
            continue
        e = index.entry(mid)
        titled = set(words(e[TITLE])) if e is not None else set()
        for w in found:
            if w not in titled:  # only in its tags or links
                cut = found[w] * (1 - UNTITLED_WEIGHT)
                found[w] -= cut
                scores[mid] -= cut
        if sum(found.values()) >= floor:
            given = sorted([*given, scores[mid]])[-limit:] if limit > 0 else given
    best = sorted(scores, key=lambda m: (-scores[m], m))
    top = scores[best[0]] if best else 0.0
    kept = [
        m
        for m in best
        if sum(rare.get(m, {}).values()) >= floor and scores[m] >= RELATIVE_FLOOR * top
    ]
    return [
        (m, f"{' '.join(matched[m])} (score {sum(rare[m].values()):.2f}, floor {floor:.2f})")
        for m in kept[:limit]
    ]


def _shared_words(
    index: recall.Index, said: list[str], total: int
) -> tuple[dict[str, float], dict[str, list[str]], dict[str, dict[str, float]]]:
    """Each memory's score for the prompt's distinct words `said` (about_prompt), the
    words it shares, and those of them that are not everyday words with their weights."""
    import math

    everyday = common()
    scores: dict[str, float] = {}
    matched: dict[str, list[str]] = {}
    rare: dict[str, dict[str, float]] = {}  # id -> {word not everyday: its IDF}
    for w in said:
        ids = index.bucket("w", w).get(w, ())
        if not isinstance(ids, list) or not ids:
            continue
        idf = math.log(1 + total / len(ids))
        if len(ids) > total // 10 + 3:  # in many memories: an everyday word of this store
            everyday = everyday | {w}
        weight = idf * COMMON_WEIGHT if w in everyday else idf
        for mid in ids:
            if isinstance(mid, str):
                scores[mid] = scores.get(mid, 0.0) + weight
                matched.setdefault(mid, []).append(w)
                if w not in everyday:
                    rare.setdefault(mid, {})[w] = weight
    return scores, matched, rare
