"""The one way a message names many ids or paths: the first ten, then how many more.

A warning that named every left-out memory of a 1,500-memory store ran to thousands of
ids on one line. `capped(items, see=...)` names at most MAX_NAMED of them, then
"and N more", with the command that lists them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

MAX_NAMED = 10


def capped(
    items: Iterable[str],
    *,
    see: str = "",
    most: int = MAX_NAMED,
    sep: str = ", ",
    total: int | None = None,
) -> str:
    """`a, b, c and 7 more (`see`)`: at most `most` items named, the rest counted (of
    `total`, when there are more than `items` holds); `see` (a command, in backquotes)
    says where to find them all. Only the first `most` items are read."""
    rest = iter(items)
    shown = list(islice(rest, most))
    count = max(len(shown) + sum(1 for _ in rest), total or 0)
    if count <= len(shown):
        return sep.join(shown)
    hint = f" ({see})" if see else ""
    return f"{sep.join(shown)} and {count - len(shown)} more{hint}"
