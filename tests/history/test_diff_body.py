"""The text of an added memory's body diff: the quick path must write difflib's text."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from memkit.history import diff as d
from memkit.store import Store
from tests.conftest import git, write_memory


def _difflib(old: str, new: str) -> str:
    if old == new:
        return ""
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=2)
    return "\n".join(line for line in lines if not line.startswith(("---", "+++")))


TEXTS = [
    "x",
    "x\n",
    "\n",
    "\n\n",
    "a\nb",
    "a\r\nb\rc",
    "--- a\n+++ b\n++ c\n-- d\n",
    "one\n\ntwo\n\n",
    "\x0bv\x0cw\u2028z\x1cq",
    "",
    *(p.read_text(encoding="utf-8") for p in sorted(Path(".memory").glob("*.md"))[:20]),
]


@pytest.mark.parametrize("text", TEXTS)
def test_an_added_body_diff_is_what_difflib_writes(text: str) -> None:
    assert d._body_diff("", text) == _difflib("", text)
    assert d._body_diff(text, text + "more\n") == _difflib(text, text + "more\n")


def test_diff_loads_the_store_once(
    store: Store, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_memory(store, "one", "---\ntitle: One\nlinks: [a.py]\n---\n\nBody.\n")
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one")
    loads: list[int] = []
    real = Store.memories

    def counted(self: Store) -> list:  # type: ignore[type-arg]
        loads.append(1)
        return real(self)

    monkeypatch.setattr(Store, "memories", counted)
    review = d.diff_range(store, "HEAD", None)
    assert review.changes == () and loads == [1]
