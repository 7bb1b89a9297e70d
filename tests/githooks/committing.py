"""What the commit-time tests share: a project with memkit's git hook installed, memories
written an hour ago (so the parse cache trusts them), and a real `git commit`.

A module that takes `project = committing.project` builds the project once (`built`) and
each test gets a copy of it at `repo`, where `store` has it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memkit.githooks import install as hooks
from memkit.store import Store, init
from tests.conftest import copy_into, git, isolated, new_repo, write_memory

BIN = str(Path(sys.executable).parent)


def env() -> dict[str, str]:
    return {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"]}


def commit(repo: Path) -> subprocess.CompletedProcess[str]:
    """A real `git commit`; git shows the hook's output on stderr."""
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change"], cwd=repo, capture_output=True, text=True, env=env()
    )


def memory(store: Store, mid: str, title: str) -> None:
    path = write_memory(store, mid, f"---\ntitle: {title}\ntype: convention\n---\n\n{title}.\n")
    hour_ago = time.time() - 3600
    os.utime(path, (hour_ago, hour_ago))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    """The project, made once per module (two git processes): memory use-tabs, target
    AGENTS.md, committed, then the hook installed."""
    with isolated(tmp_path_factory):
        repo = new_repo(tmp_path_factory, empty_git_dir)
        init(repo)
        store = Store(repo)
        (store.dir / "config.toml").write_text('[compile]\ntargets = ["agents"]\n', "utf-8")
        memory(store, "use-tabs", "Use tabs")
        (repo / "README").write_text("hello\n", encoding="utf-8")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "start")
        hooks.install(repo)
    return repo


@pytest.fixture
def project(built: Path, repo: Path, store: Store) -> Path:
    """A copy of `built` at `repo` (times kept), the store `store` names."""
    copy_into(built, repo)
    store._config = None
    return repo
