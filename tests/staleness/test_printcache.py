"""Prints kept by content (printcache) must be exactly what parsing gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memkit.staleness import printcache, python, verify
from memkit.staleness.parsed import Unparsable
from memkit.staleness.printcache import PrintCache
from memkit.store import Store
from tests.staleness.test_staleness_languages import TODAY, commit_all, remember, write

SOURCES = sorted(Path("memkit/staleness").glob("*.py"))


def _reopen(cache: PrintCache, folder: Path) -> PrintCache:
    cache.save()
    return PrintCache.open(folder)


def test_cached_prints_equal_the_parse(tmp_path: Path) -> None:
    cache = PrintCache.open(tmp_path)
    for path in SOURCES:
        data = path.read_bytes()
        slow = python.parse(data, str(path))
        names = [*slow.symbols, "NoSuch", "Also.missing"]
        first = cache.parsed(data, lambda d=data, p=path: python.parse(d, str(p)))
        assert {n: first.symbols.get(n) for n in names} == {n: slow.symbols.get(n) for n in names}
        assert first.file == slow.file
    cache = _reopen(cache, tmp_path)
    calls: list[str] = []
    for path in SOURCES:
        data = path.read_bytes()
        slow = python.parse(data, str(path))
        names = [*slow.symbols, "NoSuch", "Also.missing"]

        def parse(d: bytes = data, p: Path = path) -> python.Parsed:
            calls.append(str(p))
            return python.parse(d, str(p))

        warm = cache.parsed(data, parse)
        assert warm.file == slow.file
        for name in names:
            assert warm.symbols.get(name) == slow.symbols.get(name)
            assert (name in warm.symbols) == (name in slow.symbols)
    assert calls == []  # every answer came from the cache
    data = SOURCES[0].read_bytes()
    warm = cache.parsed(data, lambda: python.parse(data))
    slow = python.parse(data)
    assert list(warm.symbols) == list(slow.symbols) and len(warm.symbols) == len(slow.symbols)
    name = next(iter(slow.symbols))
    assert warm.tokens(name) == slow.tokens(name)
    assert warm.find_body(slow.symbols[name].body) == slow.find_body(slow.symbols[name].body)


def test_new_content_is_parsed_at_once_and_errors_are_not_kept(tmp_path: Path) -> None:
    cache = PrintCache.open(tmp_path)
    with pytest.raises(Unparsable):
        cache.parsed(b"def (:\n", lambda: python.parse(b"def (:\n"))
    cache = _reopen(cache, tmp_path)
    with pytest.raises(Unparsable):  # still reported, from a parse
        cache.parsed(b"def (:\n", lambda: python.parse(b"def (:\n"))


@pytest.mark.parametrize(
    "planted",
    [b"not json", b"[]", b'{"code": "x", "files": {}}', None],
)
def test_a_foreign_or_broken_cache_is_started_again(tmp_path: Path, planted: bytes | None) -> None:
    data = b"def f():\n    return 1\n"
    good = PrintCache.open(tmp_path)
    good.parsed(data, lambda: python.parse(data)).symbols.get("f")
    good.save()
    stored = json.loads((tmp_path / "prints.json").read_bytes())
    if planted is None:  # the right code digest, but an entry of the wrong type
        stored["files"][next(iter(stored["files"]))]["f"] = 7
        planted = json.dumps(stored).encode()
    (tmp_path / "prints.json").write_bytes(planted)
    again = PrintCache.open(tmp_path)
    assert again.files == {}
    assert (
        again.parsed(data, lambda: python.parse(data)).symbols["f"]
        == python.parse(data).symbols["f"]
    )


def test_a_change_to_the_fingerprinting_code_starts_a_new_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = b"def f():\n    return 1\n"
    cache = PrintCache.open(tmp_path)
    cache.parsed(data, lambda: python.parse(data)).symbols.get("f")
    cache.save()
    assert PrintCache.open(tmp_path).files
    monkeypatch.setattr(printcache, "_code_digest", lambda: "another")
    assert PrintCache.open(tmp_path).files == {}


def test_only_what_a_run_used_is_written_beyond_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(printcache, "MAX_FILES", 2)
    cache = PrintCache.open(tmp_path)
    sources = [f"X = {i}\n".encode() for i in range(3)]
    for data in sources:
        cache.parsed(data, lambda d=data: python.parse(d)).symbols.get("X")
    cache = _reopen(cache, tmp_path)
    assert len(cache.files) == 3
    cache.parsed(sources[0], lambda: python.parse(sources[0])).symbols.get("X")
    cache.dirty = True
    assert len(_reopen(cache, tmp_path).files) == 1


def test_verify_writes_the_same_files_with_and_without_kept_prints(
    repo: Path, store: Store
) -> None:
    write(repo, "a.py", "class A:\n    def m(self):\n        return 1\n\n\ndef top():\n    pass\n")
    commit_all(repo, "code")
    remember(repo, store, ["a.py::A", "a.py::A.m"], mid="one")
    remember(repo, store, ["a.py::top", "a.py"], mid="two")
    write(repo, "a.py", "class A:\n    def m(self):\n        return 2\n\n\ndef top():\n    pass\n")
    commit_all(repo, "change")
    kept = store.private_dir() / "prints.json"
    before = {p.name: p.read_bytes() for p in store.dir.glob("*.md")}
    results = []
    for warm in (False, True, True):
        if not warm:
            kept.unlink(missing_ok=True)
        for name, data in before.items():
            (store.dir / name).write_bytes(data)
        verify(store, None, today=TODAY)
        results.append({p.name: p.read_bytes() for p in store.dir.glob("*.md")})
        assert kept.exists()
    assert results[0] == results[1] == results[2] != before


def test_without_a_private_folder_prints_are_kept_in_memory_only(
    repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memkit.errors import MemkitError

    def refuse() -> Path:
        raise MemkitError("cannot create memkit's cache folder")

    monkeypatch.setattr(store, "private_dir", refuse)
    cache = PrintCache.of(store)
    data = b"def f():\n    return 1\n"
    assert (
        cache.parsed(data, lambda: python.parse(data)).symbols["f"]
        == python.parse(data).symbols["f"]
    )
    cache.save()  # nowhere to write: nothing happens
