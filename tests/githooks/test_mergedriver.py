"""The merge driver (memkit.githooks.mergedriver): conflicts in compiled files are settled
by regenerating them; conflicts in hand-written text are left to the person."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import Invoke, git

from memkit.githooks import mergedriver
from memkit.store import Store
from tests.githooks import committing
from tests.githooks.committing import commit, env, memory

built, project = committing.built, committing.project  # the fixtures


def test_merge_driver_settles_compiled_sections(project: Path, store: Store, run: Invoke) -> None:
    (project / "AGENTS.md").write_text("# Agents\n\nHand-written intro.\n", encoding="utf-8")
    run("compile")
    git(project, "add", "-A")
    assert commit(project).returncode == 0
    assert run("hooks", "install", "--merge-driver").stdout == (
        "set git config merge.memkit.name\n"
        "set git config merge.memkit.driver\n"
        "updated .gitattributes\n"
    )
    assert run("hooks", "install", "--merge-driver").stdout == "memkit hooks already installed\n"
    assert "AGENTS.md merge=memkit\n" in (project / ".gitattributes").read_text("utf-8")
    git(project, "add", ".gitattributes")
    git(project, "commit", "-q", "--no-verify", "-m", "driver")
    for branch, title in (("theirs", "Their rule"), ("main", "Our rule")):
        git(project, "checkout", "-q", "-B", branch)
        memory(store, title.lower().replace(" ", "-"), title)
        run("compile")
        git(project, "add", "-A")
        git(project, "commit", "-q", "--no-verify", "-m", title)
        git(project, "checkout", "-q", "main")
    merged = subprocess.run(
        ["git", "merge", "--no-edit", "--no-verify", "theirs"],
        cwd=project,
        capture_output=True,
        text=True,
        env=env(),
    )
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "memkit: merged AGENTS.md; run `memkit compile`" in merged.stderr
    text = (project / "AGENTS.md").read_text("utf-8")
    assert "<<<<<<<" not in text and text.startswith("# Agents\n\nHand-written intro.\n")
    assert run("compile").stdout == "updated AGENTS.md\n"
    assert "Their rule" in (project / "AGENTS.md").read_text("utf-8")
    assert run("hooks", "uninstall").stdout == (
        f"removed {project / '.git' / 'hooks' / 'pre-commit'}\n"
        f"removed {project / '.git' / 'hooks' / 'pre-merge-commit'}\n"
        "removed git config merge.memkit\n"
        "updated .gitattributes\n"
    )


def test_merge_driver_leaves_conflicts_in_hand_written_text(tmp_path: Path) -> None:
    from memkit.compile import markers as sections

    section = sections.wrap("- Use tabs.\n")
    base, ours, theirs = (tmp_path / n for n in ("base", "ours", "theirs"))
    base.write_text(f"Intro.\n\n{section}", encoding="utf-8")
    ours.write_text(f"Our intro.\n\n{section}", encoding="utf-8")
    other = sections.wrap("- Use spaces.\n")
    theirs.write_text(f"Their intro.\n\n{other}", encoding="utf-8")
    clean, message = mergedriver.merge_file(base, ours, theirs, "AGENTS.md")
    assert (clean, message) == (
        False,
        "memkit: AGENTS.md: 1 conflict(s) in text outside memkit's markers",
    )
    text = ours.read_text("utf-8")
    assert "<<<<<<< ours\nOur intro.\n=======\nTheir intro.\n>>>>>>> theirs\n" in text
    assert text.endswith(section)


def test_patterns_cover_every_target() -> None:
    assert mergedriver.generated_patterns() == [
        ".rules",
        "/.amazonq/rules/memkit*.md",
        "/.claude/rules/memkit*.md",
        "/.clinerules/memkit*.md",
        "/.continue/rules/memkit*.md",
        "/.cursor/rules/memkit*.mdc",
        "/.github/copilot-instructions.md",
        "/.github/instructions/memkit*.instructions.md",
        "/.junie/guidelines.md",
        "/.kiro/steering/memkit*.md",
        "/.roo/rules/memkit*.md",
        "/.windsurf/rules/memkit*.md",
        "AGENTS.md",
        "CLAUDE.md",
        "CONVENTIONS.md",
        "GEMINI.md",
    ]


def test_attributes_block_keeps_other_lines(tmp_path: Path) -> None:
    path = tmp_path / ".gitattributes"
    path.write_text("*.png binary\n", encoding="utf-8")
    assert mergedriver._write_attributes(path, ["CLAUDE.md merge=memkit"])
    begin, end = mergedriver.ATTR_BEGIN, mergedriver.ATTR_END
    assert path.read_text("utf-8") == f"*.png binary\n\n{begin}\nCLAUDE.md merge=memkit\n{end}\n"
    assert not mergedriver._write_attributes(path, ["CLAUDE.md merge=memkit"])
    assert mergedriver._write_attributes(path, [])
    assert path.read_text("utf-8") == "*.png binary\n"
    assert not mergedriver._write_attributes(tmp_path / "none", [])
    assert not (tmp_path / "none").exists()
