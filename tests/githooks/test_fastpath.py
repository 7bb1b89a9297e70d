"""The installed hook (memkit.githooks.fastpath) in real `git commit` runs: what it prints,
what it blocks, and which modules a commit with nothing to do loads."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import git, write_memory

from memkit.githooks import fastpath
from memkit.githooks import install as hooks
from memkit.store import Store

LINKED = """\
---
title: Totals are rounded once
type: gotcha
links:
- src/app.py::total
---

Round only the final sum.
"""

APP = "def total(xs):\n    return round(sum(xs), 2)\n\n\ndef other():\n    return 1\n"


def commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A real `git commit`, running whatever hooks are installed."""
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change", *args],
        cwd=repo,
        capture_output=True,
        text=True,
    )


@pytest.fixture
def project(repo: Path, store: Store) -> Path:
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text(APP, encoding="utf-8")
    (repo / "README").write_text("hello\n", encoding="utf-8")
    mem = write_memory(store, "totals-rounded-once", LINKED)
    # About validate and stale; tests/githooks/test_checks_compile.py covers compile.
    (repo / ".memory" / "config.toml").write_text("[compile]\ntargets = []\n", "utf-8")
    hour_ago = time.time() - 3600  # older than the 2 s window in which caches distrust mtimes
    os.utime(mem, (hour_ago, hour_ago))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    hooks.install(repo)
    return repo


def test_commit_touching_nothing_linked_prints_nothing(project: Path) -> None:
    (project / "README").write_text("hello again\n", encoding="utf-8")
    git(project, "add", "README")
    done = commit(project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    # The second commit reads the derived index instead of loading the store.
    assert (project / ".git" / "memkit" / "hooks-index").is_file()
    (project / "README").write_text("and again\n", encoding="utf-8")
    assert (commit(project, "-a").stdout, git(project, "status", "--short")) == ("", "")


def test_invalid_memory_blocks_the_commit(project: Path) -> None:
    bad = project / ".memory" / "bad.md"
    bad.write_text("---\ntitle: Bad\ntype: opinion\n---\n\ntext\n", encoding="utf-8")
    git(project, "add", ".memory/bad.md")
    done = commit(project)  # git shows a hook's stdout on its stderr
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        ".memory/bad.md:3: type: unknown value 'opinion'; use one of: decision, convention, "
        "gotcha, procedure, episode, preference, note\n"
        "memkit: 1 problem(s) in 1 file(s)\n"
    )
    assert git(project, "status", "--short") == "A  .memory/bad.md\n"


def test_valid_memory_commits(project: Path) -> None:
    good = project / ".memory" / "good.md"
    good.write_text("---\ntitle: Good\n---\n\ntext\n", encoding="utf-8")
    git(project, "add", ".memory/good.md")
    done = commit(project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_hand_written_hook_still_runs(project: Path) -> None:
    hooks.uninstall(project)
    mine = project / ".git" / "hooks" / "pre-commit"
    mine.write_text("#!/bin/sh\necho my checks ran >&2\n", encoding="utf-8")
    mine.chmod(0o755)
    hooks.install(project)
    (project / "README").write_text("changed\n", encoding="utf-8")
    done = commit(project, "-a")
    assert (done.returncode, done.stderr) == (0, "my checks ran\n")
    mine_fails = project / ".git" / "hooks" / "pre-commit.before-memkit"
    mine_fails.write_text("#!/bin/sh\necho no >&2\nexit 7\n", encoding="utf-8")
    (project / "README").write_text("changed again\n", encoding="utf-8")
    done = commit(project, "-a")
    assert (done.returncode, done.stderr) == (1, "no\n")


def test_commit_editing_a_linked_function_lists_the_memory(project: Path) -> None:
    app = project / "src" / "app.py"
    app.write_text(APP.replace("round(sum(xs), 2)", "sum(xs)"), encoding="utf-8")
    git(project, "add", "src/app.py")
    done = commit(project)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == (
        "memkit: this commit changes code that 1 memory describes:\n"
        "  totals-rounded-once: Totals are rounded once (.memory/totals-rounded-once.md)\n"
        "    src/app.py::total: body changed\n"
        "    -> still true? `memkit verify totals-rounded-once`; "
        "if not, `memkit edit totals-rounded-once`\n"
    )


def test_fast_path_loads_no_heavy_library(project: Path) -> None:
    (project / "README").write_text("x\n", encoding="utf-8")
    (project / "src" / "app.py").write_text(APP + "\n", encoding="utf-8")
    git(project, "add", "README")
    fastpath.staged_work(str(project))  # builds the index
    code = (
        "import sys, memkit.githooks.fastpath as h\n"
        f"print(h.staged_work({str(project)!r}) is not None)\n"
        "heavy = {'pygit2', 'whoosh', 'jinja2', 'markdown_it', 'frontmatter', 'yaml', 'click'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n[]\n"
    git(project, "add", "src/app.py")
    assert fastpath.staged_work(str(project)) is not None


def test_a_failure_prints_a_message_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / ".memory").mkdir()
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path.parent)}
    done = subprocess.run(
        [sys.executable, "-P", "-c", hooks._CODE, "pre-commit", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 3
    assert done.stderr.startswith("memkit: the pre-commit hook could not run: `git diff --cached`")
    assert "Traceback" not in done.stderr
    assert done.stderr.endswith(
        "memkit: nothing was changed; fix the cause, or commit with `git commit --no-verify`\n"
    )


def test_memory_folder_is_listed_while_git_diff_runs_and_git_is_always_waited_for(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "README").write_text("x\n", encoding="utf-8")
    git(project, "add", "README")
    assert fastpath.staged_work(str(project)) is None  # README matters to no memory
    git(project, "add", "src/app.py")
    (project / "src" / "app.py").write_text(APP + "\n", encoding="utf-8")
    git(project, "add", "src/app.py")
    work = fastpath.staged_work(str(project))
    assert work is not None and work[0] == ["README", "src/app.py"]
    assert list(work[1]) == [".memory/totals-rounded-once.md"]

    def broken(root: str) -> None:
        raise OSError("listing failed")

    waited = []
    start = fastpath._start_diff

    def started(root: str) -> Callable[[], tuple[int, bytes]]:
        wait = start(root)
        return lambda: waited.append(wait()) or waited[-1]

    monkeypatch.setattr(fastpath, "memory_walk", broken)
    monkeypatch.setattr(fastpath, "_start_diff", started)
    fds = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    with pytest.raises(OSError, match="listing failed"):
        fastpath.staged_work(str(project))
    assert [code for code, _ in waited] == [0]  # git diff was waited for, its pipe read
    if fds is not None:
        assert len(os.listdir("/proc/self/fd")) == fds


def test_hook_runs_in_a_linked_worktree_and_with_hookspath(project: Path) -> None:
    other = project.parent / "other"
    git(project, "worktree", "add", "-q", "-b", "other", str(other))
    (other / ".memory" / "bad.md").write_text("---\ntype: note\n---\n", encoding="utf-8")
    git(other, "add", ".memory/bad.md")
    done = commit(other)
    assert (done.returncode, done.stderr) == (
        1,
        ".memory/bad.md:1: title: missing or empty title; add `title: <one line summary>`\n"
        "memkit: 1 problem(s) in 1 file(s)\n",
    )
    hooks.uninstall(project)
    git(project, "config", "core.hooksPath", ".githooks")
    hooks.install(other)
    assert hooks.is_memkit_hook(other / ".githooks" / "pre-commit")
    assert commit(other).returncode == 1


def test_strict_config_stops_the_commit_and_says_how_links_changed(project: Path) -> None:
    (project / ".memory" / "config.toml").write_text(
        "[compile]\ntargets = []\n[hooks]\nstrict = true\n", "utf-8"
    )
    write_memory(Store(project), "app-file", "---\ntitle: The app file\nlinks: [src/app.py]\n---\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "--no-verify", "-m", "strict")
    (project / "src" / "app.py").write_text(APP.replace("def total(xs)", "def total(ys)"))
    git(project, "add", "src/app.py")
    done = commit(project)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "memkit: this commit changes code that 2 memories describe:\n"
        "  app-file: The app file (.memory/app-file.md)\n"
        "    src/app.py: file changed\n"
        "    -> still true? `memkit verify app-file`; if not, `memkit edit app-file`\n"
        "  totals-rounded-once: Totals are rounded once (.memory/totals-rounded-once.md)\n"
        "    src/app.py::total: signature changed\n"
        "    -> still true? `memkit verify totals-rounded-once`; "
        "if not, `memkit edit totals-rounded-once`\n"
        "memkit: commit stopped (--strict): verify or edit these memories\n"
    )
    git(project, "rm", "-qf", "src/app.py")
    done = commit(project)
    assert "    src/app.py::total: removed\n" in done.stderr
    assert "    src/app.py: removed\n" in done.stderr


@pytest.mark.parametrize("how", [["-a"], ["src/app.py"]], ids=["commit -a", "commit FILE"])
def test_commit_from_a_temporary_index_lists_the_memory(project: Path, how: list[str]) -> None:
    (project / "src" / "app.py").write_text(APP.replace("round(sum(xs), 2)", "sum(xs)"))
    (project / "README").write_text("not committed\n", encoding="utf-8")
    done = commit(project, *how) if how == ["-a"] else commit(project, "--", *how)
    assert done.returncode == 0
    assert "    src/app.py::total: body changed\n" in done.stderr


def test_hook_falls_back_to_memkit_on_path_then_skips(project: Path) -> None:
    hooks.install(project, python="/gone/bin/python")
    bad = project / ".memory" / "bad.md"
    bad.write_text("---\ntype: note\n---\n", encoding="utf-8")
    git(project, "add", ".memory/bad.md")
    bin_dir = str(Path(sys.executable).parent)
    on_path = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"]}
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "x"], cwd=project, capture_output=True, text=True, env=on_path
    )
    assert (done.returncode, done.stderr.splitlines()[-1]) == (
        1,
        "memkit: 1 problem(s) in 1 file(s)",
    )
    git_dir = str(
        Path(
            subprocess.run(
                ["which", "git"], capture_output=True, text=True, check=True
            ).stdout.strip()
        ).parent
    )
    no_memkit = {**os.environ, "PATH": os.pathsep.join([git_dir, "/usr/bin", "/bin"])}
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "x"],
        cwd=project,
        capture_output=True,
        text=True,
        env=no_memkit,
    )
    assert (done.returncode, done.stderr) == (
        0,
        "memkit: pre-commit hook skipped: memkit is not installed (/gone/bin/python is gone); "
        "reinstall it and run `memkit hooks install`, or `memkit hooks uninstall`\n",
    )
