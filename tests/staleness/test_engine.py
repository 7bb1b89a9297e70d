"""Where the engine looks for moved code, and the body index that finds it there."""

from __future__ import annotations

from pathlib import Path

from memkit.git import TreeChanges
from memkit.staleness import python
from memkit.staleness.engine import Evaluator
from memkit.staleness.snapshot import Snapshot

CODE = b"""
def a(x):
    return x + 1

def b(x, z=0):
    return x + 1

class C:
    def m(self):
        return 2

def d():
    return 3
"""


def test_search_paths_list_changed_code_once_each(tmp_path: Path) -> None:
    changes = TreeChanges(
        modified=frozenset({"src/x.py", "README.md", ".memory/m.md", "src/old.py"}),
        added=frozenset({"src/y.go", "docs/guide.md"}),
        renamed={"src/was.py": "src/now.py"},
    )
    engine = Evaluator(Snapshot(tmp_path, None), changes)
    paths = engine._search_paths("src/old.py", "src/first.py")
    assert paths == ["src/first.py", "src/old.py", "src/now.py", "src/x.py", "src/y.go"]
    assert engine._search_paths("src/x.py", None) == [
        "src/x.py",
        "src/now.py",
        "src/old.py",
        "src/y.go",
    ]
    engine.changes = TreeChanges(added=frozenset({"lib/z.rs", "notes.txt"}))  # as check_range
    assert engine._search_paths("src/x.py", None) == ["src/x.py", "lib/z.rs"]


def test_find_body_names_every_symbol_with_that_body() -> None:
    parsed = python.parse(CODE)
    same = parsed.symbols["a"].body
    assert parsed.find_body(same) == ["a", "b"]
    assert parsed.find_body(same) == ["a", "b"]  # asked again: the same answer
    assert parsed.find_body(parsed.symbols["C.m"].body) == ["C.m"]
    assert parsed.find_body("no such digest") == []
    found = parsed.find_body(same)
    found.append("mutated")  # a caller's list is its own
    assert parsed.find_body(same) == ["a", "b"]
    for name, p in parsed.symbols.items():  # the index agrees with reading every print
        assert parsed.find_body(p.body) == sorted(
            n for n, q in parsed.symbols.items() if q.body == p.body
        ), name
