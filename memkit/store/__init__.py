"""Storage of memories: the markdown files under `<root>/.memory/`, and nothing else.

store (Store: find, list, load, get, add, put, update, delete, lock; find_root),
loading (Store.load: the whole store, parse cache, reuse), parse_cache (parsed
memories kept between runs), sqlite (derived SQLite files checked on open),
secrets_guard (refusing to write a likely secret), init (creating `.memory/`).
Importing this package imports store and init; the others load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memkit.lazy import attach
from memkit.store.init import default_root, init
from memkit.store.store import Store, find_root

if TYPE_CHECKING:
    from memkit.store.loading import Loaded
    from memkit.store.secrets_guard import check_secrets, secret_findings

__all__ = [
    "Loaded",
    "Store",
    "check_secrets",
    "default_root",
    "find_root",
    "init",
    "secret_findings",
]

# Imported on first use: a search parses no memory and writes none.
_LAZY = {
    "Loaded": "memkit.store.loading",
    "check_secrets": "memkit.store.secrets_guard",
    "secret_findings": "memkit.store.secrets_guard",
}


__getattr__ = attach(__name__, _LAZY)
