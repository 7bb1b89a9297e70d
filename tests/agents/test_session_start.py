"""What Claude Code gets at session start (memkit.agents.session_start)."""

from __future__ import annotations

from pathlib import Path


def test_compiled_ids_follow_imports(tmp_path: Path) -> None:
    from memkit.agents.session_start import compiled_ids

    (tmp_path / "CLAUDE.md").write_text("Intro\n\n@AGENTS.md\n<!-- memkit:id=one -->\n")
    (tmp_path / "AGENTS.md").write_text("## Two\n<!-- memkit:id=two -->\n\n@CLAUDE.md\n")
    assert compiled_ids(tmp_path) == {"one", "two"}
