"""What the commit-time tests share: a project with memkit's git hook installed, memories
written an hour ago (so the parse cache trusts them), and a real `git commit`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memkit.githooks import install as hooks
from memkit.store import Store
from tests.conftest import git, write_memory

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


@pytest.fixture
def project(repo: Path, store: Store) -> Path:
    (store.dir / "config.toml").write_text('[compile]\ntargets = ["agents"]\n', "utf-8")
    memory(store, "use-tabs", "Use tabs")
    (repo / "README").write_text("hello\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    hooks.install(repo)
    return repo
