"""Regular expressions compiled the first time they are used.

A module that keeps dozens of patterns (the secret scanner) paid for compiling all of
them whenever it was imported, though a memory's text reaches only a few of them (3 of
the scanner's 41 for a plain memory): 5-9 ms of a commit hook's run. `lazy(...)`
stands for `re.compile(...)` at module level; the first method call compiles the
pattern, and from then on the pattern's methods are read from the instance directly.
"""

from __future__ import annotations

import re
from typing import Any, cast

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class _Lazy:
    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(*self._args)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        for attribute in ("pattern", "flags", "groups", "groupindex"):
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r}, {self._args[1]})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled on first use."""
    return cast("re.Pattern[str]", _Lazy(pattern, flags))
