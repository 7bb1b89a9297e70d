"""`memkit compile` through the CLI: output, --check, --dry-run, --target, --commit."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke, git, write_memory

from memkit.store import Store

NOTE = "---\ntitle: Read CONTRIBUTING first\npin: true\n---\n\nIt lists the release steps.\n"
SCOPED = "---\ntitle: Tabs are banned\ntype: convention\npaths:\n- src/**/*.py\n---\n\nSpaces.\n"


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def test_compile_then_up_to_date(run: Invoke, store: Store) -> None:
    write_memory(store, "read-contributing", NOTE)
    write_memory(store, "tabs", SCOPED)
    assert run("compile").stdout == (
        "created .claude/rules/memkit-src-py.md\n"
        "created .github/instructions/memkit-src-py.instructions.md\n"
        "created .github/instructions/memkit.instructions.md\n"
        "created AGENTS.md\n"
        "created CLAUDE.md\n"
        "note: devin reads 1 memory(ies) twice (read-contributing) in AGENTS.md and CLAUDE.md: "
        "Devin reads AGENTS.md and CLAUDE.md alike, and Claude Code needs CLAUDE.md\n"
        "note: copilot reads 2 memory(ies) twice (read-contributing, tabs) in "
        ".claude/rules/memkit-src-py.md and AGENTS.md and CLAUDE.md: Copilot CLI reads "
        "CLAUDE.md, .claude/rules and GEMINI.md besides AGENTS.md, and Claude Code and "
        "Gemini CLI need theirs\n"
        "note: copilot-vscode reads 2 memory(ies) twice (read-contributing, tabs) in "
        ".github/instructions/memkit-src-py.instructions.md and "
        ".github/instructions/memkit.instructions.md and AGENTS.md: VS Code's Copilot Chat "
        "reads AGENTS.md and every instructions file\n"
    )
    assert run("compile").stdout == "up to date (5 file(s))\n"
    assert run("compile", "--check").stdout == "up to date (5 file(s))\n"


def test_check_exit_codes_and_diff(run: Invoke, store: Store, repo: Path) -> None:
    write_memory(store, "read-contributing", NOTE)
    out = run("compile", "--check", "--target", "agents", code=1).stdout
    assert out.startswith(
        "would create AGENTS.md\n--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -0,0 +1,10 @@\n"
    )
    assert not (repo / "AGENTS.md").exists()
    run("compile", "-t", "agents")
    text = (repo / "AGENTS.md").read_text()
    (repo / "AGENTS.md").write_text(text.replace("release steps", "steps"))
    assert run("compile", "--check", "-t", "agents", code=1).stdout == (
        "would update AGENTS.md\n--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -5,6 +5,6 @@\n"
        " \n ### Read CONTRIBUTING first\n \n"
        "-It lists the steps.\n"
        "+It lists the release steps.\n <!-- memkit:id=read-contributing -->\n"
        " <!-- memkit:end -->\n"
    )
    run("compile", "-t", "agents")
    store.delete("read-contributing")
    out = run("compile", "--check", "-t", "agents", code=1).stdout
    assert out.startswith("would delete AGENTS.md\n--- a/AGENTS.md\n+++ b/AGENTS.md\n")
    assert (repo / "AGENTS.md").exists()


def test_dry_run_shows_files(run: Invoke, store: Store, repo: Path) -> None:
    write_memory(store, "read-contributing", NOTE)
    out = run("compile", "--dry-run", "-t", "claude").stdout
    assert out == (
        "would create CLAUDE.md\n"
        "<!-- Created by memkit. The text between the memkit:begin and memkit:end markers is "
        "compiled from .memory/ by `memkit compile`; write your own text outside them. -->\n\n"
        "<!-- memkit:begin -->\n## Notes\n\n### Read CONTRIBUTING first\n"
        "\nIt lists the release steps.\n<!-- memkit:id=read-contributing -->\n"
        "<!-- memkit:end -->\n"
    )
    assert not (repo / "CLAUDE.md").exists()


def test_budget_notes_on_stderr(run: Invoke, store: Store) -> None:
    for i in range(3):
        write_memory(store, f"m{i}", f"---\ntitle: Memory {i}\n---\n\n" + "Text.\n" * 10)
    (store.dir / "config.toml").write_text('[compile]\nbudgets = { agents = "30 lines" }\n')
    result = run("compile", "-t", "agents")
    assert result.stderr == (
        "memkit: warning: AGENTS.md: over its budget of 30 lines: lowest-ranked memories "
        "2 shortened to one line (m1, m2)\n"
    )


def test_invalid_memory_noted(run: Invoke, store: Store) -> None:
    write_memory(store, "broken", "no front matter\n")
    result = run("compile", "-t", "agents")
    assert result.stderr == (
        "memkit: warning: left out 1 invalid memory file(s); run `memkit validate`\n"
    )
    assert result.stdout == "up to date (0 file(s))\n"


def test_broken_marker_is_a_user_error(run: Invoke, store: Store, repo: Path) -> None:
    write_memory(store, "read-contributing", NOTE)
    (repo / "AGENTS.md").write_text("<!-- memkit:begin -->\n")
    result = run("compile", code=2)
    assert result.stderr.startswith(
        "memkit: AGENTS.md has a `<!-- memkit:begin -->` line but no `<!-- memkit:end -->`"
    )


def test_commit_only_written_files(run: Invoke, store: Store, repo: Path) -> None:
    write_memory(store, "read-contributing", NOTE)
    (repo / "other.txt").write_text("staged\n")
    git(repo, "add", "other.txt")
    out = run("compile", "-t", "agents", "-t", "claude", "--commit").stdout
    assert out.splitlines()[-1].endswith(" memkit: compile")
    # exactly what this run wrote: the targets it was asked for, nothing recompiled besides
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == [
        "AGENTS.md",
        "CLAUDE.md",
    ]
    assert git(repo, "diff", "--cached", "--name-only").split() == ["other.txt"]


def test_broken_template_override_is_a_user_error(run: Invoke, store: Store) -> None:
    write_memory(store, "read-contributing", NOTE)
    (store.dir / "templates").mkdir()
    (store.dir / "templates" / "memory.md.j2").write_text("{{ title }\n")
    result = run("compile", "-t", "agents", code=2)
    assert result.stderr.startswith("memkit: template memory.md.j2:1 (in .memory/templates/")
    (store.dir / "templates" / "memory.md.j2").write_text("{{ nope }}\n")
    result = run("compile", "-t", "agents", code=2)
    assert "'nope' is undefined" in result.stderr


def test_changed_code_is_annotated(run: Invoke, store: Store, repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("def total(xs):\n    return sum(xs)\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "app")
    run(
        "add",
        "Totals are sums",
        "-t",
        "decision",
        "--link",
        "src/app.py::total",
        "-b",
        "total() adds the items up.",
    )
    run("verify", "totals-are-sums")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    since = git(repo, "rev-parse", "HEAD~1").strip()[:12]
    run("compile", "-t", "agents")
    assert "Possibly out of date" not in (repo / "AGENTS.md").read_text()
    (repo / "src" / "app.py").write_text("def total(xs):\n    return max(xs)\n")
    result = run("compile", "--check", "-t", "agents", code=1)
    assert result.stderr == (
        "memkit: warning: 1 memory(ies) marked possibly out of date (code changed)\n"
        "memkit: compiled files are out of date; run `memkit compile` and commit them "
        "(it also settles a merge conflict in them)\n"
    )
    run("compile", "-t", "agents")
    assert (
        "\n> **Possibly out of date:** the code this memory describes has changed: "
        f"src/app.py::total (body since {since}). Verify it against the code before relying "
        "on it.\n\ntotal() adds the items up.\n"
    ) in (repo / "AGENTS.md").read_text()
