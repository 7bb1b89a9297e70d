"""Forked workers fingerprint files exactly as this process would, and never change a result."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memkit import memory as mm
from memkit import workers
from memkit.staleness import parallel, python
from memkit.staleness.printcache import PrintCache
from memkit.staleness.snapshot import Snapshot
from memkit.store import Store, batch
from tests.conftest import Invoke, git
from tests.staleness.test_staleness_languages import TODAY, commit_all, write

SOURCES = sorted(Path("memkit/staleness").glob("*.py"))


def _snapshot(root: Path, cache: PrintCache) -> Snapshot:
    return Snapshot(root, None, None, cache)


def _wanted() -> dict[str, set[str]]:
    """Every symbol of memkit/staleness/*.py, the file prints and a name none defines."""
    out: dict[str, set[str]] = {}
    for path in SOURCES:
        names = set(python.parse(path.read_bytes(), str(path)).symbols)
        out[path.as_posix()] = names | {"", "NoSuchName"}
    return out


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers for even a small amount of work."""
    monkeypatch.setenv("MEMKIT_JOBS", "3")
    monkeypatch.setattr(parallel, "MIN_SHARE", 1)
    monkeypatch.setattr(batch, "MIN_SHARE", 1)


def test_workers_fill_the_cache_as_this_process_would(forking: None) -> None:
    wanted = _wanted()
    root = Path.cwd()
    fast = PrintCache(None)
    assert parallel.warm(_snapshot(root, fast), wanted) == 3
    slow = PrintCache(None)
    parallel.fill(slow, parallel.items(_snapshot(root, slow), wanted))
    assert fast.files == slow.files
    assert len(fast.files) == len(SOURCES)
    for path in SOURCES:  # and as the parse itself says
        parsed = python.parse(path.read_bytes(), str(path))
        entry = fast.files[PrintCache.key(path.read_bytes())]
        assert entry[""] == parsed.file
        assert entry["NoSuchName"] == ""
        assert all(entry[name] == str(p) for name, p in parsed.symbols.items())


def test_nothing_left_to_do_forks_nothing(forking: None) -> None:
    wanted = _wanted()
    cache = PrintCache(None)
    parallel.fill(cache, parallel.items(_snapshot(Path.cwd(), cache), wanted))
    assert parallel.warm(_snapshot(Path.cwd(), cache), wanted) == 1


def test_a_failing_worker_costs_only_time(forking: None, monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = parallel.fill

    def fill(cache: PrintCache, items: list[parallel.Item]) -> None:
        if os.getpid() != parent:
            raise RuntimeError("a worker fails")
        real(cache, items)

    monkeypatch.setattr(parallel, "fill", fill)
    cache = PrintCache(None)
    assert parallel.warm(_snapshot(Path.cwd(), cache), _wanted()) == 3
    assert 0 < len(cache.files) < len(SOURCES)  # this process's share only
    missing = next(p for p in SOURCES if PrintCache.key(p.read_bytes()) not in cache.files)
    data = missing.read_bytes()
    parsed = cache.parsed(data, lambda: python.parse(data, str(missing)))
    name = next(iter(python.parse(data).symbols))
    assert str(parsed.symbols[name]) == str(python.parse(data).symbols[name])


def _project(repo: Path) -> list[str]:
    """Twelve modules, one that does not parse; links to each, one to a missing name."""
    links = []
    for i in range(12):
        body = "".join(f"def f{j}(x):\n    return x + {i * j}\n\n" for j in range(30))
        write(repo, f"pkg/m{i}.py", f"class C{i}:\n    def m(self):\n        return {i}\n\n{body}")
        links += [f"pkg/m{i}.py::f{i}", f"pkg/m{i}.py::C{i}.m", f"pkg/m{i}.py"]
    write(repo, "pkg/broken.py", "def f(:\n")
    links += ["pkg/broken.py::f", "pkg/m3.py::nothing"]
    return links


SECRET = "ghp_" + "x7Kq2Lm9" * 4 + "Ab12"


def test_verify_all_is_the_same_with_workers(
    run: Invoke, repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = _project(repo)
    for i, link in enumerate(links):
        store.add(mm.new(f"memory {i}", "b", mid=f"m{i:02d}", today=TODAY, links=[link]))
    path = repo / ".memory" / "m05.md"  # a token pasted by hand: never written by memkit
    path.write_text(path.read_text() + f"token {SECRET}\n")
    commit_all(repo, "code and memories")
    kept = PrintCache.of(store).path
    assert kept is not None
    results = {}
    monkeypatch.setattr(parallel, "MIN_SHARE", 1)
    monkeypatch.setattr(batch, "MIN_SHARE", 1)
    calls: list[int] = []
    real = parallel.warm
    monkeypatch.setattr(
        parallel, "warm", lambda snap, wanted: calls.append(real(snap, wanted)) or calls[-1]
    )
    shares: list[int] = []
    split = workers.split
    monkeypatch.setattr(workers, "split", lambda *a: shares.append(len(split(*a))) or split(*a))
    for jobs in ("1", "3"):
        git(repo, "checkout", "-q", "--", ".")
        monkeypatch.setenv("MEMKIT_JOBS", jobs)
        calls.clear()
        shares.clear()
        out = run("verify", "--all", code=1)
        memories = {p.name: p.read_bytes() for p in sorted((repo / ".memory").glob("*.md"))}
        results[jobs] = (out.stdout, out.stderr, memories)
        assert calls == ([] if jobs == "1" else [3])  # no worker possible: not even asked
        assert shares == ([] if jobs == "1" else [3, 3])  # the parses, then the writes
        kept.unlink(missing_ok=True)
    assert results["1"] == results["3"]
    stdout, stderr, _ = results["1"]
    assert stdout.count("verified m") == len(links) - 3
    assert "broken.py does not parse" in stderr and "defines no symbol 'nothing'" in stderr
    assert "m05.md:" in stderr and "looks like a GitHub" in stderr


def test_diff_is_the_same_with_workers(
    run: Invoke, repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = [x for x in _project(repo) if "broken" not in x and "nothing" not in x]
    for i, link in enumerate(links):
        store.add(mm.new(f"memory {i}", "b", mid=f"m{i:02d}", today=TODAY, links=[link]))
    commit_all(repo, "code and memories")
    run("verify", "--all")
    commit_all(repo, "verified")
    for i in (2, 5, 7):
        path = repo / f"pkg/m{i}.py"
        path.write_text(path.read_text().replace(f"return x + {i * i}\n", "return -x\n"))
    commit_all(repo, "change three modules")
    kept = PrintCache.of(store).path
    assert kept is not None
    monkeypatch.setattr(parallel, "MIN_SHARE", 1)
    calls: list[int] = []
    real = parallel.warm
    monkeypatch.setattr(
        parallel, "warm", lambda snap, wanted: calls.append(real(snap, wanted)) or calls[-1]
    )
    outputs = {}
    for jobs in ("1", "3"):
        monkeypatch.setenv("MEMKIT_JOBS", jobs)
        kept.unlink(missing_ok=True)
        calls.clear()
        outputs[jobs] = run("diff", "HEAD~2", "HEAD").stdout
        assert calls == ([] if jobs == "1" else [3])  # no worker possible: not even asked
    assert outputs["1"] == outputs["3"]
    assert all(f"pkg/m{i}.py::f{i}" in outputs["1"] for i in (2, 5, 7))
    assert "pkg/m3.py" not in outputs["1"]
