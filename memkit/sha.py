"""SHA-256 for the short-lived processes, without loading OpenSSL for a few kilobytes.

Importing hashlib loads OpenSSL (its `_hashlib` module): about 4 ms at every start,
more than the git hook's lean route and a `MEMKIT_CACHE_DIR` folder name hash in
all. CPython's own SHA-256 (the `_sha256` module in 3.11, `_sha2` from 3.12) gives
the same digests and loads in 0.3 ms, but hashes about 5x slower than OpenSSL. So
`sha256` uses hashlib when something in the process has already imported it (a
command that hashes a lot: the store's load, compile's fits), else the builtin; and
hashlib where Python was built without the builtin.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # no typing import: the git hook's fast path may come here
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class Hash(Protocol):
        def update(self, data: bytes, /) -> None: ...
        def digest(self) -> bytes: ...
        def hexdigest(self) -> str: ...


_builtin: Callable[[bytes], Hash] | None = None


def sha256(data: bytes = b"") -> Hash:
    """A SHA-256 hash object of `data` (update, digest, hexdigest), as hashlib.sha256."""
    lib = sys.modules.get("hashlib")
    if lib is not None:
        made: Hash = lib.sha256(data)
        return made
    return (_builtin or _find_builtin())(data)


def _find_builtin() -> Callable[[bytes], Hash]:
    global _builtin
    for name in ("_sha2", "_sha256"):  # 3.12+, then 3.11
        try:
            found: Callable[[bytes], Hash] = __import__(name).sha256
        except (ImportError, AttributeError):
            continue
        _builtin = found
        return found
    import hashlib

    _builtin = hashlib.sha256
    return _builtin
