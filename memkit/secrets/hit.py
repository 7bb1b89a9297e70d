"""One place in a text that holds a likely secret."""

from __future__ import annotations

from dataclasses import dataclass

# Which finding a line reports when several rules hit it: the most specific one.
BLOCK, FORMAT, CONTEXT = 0, 1, 2


@dataclass(frozen=True)
class Hit:
    kind: str
    start: int  # the secret itself: what redaction replaces
    end: int
    rank: int = FORMAT
