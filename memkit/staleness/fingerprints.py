"""Fingerprint strings and how two of them compare.

A symbol's fingerprint separates its signature, body and documentation:
`sig:1a2b3c4d body:5e6f7a8b doc:9c0d1e2f` (32-bit prefixes of BLAKE2b digests of
normalized parse trees: formatting and ordinary comments never reach them). A
file's fingerprint is `file:1a2b3c4d5e6f`, a digest of its normalized token stream
for supported languages and of its bytes otherwise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


def digest(data: str | bytes, size: int = 4) -> str:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=size).hexdigest()


@dataclass(frozen=True)
class SymbolPrint:
    """The three parts of one symbol's fingerprint (hex digests)."""

    sig: str
    body: str
    doc: str

    def __str__(self) -> str:
        return f"sig:{self.sig} body:{self.body} doc:{self.doc}"

    @classmethod
    def of(cls, sig: str, body: str, doc: str) -> SymbolPrint:
        return cls(digest(sig), digest(body), digest(doc))


def file_print(normalized: str | bytes) -> str:
    return f"file:{digest(normalized, 6)}"


def parse_print(text: str) -> SymbolPrint | None:
    """The SymbolPrint in a recorded string, or None for a file fingerprint or junk."""
    parts = dict(p.partition(":")[::2] for p in text.split())
    if {"sig", "body", "doc"} <= parts.keys():
        return SymbolPrint(parts["sig"], parts["body"], parts["doc"])
    return None


def compare_symbol(old: str, new: SymbolPrint) -> str:
    """How a symbol changed: signature > body > docs > unchanged."""
    before = parse_print(old)
    if before is None:
        return "body" if old != str(new) else "unchanged"
    if before.sig != new.sig:
        return "signature"
    if before.body != new.body:
        return "body"
    if before.doc != new.doc:
        return "docs"
    return "unchanged"
