"""A realistic store for report tests: linked code, history, drafts, and every kind of verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke, git, invoke, isolated, new_repo

TODAY = "2026-06-01"

AUTH = '''"""Authentication."""


def login(user, password):
    """Check the password."""
    return user.check(password)


class Session:
    def refresh(self):
        return self.token


def unrelated():
    return 1
'''


def build(repo: Path, run: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memories of each verdict, committed over three commits; `login` then changes."""
    monkeypatch.setenv("MEMKIT_TODAY", TODAY)
    run("init")
    (repo / "src" / "app").mkdir(parents=True)
    (repo / "src" / "app" / "auth.py").write_text(AUTH, encoding="utf-8")
    (repo / "src" / "app" / "db.py").write_text("POOL = 5\n", encoding="utf-8")
    (repo / "docs").mkdir()
    (repo / "docs" / "ops.md").write_text("# Ops\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "code")
    run(
        "add",
        "Login checks the password",
        "-t",
        "decision",
        "--tag",
        "auth",
        "--link",
        "src/app/auth.py::login",
        "-b",
        "Login **must** call `check`.",
    )
    run(
        "add",
        "Sessions refresh their token",
        "-t",
        "gotcha",
        "--tag",
        "auth",
        "--link",
        "src/app/auth.py::Session.refresh",
        "-b",
        "Refresh returns the token.",
    )
    run(
        "add",
        "Database pool size",
        "-t",
        "convention",
        "--tag",
        "db",
        "--path",
        "src/app/db*.py",
        "--link",
        "src/app/db.py",
        "-b",
        "Keep the pool at 5.",
    )
    run("verify", "--all")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "remember auth and db")
    run(
        "add",
        "Old deploy note",
        "--path",
        "docs/**",
        "--expires",
        "2026-01-01",
        "-b",
        "Deploy with make.",
    )
    run(
        "add",
        "Check the ops runbook",
        "-t",
        "procedure",
        "--review-after",
        "2026-02-01",
        "--link",
        "docs/ops.md",
        "-b",
        "Read docs/ops.md.",
    )
    run("verify", "check-the-ops-runbook")
    (repo / ".memory" / "never-verified.md").write_text(
        "---\ntitle: Never verified\nlinks: [src/app/db.py::POOL]\n---\n\nPOOL is 5.\n",
        encoding="utf-8",
    )  # written by hand: no fingerprints
    git(repo, "add", ".")
    git(
        repo,
        "commit",
        "-q",
        "-m",
        "more memories",
        GIT_AUTHOR_NAME="Grace Hopper",
        GIT_AUTHOR_EMAIL="grace@example.com",
    )
    run(
        "add",
        "Agent noticed retries",
        "--status",
        "draft",
        "--source",
        "claude session 7",
        "-b",
        "Retries happen in `login`.",
    )
    (repo / "src" / "app" / "auth.py").write_text(
        AUTH.replace("return user.check(password)", "return user.verify(password, strict=True)"),
        encoding="utf-8",
    )
    git(repo, "commit", "-q", "-am", "login changes")


def built_once(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    """`build` once, for a module- or session-scoped fixture: a template a test copies
    (with `copy_into`), not six memkit commands and four commits a test."""
    with isolated(tmp_path_factory), pytest.MonkeyPatch.context() as monkeypatch:
        repo = new_repo(tmp_path_factory, empty_git_dir)
        monkeypatch.chdir(repo)
        build(repo, invoke, monkeypatch)
    return repo
