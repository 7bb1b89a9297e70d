"""The link cache: a check where nothing changed opens no repository; any change is seen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memkit import git as memkit_git
from memkit.staleness import check_store, linkcache
from memkit.store import Store
from tests.conftest import git
from tests.staleness.test_staleness_languages import TODAY, commit_all, remember, write

CODE = '''def top(x):
    """Doubles."""
    return x * 2


def other(y):
    return y + 1
'''


def states(store: Store) -> list[tuple[str, str, list[str]]]:
    return [(s.id, s.state, [x.state for x in s.links]) for s in check_store(store, today=TODAY)]


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Files count as settled at once; counts the repositories check_store opens."""
    monkeypatch.setattr(linkcache, "RACY_NS", 0)
    count: list[int] = []
    real = memkit_git.find_repo

    def counting(path: Path) -> object:
        count.append(1)
        return real(path)

    monkeypatch.setattr(memkit_git, "find_repo", counting)
    return count


def test_second_check_opens_no_repository(repo: Path, store: Store, opened: list[int]) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top", "a.py"], mid="m")
    remember(repo, store, ["a.py::other"], mid="n")
    first = states(store)
    assert opened == [1]
    assert (
        states(store)
        == first
        == [
            ("m", "fresh", ["unchanged", "unchanged"]),
            ("n", "fresh", ["unchanged"]),
        ]
    )
    assert opened == [1]


def test_every_change_is_seen(repo: Path, store: Store, opened: list[int]) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"])
    assert states(store) == [("m", "fresh", ["unchanged"])]
    write(repo, "a.py", CODE.replace("Doubles.", "Twice."))
    assert states(store) == [("m", "fresh", ["docs"])]
    write(repo, "a.py", CODE.replace("x * 2", "x * 3"))
    assert states(store) == [("m", "stale", ["body"])]
    git(repo, "add", "a.py")
    assert states(store) == [("m", "stale", ["body"])]
    write(repo, "a.py", CODE)  # reverted in the work tree, still staged
    assert states(store) == [("m", "fresh", ["unchanged"])]
    git(repo, "mv", "a.py", "b.py")
    assert states(store) == [("m", "stale", ["moved"])]
    git(repo, "mv", "b.py", "a.py")
    write(repo, "a.py", CODE.replace("def top(x)", "def top(x, y)"))
    commit_all(repo, "signature")
    assert states(store) == [("m", "stale", ["signature"])]
    before = len(opened)
    assert states(store) == [("m", "stale", ["signature"])]
    assert len(opened) == before  # answered from the cache


def test_same_answers_with_and_without_the_cache(
    repo: Path, store: Store, opened: list[int]
) -> None:
    write(repo, "a.py", CODE)
    write(repo, "b.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top", "b.py::other", "b.py"])
    edits = [
        ("a.py", CODE.replace("x * 2", "x * 4")),
        ("b.py", CODE.replace("y + 1", "y + 2")),
        ("a.py", CODE),
        ("b.py", CODE.replace("Doubles.", "Doubled.")),
    ]
    for path, text in edits:
        write(repo, path, text)
        cached = states(store)
        (store.private_dir() / "links.json").unlink()
        assert states(store) == cached


def test_moved_links_and_anchors_are_not_kept(repo: Path, store: Store, opened: list[int]) -> None:
    write(repo, "a.py", CODE)
    write(repo, "pyproject.toml", '[project]\nname = "x"\ndependencies = ["click>=8"]\n')
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top", "dep:click"])
    write(repo, "a.py", CODE.replace("def top", "def renamed"))
    assert states(store) == [("m", "stale", ["moved", "unchanged"])]
    kept = json.loads((store.private_dir() / "links.json").read_text())
    assert kept["links"] == {}


def test_files_changed_just_now_are_not_kept(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"])
    assert states(store) == [("m", "fresh", ["unchanged"])]
    kept = json.loads((store.private_dir() / "links.json").read_text())
    assert kept["files"] == {} and kept["links"] == {}


def test_nothing_is_cached_with_git_dir_set(
    repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_INDEX_FILE", str(repo / ".git" / "other-index"))
    assert linkcache.git_stamp(repo) is None
    monkeypatch.delenv("GIT_INDEX_FILE")
    stamp = linkcache.git_stamp(repo)
    assert stamp is not None
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    assert linkcache.git_stamp(repo) != stamp  # HEAD moved
