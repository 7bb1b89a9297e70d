"""Memory ids: slugify() makes a valid one from any title."""

from __future__ import annotations

from memkit import memory as mm


def test_slugify() -> None:
    assert mm.slugify("Use pygit2 -- for Git!") == "use-pygit2-for-git"
    assert mm.slugify("Ümlaut café") == "umlaut-cafe"
    assert mm.slugify("!!!").startswith("memory-") and len(mm.slugify("!!!")) == 15
    # No Latin letters or digits: a stable id from the title's hash, one per title.
    assert mm.slugify("日本語のメモ") == "memory-ed038b57" == mm.slugify("日本語のメモ")
    assert mm.slugify("別のメモ") != mm.slugify("日本語のメモ")
    assert mm.is_valid_id(mm.slugify("日本語のメモ"))
    assert len(mm.slugify("word " * 40)) <= 60
