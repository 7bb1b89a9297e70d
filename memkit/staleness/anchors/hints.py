"""Close matches for a name that resolves to nothing: the `(did you mean ...?)` of messages."""

from __future__ import annotations

from collections.abc import Iterable


def close(name: str, names: Iterable[str], n: int = 3, cutoff: float = 0.7) -> list[str]:
    """Up to `n` names like `name`, best first."""
    import difflib

    return difflib.get_close_matches(name, sorted(set(names)), n=n, cutoff=cutoff)


def near(name: str, names: Iterable[str], cutoff: float = 0.7) -> str:
    """` (did you mean a, b?)` for close matches of `name`, or ""."""
    found = close(name, names, cutoff=cutoff)
    return f" (did you mean {', '.join(found)}?)" if found else ""


def close_sorted(name: str, names: list[str], limit: int = 200) -> list[str]:
    """close() over a large sorted list: only names sharing a prefix and about the length.

    difflib costs about 50 µs a comparison; a project has tens of thousands of
    identifiers, so the pool is cut first (bisect on the prefix, then length).
    """
    import bisect

    pool: list[str] = []
    for k in (3, 2, 1):
        prefix = name[:k]
        lo = bisect.bisect_left(names, prefix)
        hi = bisect.bisect_left(names, prefix + "\U0010ffff")
        at = bisect.bisect_left(names, name, lo, hi)  # the neighbours in sorted order
        window = names[max(lo, at - limit * 5) : min(hi, at + limit * 5)]
        if pool := [w for w in window if abs(len(w) - len(name)) <= 3]:
            break
    pool.sort(key=lambda w: (abs(len(w) - len(name)), w))
    return close(name, pool[:limit])
