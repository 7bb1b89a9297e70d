"""TreeChanges: changes composed one after the other."""

from __future__ import annotations

from memkit.git import TreeChanges


def test_tree_changes_compose() -> None:
    first = TreeChanges(
        modified=frozenset({"m.py", "gone.py"}),
        added=frozenset({"new.py"}),
        deleted=frozenset({"d.py"}),
        renamed={"r.py": "s.py", "x.py": "y.py"},
    )
    later = TreeChanges(
        modified=frozenset({"other.py"}),
        added=frozenset({"d.py"}),
        deleted=frozenset({"gone.py", "y.py"}),
        renamed={"s.py": "t.py", "new.py": "newer.py"},
    )
    assert first.then(later) == TreeChanges(
        modified=frozenset({"m.py", "other.py", "d.py"}),
        added=frozenset({"newer.py"}),
        deleted=frozenset({"gone.py", "x.py"}),
        renamed={"r.py": "t.py"},
    )
