"""Installing and removing the git hook (memkit.githooks.install): hooks dir discovery,
chaining, idempotence."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import Invoke, git

from memkit.errors import MemkitError
from memkit.githooks import install as hooks
from memkit.store import Store, init

USER_HOOK = "#!/bin/sh\necho user hook ran\n"


def user_hook(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_HOOK, encoding="utf-8")
    path.chmod(0o755)
    return path


def test_hooks_dir_default_hookspath_and_worktree(repo: Path, store: Store) -> None:
    assert hooks.hooks_dir(repo) == repo / ".git" / "hooks"
    (repo / "sub").mkdir()
    assert hooks.hooks_dir(repo / "sub") == repo / ".git" / "hooks"
    git(repo, "config", "core.hooksPath", "githooks")
    assert hooks.hooks_dir(repo / "sub") == repo / "githooks"
    git(repo, "config", "core.hooksPath", str(repo.parent / "shared-hooks"))
    assert hooks.hooks_dir(repo) == repo.parent / "shared-hooks"
    git(repo, "config", "--unset", "core.hooksPath")
    git(repo, "commit", "-q", "--allow-empty", "-m", "first")
    git(repo, "worktree", "add", "-q", str(repo.parent / "wt"))
    assert hooks.hooks_dir(repo.parent / "wt") == repo / ".git" / "hooks"


def test_outside_a_repository(tmp_path: Path) -> None:
    init(tmp_path)
    with pytest.raises(MemkitError, match="not inside a git work tree; run `git init`"):
        hooks.install(tmp_path)


def test_install_is_idempotent_and_executable(repo: Path, store: Store) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    merge = repo / ".git" / "hooks" / "pre-merge-commit"
    both = [f"installed {hook}", f"installed {merge}"]
    assert hooks.install(repo, python="/opt/py/bin/python") == both
    assert hooks.install(repo, python="/opt/py/bin/python") == []
    assert os.stat(hook).st_mode & stat.S_IXUSR and os.stat(merge).st_mode & stat.S_IXUSR
    text = hook.read_text("utf-8")
    assert text.startswith("#!/bin/sh\n# memkit-managed hook: installed by")
    assert "python=/opt/py/bin/python\n" in text
    assert "\nsys.exit(main(sys.argv[1:]))' pre-commit --root .\n" in text
    assert "' pre-merge-commit --root .\n" in merge.read_text("utf-8")
    assert hooks.install(repo, python="/other/python") == [f"updated {hook}", f"updated {merge}"]


def test_store_in_a_subdirectory_is_found_from_the_top(repo: Path) -> None:
    init(repo / "app")
    hooks.install(repo / "app", python="/p y/python")
    text = (repo / ".git" / "hooks" / "pre-commit").read_text("utf-8")
    assert "python='/p y/python'\n" in text
    assert "' pre-commit --root app\n" in text


def test_existing_hook_is_chained_and_restored(repo: Path, store: Store) -> None:
    hdir = repo / ".git" / "hooks"
    user_hook(hdir / "pre-commit")
    assert hooks.install(repo) == [
        f"kept your hook: {hdir / 'pre-commit'} -> {hdir / 'pre-commit.before-memkit'} "
        "(runs first)",
        f"installed {hdir / 'pre-commit'}",
        f"installed {hdir / 'pre-merge-commit'}",
    ]
    assert (hdir / "pre-commit.before-memkit").read_text("utf-8") == USER_HOOK
    assert hooks.install(repo) == []
    assert hooks.uninstall(repo) == [
        f"removed {hdir / 'pre-commit'}",
        f"restored your hook: {hdir / 'pre-commit.before-memkit'} -> {hdir / 'pre-commit'}",
        f"removed {hdir / 'pre-merge-commit'}",
    ]
    assert (hdir / "pre-commit").read_text("utf-8") == USER_HOOK
    assert not (hdir / "pre-commit.before-memkit").exists()
    assert hooks.uninstall(repo) == [f"left {hdir / 'pre-commit'} alone: it is not memkit's"]


@pytest.mark.parametrize("called", ["absolute", "relative", "bare name"])
def test_the_chained_hook_runs_however_the_hook_is_called(
    repo: Path, store: Store, called: str
) -> None:
    hdir = repo / ".git" / "hooks"
    user_hook(hdir / "pre-commit")
    hooks.install(repo)
    argv, cwd = {
        "absolute": (["sh", str(hdir / "pre-commit")], repo),
        "relative": (["sh", ".git/hooks/pre-commit"], repo),
        "bare name": (["sh", "pre-commit"], hdir),
    }[called]
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "user hook ran\n"), done.stderr


def test_refuses_when_both_hook_and_chained_exist(repo: Path, store: Store) -> None:
    hdir = repo / ".git" / "hooks"
    user_hook(hdir / "pre-commit")
    user_hook(hdir / "pre-commit.before-memkit")
    with pytest.raises(MemkitError, match="already exists; move one of them aside"):
        hooks.install(repo)
    assert (hdir / "pre-commit").read_text("utf-8") == USER_HOOK


def test_install_into_hookspath(repo: Path, store: Store) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    hooks.install(repo)
    assert hooks.is_memkit_hook(repo / ".githooks" / "pre-commit")
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()


def test_cli_install_uninstall(run: Invoke, repo: Path, store: Store) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    merge = repo / ".git" / "hooks" / "pre-merge-commit"
    assert run("hooks", "install").stdout == f"installed {hook}\ninstalled {merge}\n"
    assert run("hooks", "install").stdout == "memkit hooks already installed\n"
    assert run("hooks", "uninstall").stdout == f"removed {hook}\nremoved {merge}\n"
    assert run("hooks", "uninstall").stdout == "no memkit hooks installed\n"
