"""Near moves: code that went to another file or class and changed a little on the way.

A symbol missing from its file whose body is found nowhere unchanged is compared, as
a token sequence with its own name left out, with every symbol that is new since the
memory was verified (absent at that commit from that file) in the files that changed.
Similarity is difflib's ratio of the two token sequences (2 * matched / total); the
best candidate at or above NEAR is the move. Candidates within TIE of the best are
equally good: unless exactly one of them keeps the name, the move is ambiguous and all
are reported, never guessed.

A deleted file whose names mostly went to one new file (git's rename detection missed
it: the code changed too much on the way) took its symbols there: see `successor`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

NEAR = 0.9  # token similarity from which a new symbol is the moved one
TIE = 0.005  # candidates this close to the best are equally good
MIN_TOKENS = 24  # smaller code is too common to identify by likeness


@dataclass(frozen=True)
class Candidate:
    path: str
    name: str
    score: float  # similarity in [0, 1]; 1.0 for an identical body


def similarity(
    a: Sequence[str], b: Sequence[str], bags: tuple[Counter[str], Counter[str]] | None = None
) -> float:
    """difflib's ratio of two token sequences, with cheap upper bounds tried first.

    `bags`: Counter(a) and Counter(b), when the caller keeps them (one missing symbol is
    compared with many candidates, and one candidate with many missing symbols)."""
    if not a or not b:
        return 0.0
    total = len(a) + len(b)
    if 2 * min(len(a), len(b)) / total < NEAR:
        return 2 * min(len(a), len(b)) / total  # the length alone rules it out
    ca, cb = bags if bags is not None else (Counter(a), Counter(b))
    common = sum((ca & cb).values())
    if 2 * common / total < NEAR:
        return 2 * common / total  # the bag of tokens bounds the ratio from above
    import difflib

    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def best(candidates: Iterable[Candidate], name: str) -> tuple[Candidate | None, tuple[str, ...]]:
    """The one best candidate, or None and the equally good ones ("path::name") if several."""
    ranked = sorted(candidates, key=lambda c: (-c.score, c.path, c.name))
    if not ranked:
        return None, ()
    top = [c for c in ranked if c.score >= ranked[0].score - TIE]
    if len(top) == 1:
        return top[0], ()
    same = [c for c in top if c.name.rsplit(".", 1)[-1] == name.rsplit(".", 1)[-1]]
    if len(same) == 1:
        return same[0], ()
    return None, tuple(f"{c.path}::{c.name}" for c in top)


def successor(names: set[str], name: str, files: Iterable[tuple[str, set[str]]]) -> str | None:
    """The file a deleted file's `names` went to, when `name` is among them: the one new
    file (given with the names now in it that were not in it before) that defines
    `name` and holds at least half of the names of both files together."""
    takers = [
        path
        for path, theirs in files
        if name in theirs and 2 * len(names & theirs) >= len(names | theirs)
    ]
    return takers[0] if len(takers) == 1 else None
