"""The parse cache: parsed memories reused while a file's size and mtime are unchanged."""

from __future__ import annotations

import os
import time

from conftest import write_memory

from memkit.store import Store


def test_parse_cache_is_used_and_invalidated(store: Store) -> None:
    path = write_memory(store, "a", "---\ntitle: Old\n---\n")
    old = time.time() - 60
    os.utime(path, (old, old))
    assert store.memories()[0].title == "Old"
    assert (store.cache_dir / "parsed.json").exists()
    assert store.memories()[0].title == "Old"  # from the cache
    path.write_text("---\ntitle: New title\n---\n")
    assert store.memories()[0].title == "New title"
    (store.cache_dir / "parsed.json").write_text("{not json")
    assert store.memories()[0].title == "New title"
