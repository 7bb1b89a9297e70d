"""The personal store in a temporary HOME: `memkit --user` adds, lists and compiles into
the agents' user-level files, keeping hand-written text and never touching a project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memkit.cli import cli
from memkit.sharing import personal


def _memkit(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, f"{args}: {result.exit_code}\n{result.output}"
    return result


@pytest.fixture
def home() -> Path:
    return Path(os.environ["HOME"])


def test_created_on_first_use_under_the_config_folder(home: Path) -> None:
    _memkit("--user", "add", "Answer in British English", "-t", "preference", "-b", "Colour.")
    where = personal.root()
    assert where == (home / ".config" / "memkit" / "personal").resolve()
    assert (where / ".git").is_dir()
    assert (where / ".memory" / "answer-in-british-english.md").is_file()
    assert "answer-in-british-english" in _memkit("--user", "list").output


def test_compiled_into_user_level_files_keeping_hand_text(home: Path) -> None:
    (home / ".claude").mkdir()
    (home / ".codex").mkdir()
    mine = "# My own notes\n\nKeep this.\n"
    (home / ".claude" / "CLAUDE.md").write_text(mine, "utf-8")
    _memkit(
        "--user", "add", "I prefer TDD for backend work", "-t", "preference", "-b", "Tests first."
    )
    out = _memkit("--user", "compile").output
    assert ".claude/CLAUDE.md" in out and ".codex/AGENTS.md" in out
    assert not (home / ".gemini").exists()  # Gemini is not installed for this user
    claude = (home / ".claude" / "CLAUDE.md").read_text("utf-8")
    assert claude.startswith(mine) and "I prefer TDD for backend work" in claude
    assert "I prefer TDD" in (home / ".codex" / "AGENTS.md").read_text("utf-8")
    assert "up to date" in _memkit("--user", "compile").output
    _memkit("--user", "compile", "--check")
    _memkit("--user", "add", "Short answers", "-t", "preference", "-b", "Be brief.")
    assert "would update" in _memkit("--user", "compile", "--check", code=1).output


def test_never_in_a_project(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memkit.store import init
    from tests.conftest import git

    (home / ".claude").mkdir()
    _memkit("--user", "add", "I prefer TDD", "-t", "preference", "-b", "Tests first.")
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    init(project)
    monkeypatch.chdir(project)
    _memkit("add", "Project rule", "-b", "Only this.")
    _memkit("compile")
    for name in ("AGENTS.md", "CLAUDE.md"):
        assert "I prefer TDD" not in (project / name).read_text("utf-8")


def test_user_and_root_together_is_a_usage_error(tmp_path: Path) -> None:
    out = _memkit("--user", "--root", str(tmp_path), "list", code=2).output
    assert "--user and --root" in out
