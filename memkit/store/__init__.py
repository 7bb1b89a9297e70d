"""Storage of memories: the markdown files under `<root>/.memory/`, and nothing else.

store (Store: find, list, load, get, add, put, update, delete, lock; find_root),
loading (Store.load: the whole store, parse cache, reuse), parse_cache (parsed
memories kept between runs), sqlite (derived SQLite files checked on open),
secrets_guard (refusing to write a likely secret), init (creating `.memory/`).
Importing this package imports those modules, none of the heavy libraries.
"""

from __future__ import annotations

from memkit.store.init import GITIGNORE, default_root, init
from memkit.store.loading import Loaded
from memkit.store.secrets_guard import check_secrets, secret_findings
from memkit.store.store import Store, find_root

__all__ = [
    "GITIGNORE",
    "Loaded",
    "Store",
    "check_secrets",
    "default_root",
    "find_root",
    "init",
    "secret_findings",
]
