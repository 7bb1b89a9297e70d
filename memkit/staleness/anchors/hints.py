"""Close matches for a name that resolves to nothing: the `(did you mean ...?)` of messages."""

from __future__ import annotations

from collections.abc import Iterable


def close(name: str, names: Iterable[str], n: int = 3, cutoff: float = 0.7) -> list[str]:
    """Up to `n` names like `name`, best first."""
    import difflib

    return difflib.get_close_matches(name, sorted(set(names)), n=n, cutoff=cutoff)


def near(name: str, names: Iterable[str]) -> str:
    """` (did you mean a, b?)` for close matches of `name`, or ""."""
    found = close(name, names)
    return f" (did you mean {', '.join(found)}?)" if found else ""
