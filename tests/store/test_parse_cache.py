"""The parse cache: parsed memories reused while a file's size and mtime are unchanged."""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import time

from conftest import write_memory

from memkit.fields import REGISTRY
from memkit.store import Store
from memkit.store.parse_cache import CACHE_NAME, PLAIN_KINDS, ParseCache, decode, encode


def test_parse_cache_is_used_and_invalidated(store: Store) -> None:
    path = write_memory(store, "a", "---\ntitle: Old\n---\n")
    old = time.time() - 60
    os.utime(path, (old, old))
    assert store.memories()[0].title == "Old"
    assert (store.cache_dir / CACHE_NAME).exists()
    assert store.memories()[0].title == "Old"  # from the cache
    path.write_text("---\ntitle: New title\n---\n")
    assert store.memories()[0].title == "New title"
    (store.cache_dir / CACHE_NAME).write_text("{not json")
    assert store.memories()[0].title == "New title"


def test_a_few_memories_are_looked_up_alone(store: Store) -> None:
    paths = [write_memory(store, f"m{i}", f"---\ntitle: M{i}\n---\n") for i in range(3)]
    old = time.time() - 60
    for p in paths:
        os.utime(p, (old, old))
    assert [m.title for m in store.get_many(["m1"])] == ["M1"]  # parsed, then cached
    cache = ParseCache(store.cache_dir / CACHE_NAME)
    assert list(cache.entries) == [".memory/m1.md"]
    cache.close()
    forged = ParseCache(store.cache_dir / CACHE_NAME)
    forged.entries[".memory/m1.md"][6] = "From the cache"  # the title's slot
    forged.changed = {".memory/m1.md": forged.entries[".memory/m1.md"]}
    forged.used.add(".memory/m1.md")
    forged.save()
    forged.close()
    assert [m.title for m in store.get_many(["m1", "m2"])] == ["From the cache", "M2"]
    assert [m.title for m in store.memories()] == ["M0", "From the cache", "M2"]


def test_prefetch_reads_the_few_entries_in_chunks(store: Store) -> None:
    paths = [write_memory(store, f"m{i:03}", f"---\ntitle: M{i}\n---\n") for i in range(520)]
    old = time.time() - 60
    for p in paths:
        os.utime(p, (old, old))
    assert len(store.memories()) == 520  # a full load fills the cache
    cache = ParseCache(store.cache_dir / CACHE_NAME, bulk=False)
    rels = [store.rel(p) for p in paths[::-1]] + [".memory/gone.md"]
    cache.prefetch(rels)  # two chunks: 500 and 21
    cache._lookup = None  # type: ignore[assignment,method-assign]  # no query per memory
    got = [cache.get(store.rel(p), os.stat(p)) for p in paths]
    assert [m.title if m else None for m in got] == [f"M{i}" for i in range(520)]
    assert cache.get(".memory/gone.md", os.stat(paths[0])) is None
    os.utime(paths[3], (old + 1, old + 1))  # the file changed since: not from the cache
    assert cache.get(store.rel(paths[3]), os.stat(paths[3])) is None
    cache.close()


def test_a_planted_or_other_cache_is_replaced(store: Store) -> None:
    path = write_memory(store, "a", "---\ntitle: Old\n---\n")
    old = time.time() - 60
    os.utime(path, (old, old))
    store.memories()
    con = sqlite3.connect(store.cache_dir / CACHE_NAME)
    con.execute("CREATE TRIGGER t AFTER INSERT ON entries BEGIN DELETE FROM fields; END")
    con.execute("UPDATE entries SET entry = replace(entry, 'Old', 'Forged')")
    con.commit()
    con.close()
    (store.cache_dir / "parsed.json").write_text("{}")  # an older memkit's cache
    assert store.memories()[0].title == "Old"
    con = sqlite3.connect(store.cache_dir / CACHE_NAME)
    assert con.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").fetchone() == (
        0,
    )
    con.close()
    assert not (store.cache_dir / "parsed.json").exists()


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
    cache = ParseCache(store.cache_dir / CACHE_NAME)
    assert list(cache.entries) == [".memory/full.md"]
    cached = store.memories()[0]
    assert cached == parsed
    assert cached.__dict__ == parsed.__dict__
    assert type(cached.tags) is tuple and type(cached.created) is dt.date
    assert cached.verified is not None
    assert cached.verified.fingerprints == {"src/x.py::f": "deadbeef"}
    assert decode(cache.entries[".memory/full.md"]) == parsed
    record = parsed.to_record()  # an entry holds the `--json` record's values, positionally
    expected = [parsed.id, parsed.path, *(record[f.name] for f in REGISTRY)]
    assert json.dumps(encode(parsed)) == json.dumps(expected)


def test_a_cache_written_with_other_fields_is_not_used(store: Store) -> None:
    path = write_memory(store, "a", "---\ntitle: Old\n---\n")
    old = time.time() - 60
    os.utime(path, (old, old))
    store.memories()
    con = sqlite3.connect(store.cache_dir / CACHE_NAME)
    names = json.loads(con.execute("SELECT names FROM fields").fetchone()[0])
    con.execute("UPDATE fields SET names = ?", (json.dumps([*names, "new_field"]),))
    con.execute("UPDATE entries SET entry = replace(entry, 'Old', 'Wrong')")
    con.commit()
    con.close()
    assert store.memories()[0].title == "Old"
    con = sqlite3.connect(store.cache_dir / CACHE_NAME)
    assert json.loads(con.execute("SELECT names FROM fields").fetchone()[0]) == names
    con.close()


def test_every_field_kind_is_decoded_or_plain() -> None:
    special = {"list", "date", "verified"}
    assert {f.kind for f in REGISTRY} <= PLAIN_KINDS | special


def test_a_second_load_in_a_process_reuses_the_first(store: Store) -> None:
    path = write_memory(store, "a", "---\ntitle: Old\n---\n")
    old = time.time() - 60
    os.utime(path, (old, old))
    first = store.load()
    assert store.load() is first
    path.write_text("---\ntitle: New\n---\n")  # size and mtime change
    assert store.load().memories[0].title == "New"
    fresh = write_memory(store, "b", "---\ntitle: Just written\n---\n")  # racy: not kept
    assert fresh.exists() and store.load() is not store.load()


def test_a_load_keeps_the_bytes_of_the_few_files_it_parsed_afresh(store: Store) -> None:
    from memkit.store import loading

    paths = [write_memory(store, f"m{i}", f"---\ntitle: M{i}\n---\n\nB{i}.\n") for i in range(3)]
    hour_ago = time.time() - 3600
    for path in paths:
        os.utime(path, (hour_ago, hour_ago))
    first = Store(store.root).load()
    assert sorted(first.fresh) == [".memory/m0.md", ".memory/m1.md", ".memory/m2.md"]
    assert first.fresh[".memory/m1.md"] == paths[1].read_bytes()
    paths[1].write_text("---\ntitle: M1\n---\n\nEdited.\n", encoding="utf-8")
    again = Store(store.root).load()  # the others come from the parse cache
    assert dict(again.fresh) == {".memory/m1.md": paths[1].read_bytes()}
    for i in range(3, loading.FRESH_MAX + 4):
        write_memory(store, f"m{i}", f"---\ntitle: M{i}\n---\n\nB{i}.\n")
    assert Store(store.root).load().fresh == {}  # too many to keep: nothing kept
