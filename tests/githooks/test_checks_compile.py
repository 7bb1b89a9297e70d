"""Compiled files at commit time: the checks (memkit.githooks.checks) regenerate them and
stop the commit once; a crash says how to commit anyway."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke, git

from memkit.githooks import install as hooks
from memkit.store import Store
from tests.githooks import committing
from tests.githooks.committing import commit, memory

built, project = committing.built, committing.project  # the fixtures


def test_memory_commit_regenerates_and_stops_once(project: Path, store: Store) -> None:
    memory(store, "use-spaces", "Use spaces")
    git(project, "add", ".memory/use-spaces.md")
    done = commit(project)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "memkit: regenerated AGENTS.md from .memory/; review the changes, `git add` them and "
        "commit again\n"
    )
    assert git(project, "status", "--short") == "A  .memory/use-spaces.md\n?? AGENTS.md\n"
    git(project, "add", "AGENTS.md")
    done = commit(project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_hand_edit_of_a_compiled_section_is_undone(project: Path, run: Invoke) -> None:
    run("compile")
    git(project, "add", "AGENTS.md")
    assert commit(project).returncode == 0
    agents = project / "AGENTS.md"
    compiled = agents.read_text("utf-8")
    agents.write_text(compiled.replace("Use tabs.", "Use whatever."), encoding="utf-8")
    git(project, "add", "AGENTS.md")
    done = commit(project)
    assert done.returncode == 1
    assert done.stderr.startswith("memkit: regenerated AGENTS.md from .memory/")
    assert agents.read_text("utf-8") == compiled
    assert git(project, "status", "--short") == "MM AGENTS.md\n"


@pytest.mark.slow  # the pre-commit framework itself
def test_framework_compile_hook_fails_when_it_writes(project: Path, store: Store) -> None:
    from test_precommit_framework import line, local_config, sh

    hooks.uninstall(project)
    (project / ".pre-commit-config.yaml").write_text(local_config({}), encoding="utf-8")
    git(project, "add", ".pre-commit-config.yaml")
    assert sh(project, "pre-commit", "install").returncode == 0
    memory(store, "use-spaces", "Use spaces")
    git(project, "add", ".memory/use-spaces.md")
    done = commit(project)
    assert done.returncode == 1
    assert line("memkit compile", "Failed") in done.stderr
    assert "memkit: regenerated AGENTS.md from .memory/" in done.stderr
    git(project, "add", "AGENTS.md")
    done = commit(project)
    assert done.returncode == 0, done.stderr
    assert line("memkit compile", "Passed") in done.stderr


def test_a_crash_prints_a_message_and_keeps_the_index(project: Path, store: Store) -> None:
    (store.cache_dir / "store.lock").mkdir(parents=True)  # memkit cannot take its lock
    memory(store, "use-spaces", "Use spaces")
    git(project, "add", ".memory/use-spaces.md")
    done = commit(project)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr  # git reports any failure as 1
    assert done.stderr.startswith("memkit: the pre-commit hook crashed (IsADirectoryError: ")
    assert done.stderr.endswith(
        "this is a bug in memkit. Nothing was changed or staged. Commit with `git commit "
        "--no-verify` to skip the hook, and report it (MEMKIT_DEBUG=1 shows the traceback).\n"
    )
    assert "Traceback" not in done.stderr
    assert git(project, "diff", "--cached", "--name-only") == ".memory/use-spaces.md\n"


def test_a_crash_in_hooks_run_names_the_hook(project: Path, store: Store, run: Invoke) -> None:
    """`memkit hooks run` reports a crash as its hook's, through the command line's handler."""
    (store.cache_dir / "store.lock").mkdir(parents=True)
    memory(store, "use-spaces", "Use spaces")
    git(project, "add", ".memory/use-spaces.md")
    out = run("hooks", "run", "compile", code=3)
    assert out.stderr.startswith("memkit: the compile hook crashed (IsADirectoryError: ")
    assert "Traceback" not in out.stderr
