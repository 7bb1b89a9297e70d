"""The parse cache: parsed memories reused while a file's size and mtime are unchanged."""

from __future__ import annotations

import datetime as dt
import json
import os
import time

from conftest import write_memory

from memkit.fields import REGISTRY
from memkit.store import Store
from memkit.store.parse_cache import PLAIN_KINDS, ParseCache, decode


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


FULL = """---
title: Every field
type: decision
status: superseded
tags: [a, b-c]
paths: ["src/**/*.py"]
links: ["src/x.py::f"]
source: https://example.com/1
confidence: high
created: 2024-01-02
updated: 2024-02-03
review_after: 2025-01-01
expires: 2030-01-01
priority: 3
pin: true
supersedes: [old-one]
superseded_by: new-one
verified:
  commit: abc123
  date: 2024-02-04
  links:
    src/x.py::f: deadbeef
unknown_key: kept
---

Body text.
"""


def test_a_cached_memory_equals_the_parsed_one_field_by_field(store: Store) -> None:
    path = write_memory(store, "full", FULL)
    old = time.time() - 60
    os.utime(path, (old, old))
    parsed = store.memories()[0]
    cache = ParseCache(store.cache_dir / "parsed.json")
    assert list(cache.entries) == [".memory/full.md"]
    cached = store.memories()[0]
    assert cached == parsed
    assert cached.__dict__ == parsed.__dict__
    assert type(cached.tags) is tuple and type(cached.created) is dt.date
    assert cached.verified is not None
    assert cached.verified.fingerprints == {"src/x.py::f": "deadbeef"}
    assert decode(cache.entries[".memory/full.md"]) == parsed


def test_a_cache_written_with_other_fields_is_not_used(store: Store) -> None:
    path = write_memory(store, "a", "---\ntitle: Old\n---\n")
    old = time.time() - 60
    os.utime(path, (old, old))
    store.memories()
    cache_file = store.cache_dir / "parsed.json"
    data = json.loads(cache_file.read_text())
    data["fields"] = [*data["fields"], "new_field"]
    for entry in data["entries"].values():
        entry[6] = "Wrong"  # the title's slot, read by an older or newer memkit
    cache_file.write_text(json.dumps(data))
    assert store.memories()[0].title == "Old"
    assert json.loads(cache_file.read_text())["fields"] == data["fields"][:-1]


def test_every_field_kind_is_decoded_or_plain() -> None:
    special = {"list", "date", "verified"}
    assert {f.kind for f in REGISTRY} <= PLAIN_KINDS | special
