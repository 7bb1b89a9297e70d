"""The one module that imports whoosh: a lighter import, and the whoosh names search uses.

Importing this module imports whoosh's analysis, query and reading modules (and what
they load: fields, file storage). The rest (scoring, the codec, the multiprocess
writer, the English stemmer) is imported by the function that returns it, on first use.
"""

from __future__ import annotations

import functools
import sys
import types
from typing import Any


def _import_whoosh() -> None:
    """Import whoosh without the ~65 ms of modules it imports and never uses here.

    whoosh.compat imports urllib.request (ssl, http, email) for a download helper and
    whoosh.reading imports the `cached_property` package (asyncio). Stand-ins are put
    in sys.modules for the import only, then removed, so later imports get the real ones.
    """
    stubs: dict[str, types.ModuleType] = {}
    if "urllib.request" not in sys.modules:
        req = types.ModuleType("urllib.request")

        def urlretrieve(*args: Any, **kwargs: Any) -> Any:
            sys.modules.pop("urllib.request", None)
            from urllib.request import urlretrieve as real

            return real(*args, **kwargs)

        req.urlretrieve = urlretrieve  # type: ignore[attr-defined]
        stubs["urllib.request"] = req
    if "cached_property" not in sys.modules:
        cp = types.ModuleType("cached_property")
        cp.cached_property = __import__("functools").cached_property  # type: ignore[attr-defined]
        stubs["cached_property"] = cp
    sys.modules.update(stubs)
    try:
        import whoosh.analysis
        import whoosh.query
        import whoosh.reading  # noqa: F401
    finally:
        for name, mod in stubs.items():
            if sys.modules.get(name) is mod:
                del sys.modules[name]


_import_whoosh()

from whoosh import query as wq  # noqa: E402
from whoosh.analysis import Token, Tokenizer  # noqa: E402
from whoosh.fields import ID, STORED, TEXT, Schema  # noqa: E402
from whoosh.filedb.filestore import FileStorage  # noqa: E402
from whoosh.reading import SegmentReader  # noqa: E402

__all__ = [
    "ID",
    "STORED",
    "TEXT",
    "FileStorage",
    "Schema",
    "SegmentReader",
    "Token",
    "Tokenizer",
    "bm25f",
    "english_stemmer",
    "mp_writer",
    "w3_codec",
    "wq",
]


@functools.cache
def english_stemmer() -> Any:
    """whoosh's Snowball English stemmer (one, made on first use)."""
    from whoosh.lang.snowball.english import EnglishStemmer

    return EnglishStemmer()


def bm25f(**options: Any) -> Any:
    """whoosh's BM25F weighting with `options` (B, K1, per-field `<field>_B`)."""
    from whoosh.scoring import BM25F

    return BM25F(**options)


def w3_codec(**options: Any) -> Any:
    """whoosh's current codec with `options` (e.g. compression)."""
    from whoosh.codec.whoosh3 import W3Codec

    return W3Codec(**options)


def mp_writer(ix: Any, **options: Any) -> Any:
    """A writer of `ix` that spreads the documents over processes (whoosh.multiproc)."""
    from whoosh.multiproc import MpWriter

    return MpWriter(ix, **options)
