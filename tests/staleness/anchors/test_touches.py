"""Whether a range's changes touch what an anchor link depends on."""

from __future__ import annotations

from pathlib import Path

from memkit.git import TreeChanges
from memkit.staleness import anchors
from memkit.staleness.snapshot import Snapshot


def test_env_links_are_touched_by_any_code_file_and_only_by_code(tmp_path: Path) -> None:
    snap = Snapshot(tmp_path, None)
    notes = TreeChanges(modified=frozenset(f".memory/m{i}.md" for i in range(50)))
    code = TreeChanges(added=frozenset({"README.md", "src/app/settings.py"}))
    gone = TreeChanges(deleted=frozenset({"cmd/main.go"}))
    moved = TreeChanges(renamed={"a.txt": "lib/util.rs"})
    for changes, touched in (
        (notes, False),
        (code, True),
        (notes, False),
        (gone, True),
        (moved, True),
        (TreeChanges(), False),
        (notes, False),
    ):
        for i in range(3):  # asked again and again for the same changes: the same answer
            assert anchors.touches(changes, snap, f"env:VAR_{i}") is touched, changes
    assert anchors.touches(notes, snap, "dep:requests") is False  # not any source file
    assert anchors.touches(
        TreeChanges(modified=frozenset({"requirements.txt"})), snap, "dep:requests"
    )
