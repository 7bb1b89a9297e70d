"""check_range skips the older revision for memories verified against the newer code;
its answers must be the slow path's (every touched link compared at both revisions)."""

from __future__ import annotations

from pathlib import Path

import pytest

import memkit.git
from memkit.git import changes as git_changes
from memkit.staleness import check, check_range, verify
from memkit.store import Store
from tests.conftest import git
from tests.staleness.test_staleness_languages import TODAY, commit_all, remember, write

CODE = '''class Outer:
    """Docs."""

    def method(self):
        return compute(1, 2)


def top(x):
    return x * 2


def gone():
    return 5


LIMIT = 10
'''


def _answers(store: Store, base: str, head: str | None) -> list[tuple[str, str, list[tuple]]]:
    return [
        (s.id, s.state, [(x.link, x.state, x.moved_to, x.since) for x in s.links])
        for s in check_range(store, base, head)
    ]


def _build(repo: Path, store: Store) -> str:
    write(repo, "a.py", CODE)
    write(repo, "notes.txt", "one\n")
    write(repo, "b.py", "def helper(a, b):\n    total = a + b\n    return total * 2\n")
    commit_all(repo, "code")
    remember(repo, store, ["a.py::top"], mid="plain")
    remember(repo, store, ["a.py::Outer", "a.py::Outer.method"], mid="both")
    remember(repo, store, ["a.py::top", "a.py::LIMIT"], mid="half")
    remember(repo, store, ["a.py::gone"], mid="removed")
    remember(repo, store, ["a.py", "notes.txt"], mid="files")
    remember(repo, store, ["a.py::Outer.method"], mid="again")
    remember(repo, store, ["b.py::helper"], mid="renamed")
    base = git(repo, "rev-parse", "HEAD").strip()
    new = CODE.replace("x * 2", "x * 3").replace("1, 2", "1, 3").replace("LIMIT = 10", "LIMIT = 11")
    write(repo, "a.py", new.replace("def gone():\n    return 5\n", ""))
    write(repo, "notes.txt", "two\n")
    (repo / "b.py").rename(repo / "c.py")
    commit_all(repo, "change")
    verify(store, ["both", "files"], today=TODAY)  # re-checked against the new code
    commit_all(repo, "verify some")
    return base


def test_same_answers_as_the_slow_path(
    repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _build(repo, store)
    write(repo, "a.py", (repo / "a.py").read_text().replace("compute(1, 3)", "compute(1, 4)"))
    quick = {head: _answers(store, base, head) for head in ("HEAD", "HEAD~1", None)}
    assert [m for m, _, _ in quick["HEAD"]] == ["again", "half", "plain", "removed", "renamed"]
    moved = [links for m, _, links in quick["HEAD"] if m == "renamed"]
    assert [(x[1], x[2]) for x in moved[0]] == [("moved", "c.py::helper")]
    assert [m for m, _, _ in quick[None]] == [
        "again",
        "both",
        "files",
        "half",
        "plain",
        "removed",
        "renamed",
    ]
    monkeypatch.setattr(check, "_reverified", lambda *args: False)
    for head, answers in quick.items():
        assert _answers(store, base, head) == answers, head  # prints kept from above
        (store.private_dir() / "prints.json").unlink()
        assert _answers(store, base, head) == answers, head  # every file parsed


def test_a_reverified_memory_never_reads_the_older_revision(
    repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _build(repo, store)
    read: list[str | None] = []
    real = check.Comparison.__init__

    def spy(self: check.Comparison, *args: object) -> None:
        real(self, *args)  # type: ignore[arg-type]
        parsed = self.old.parsed
        self.old.parsed = lambda path: read.append(path) or parsed(path)  # type: ignore[method-assign]

    monkeypatch.setattr(check.Comparison, "__init__", spy)
    asked: list[bool] = []
    real_changes = git_changes.range_changes

    def changes(*args: object, renames: bool = True) -> object:
        asked.append(renames)
        return real_changes(*args, renames=renames)  # type: ignore[arg-type]

    monkeypatch.setattr(git_changes, "range_changes", changes)
    monkeypatch.setattr(memkit.git, "range_changes", changes)
    for mid in ("plain", "half", "removed", "again", "renamed"):
        (store.dir / f"{mid}.md").unlink()
    assert _answers(store, base, "HEAD") == []
    assert read == []  # both and files were verified at HEAD: no parse of the base
    assert asked == [False]  # nor git's rename detection
    monkeypatch.setattr(check, "_reverified", lambda *args: False)
    assert _answers(store, base, "HEAD") == []
    assert read  # the slow path parses the base
    assert asked == [False, False, True]
