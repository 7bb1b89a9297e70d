"""Memory files of a revision or the work tree by blob id, their parses kept in the cache."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import git, write_memory

from memkit import memory as mm
from memkit.history import diff as d
from memkit.history import snapshots
from memkit.store import Store
from memkit.store import parse_cache as pc


def mem(title: str, body: str = "Text.", **fields: str) -> str:
    lines = [f"title: {title}", *(f"{k}: {v}" for k, v in fields.items())]
    return "---\n" + "\n".join(lines) + f"\n---\n\n{body}\n"


@pytest.fixture
def ranged(repo: Path, store: Store) -> str:
    """Ten memories at the base; then three edited, two added, one removed, one renamed,
    one made invalid (committed), one edited on disk only. Returns the base commit."""
    for i in range(10):
        write_memory(store, f"m{i}", mem(f"M{i}", f"Body {i}.", paths=f"[p{i}/*]"))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD").strip()
    for i in range(3):
        write_memory(store, f"m{i}", mem(f"M{i} edited", f"Body {i}, more.", paths=f"[p{i}/*]"))
    write_memory(store, "n1", mem("N1", "New.", paths="[n/*]"))
    write_memory(store, "n2", mem("N2", "Always."))
    git(repo, "rm", "-q", ".memory/m3.md")
    git(repo, "mv", ".memory/m4.md", ".memory/m4-renamed.md")
    (store.dir / "m5.md").write_text("---\ntitle: [\n---\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "changes")
    write_memory(store, "m6", mem("M6 on disk", "Changed, not committed.", paths="[p6/*]"))
    return base


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = mm.parse_all

    def parse_all(data: bytes, *, mid: str, path: str) -> object:
        parsed.append(path)
        return real(data, mid=mid, path=path)

    monkeypatch.setattr(mm, "parse_all", parse_all)
    return parsed


@pytest.mark.parametrize("head", ["HEAD", None])
def test_a_second_review_of_a_range_parses_only_invalid_files(
    store: Store, ranged: str, monkeypatch: pytest.MonkeyPatch, head: str | None
) -> None:
    review = d.diff_range
    first = review(store, ranged, head)
    assert first is not None
    assert {c.id: c.kind for c in first.changes} == {
        "m0": "changed",
        "m1": "changed",
        "m2": "changed",
        "m3": "removed",
        "m4-renamed": "renamed",
        "m5": "changed",
        "n1": "added",
        "n2": "added",
        **({"m6": "changed"} if head is None else {}),
    }
    mems = store.memories()  # the store's own load is not what is counted
    parsed = counting(monkeypatch)
    again = review(store, ranged, head, mems)
    assert again == first
    assert parsed == [".memory/m5.md"]  # does not parse: never cached


def test_a_cached_parse_is_of_the_bytes_and_the_path(
    store: Store, ranged: str, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d.diff_range(store, ranged, None)
    # the same bytes at a new path: parsed again, under the new id
    git(repo, "mv", ".memory/m0.md", ".memory/m0-moved.md")
    git(repo, "commit", "-q", "-m", "move")
    write_memory(store, "copy", (store.dir / "m8.md").read_text())  # m8's bytes, another name
    mems = store.memories()
    parsed = counting(monkeypatch)
    review = d.diff_range(store, ranged, None, mems)
    assert sorted(parsed) == [".memory/copy.md", ".memory/m0-moved.md", ".memory/m5.md"]
    kinds = {c.id: (c.kind, c.title, c.path) for c in review.changes}
    assert kinds["m0-moved"] == ("added", "M0 edited", ".memory/m0-moved.md")  # not m0's bytes
    assert kinds["m0"] == ("removed", "M0", None)
    assert kinds["copy"] == ("added", "M8", ".memory/copy.md")  # m8's bytes; m8 stays
    assert "m8" not in kinds


def test_a_cached_row_of_another_memory_is_not_used(store: Store, ranged: str) -> None:
    first = d.diff_range(store, ranged, "HEAD")
    cache = pc.ParseCache(store.private_dir() / pc.CACHE_NAME, bulk=False)
    oid = git_blob(store, "HEAD", ".memory/n1.md")
    cache.prefetch_blobs([(oid, ".memory/n1.md")])
    other = mm.parse(mem("Planted"), mid="other", path=".memory/other.md")
    cache.put_blob(oid, ".memory/n1.md", 1, other)
    cache.save()
    cache.close()
    assert d.diff_range(store, ranged, "HEAD") == first


def git_blob(store: Store, rev: str, path: str) -> str:
    return git(store.root, "rev-parse", f"{rev}:{path}").strip()


def test_disk_files_get_the_id_git_gives_them(store: Store, ranged: str) -> None:
    files = snapshots.Memories(store, lambda oid: b"")
    snap = snapshots.on_disk(store, files, sha256=False)
    listed = git(store.root, "ls-files", "-s", ".memory").split("\n")
    staged = {line.split("\t")[1]: line.split()[1] for line in listed if line}
    for mid, (path, oid) in snap.items():
        if mid != "m6":
            assert staged[path] == oid, path
    assert snap["m6"][1] == git(store.root, "hash-object", ".memory/m6.md").strip()


def test_sha256_ids_as_git_writes_them(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    done = subprocess.run(
        ["git", "init", "-q", "--object-format=sha256", str(repo)], capture_output=True
    )
    if done.returncode:
        pytest.skip("this git cannot make SHA-256 repositories")
    for data in (b"", b"---\ntitle: x\n---\n\nBody.\n", bytes(range(256)) * 40):
        (repo / "f").write_bytes(data)
        want = git(repo, "hash-object", "f").strip()
        assert snapshots.blob_id(data, sha256=True) == want
        assert len(want) == 64


def test_blob_rows_past_the_limit_keep_only_one_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pc, "BLOB_ROWS", 3)
    path = tmp_path / pc.CACHE_NAME
    memory = mm.parse(mem("T"), mid="t", path=".memory/t.md")

    def run(oids: list[str]) -> set[str]:
        cache = pc.ParseCache(path, bulk=False)
        keys = [(o, ".memory/t.md") for o in oids]
        cache.prefetch_blobs(keys)
        hits = {o for o, p in keys if cache.get_blob(o, p) is not None}
        for o, p in keys:
            if o not in hits:
                cache.put_blob(o, p, 10, memory)
        cache.save()
        cache.close()
        return hits

    assert run(["a", "b"]) == set()
    assert run(["b", "c"]) == {"b"}  # 3 rows: within the limit
    assert run(["d", "e"]) == set()  # 5 rows would pass 3 (and twice 2): this run's kept
    assert run(["a", "b", "c", "d", "e"]) == {"d", "e"}  # 5 rows: within twice 5
    assert run(["a", "d"]) == {"a", "d"}


def test_the_store_load_keeps_blob_rows(store: Store, ranged: str) -> None:
    d.diff_range(store, ranged, "HEAD")
    store.load()
    cache = pc.ParseCache(store.private_dir() / pc.CACHE_NAME, bulk=False)
    assert cache.con is not None
    assert cache.con.execute("SELECT count(*) FROM blobs").fetchone()[0] > 5
