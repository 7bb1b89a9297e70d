"""Memory ids: slugify() makes a valid one from any title."""

from __future__ import annotations

import pytest

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


@pytest.mark.parametrize("name", ["con", "prn", "aux", "nul", "com1", "com9", "lpt1", "lpt9"])
def test_windows_device_names_are_no_ids(name: str) -> None:
    assert not mm.is_valid_id(name)
    why = mm.id_problem(name)
    assert why is not None and "Windows reserves" in why and f"'{name}-memory'" in why
    assert mm.is_valid_id(mm.slugify(name.upper())) and mm.slugify(name) == f"{name}-memory"
    assert mm.is_valid_id(f"{name}-notes") and mm.is_valid_id("com10") and mm.is_valid_id("con1")


@pytest.mark.parametrize(
    "name", ["CON", "con.md", "Aux.txt", "nul.tar.gz", "COM3", "lpt2.x", "con .md", "notes.", "a "]
)
def test_names_windows_refuses(name: str) -> None:
    assert mm.windows_refuses(name)


@pytest.mark.parametrize("name", ["console", "con-notes", "com10", "lpt0", "auxiliary.md", ".x"])
def test_names_windows_holds(name: str) -> None:
    assert not mm.windows_refuses(name)


def test_a_memory_file_named_as_a_device_is_refused() -> None:
    _, problems = mm.parse_all("---\ntitle: Con\n---\n\nB.\n", mid="con", path=".memory/con.md")
    assert [(p.path, p.field) for p in problems] == [(".memory/con.md", "id")]
    assert "\n" not in str(problems[0]) and "'con-memory'" in str(problems[0])
