"""Memory ids: slugify() makes a valid one from any title."""

from __future__ import annotations

from memkit import memory as mm


def test_slugify() -> None:
    assert mm.slugify("Use pygit2 -- for Git!") == "use-pygit2-for-git"
    assert mm.slugify("Ümlaut café") == "umlaut-cafe"
    assert mm.slugify("!!!") == "memory"
    assert len(mm.slugify("word " * 40)) <= 60
