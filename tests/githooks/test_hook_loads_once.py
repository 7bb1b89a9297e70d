"""One hook run reads the store once (Store(once=True)), whatever its checks need."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, write_memory

from memkit.githooks import fastpath
from memkit.githooks.index import Opener
from memkit.store import Store, loading

MEMORY = "---\ntitle: Totals are rounded once\ntype: gotcha\nlinks:\n- src/app.py::total\n---\n\n"


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = loading._load

    def counting(store: object, files: list[object]) -> loading.Loaded:
        calls.append(len(files))
        return real(store, files)  # type: ignore[arg-type]

    monkeypatch.setattr(loading, "_load", counting)
    return calls


def test_a_commit_of_a_memory_just_edited_loads_the_store_once(
    repo: Path, store: Store, loads: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    """A memory edited seconds ago is not trusted by the in-process reuse of
    memkit.store.loading, so each check used to parse the store again."""
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("def total(xs):\n    return sum(xs)\n", "utf-8")
    write_memory(store, "totals", MEMORY + "Round once.\n")
    write_memory(store, "other", "---\ntitle: Other\n---\n\nText.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    write_memory(store, "totals", MEMORY + "Round the final sum only.\n")  # just now
    (repo / "src" / "app.py").write_text("def total(xs):\n    return round(sum(xs))\n", "utf-8")
    git(repo, "add", "-A")
    loads.clear()
    code = fastpath.main(["pre-commit", "--root", str(repo)])
    out = capsys.readouterr()
    assert code == 1  # the compiled files were regenerated: the commit stops once
    assert "regenerated" in out.err
    assert loads == [2]


def test_a_store_read_once_loads_once_and_the_opener_opens_one_store(
    repo: Path, store: Store, loads: list[int]
) -> None:
    write_memory(store, "a", "---\ntitle: A\n---\n\nText.\n")
    opener = Opener(str(repo))
    once = opener()
    assert once.once
    assert opener() is once
    assert once.load() is once.load()
    assert [m.id for m in once.memories()] == ["a"]
    assert [m.id for m in once.get_many(["a"])] == ["a"]
    assert loads == [1]


def test_a_store_read_once_keeps_its_first_reading(
    repo: Path, store: Store, loads: list[int]
) -> None:
    """Files written since are not seen by it (a hook run or a session start writes no
    memory file); a plain Store sees them, and an id its reading lacks is still found."""
    write_memory(store, "a", "---\ntitle: A\n---\n\nText.\n")
    once = Store(repo, once=True)
    assert [m.id for m in once.memories()] == ["a"]
    write_memory(store, "b", "---\ntitle: B\n---\n\nText.\n")
    assert [m.id for m in once.memories()] == ["a"]
    assert [m.id for m in Store(repo).memories()] == ["a", "b"]
    assert [m.id for m in once.get_many(["a", "b"])] == ["a", "b"]
