"""The real pre-commit framework running this repository's .pre-commit-hooks.yaml."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import git, write_memory

from memkit.store import Store

HERE = Path(__file__).resolve().parents[2]  # the repository
BIN = str(Path(sys.executable).parent)  # where `memkit` and `pre-commit` are installed
LINKED = "---\ntitle: Totals are rounded once\nlinks:\n- src/app.py::total\n---\n\nRound once.\n"
APP = "def total(xs):\n    return round(sum(xs), 2)\n"
BAD = "---\ntitle: Bad\ntype: opinion\n---\n\ntext\n"

pytestmark = pytest.mark.slow  # the pre-commit framework itself, in processes


def env() -> dict[str, str]:
    return {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"], "NO_COLOR": "1"}


def sh(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=repo, capture_output=True, text=True, env=env())


def local_config(args: dict[str, list[str]]) -> str:
    """A `repo: local` config holding the published hooks, run from this environment."""
    published = yaml.safe_load((HERE / ".pre-commit-hooks.yaml").read_text("utf-8"))
    local = []
    for hook in published:
        # `language: python` would build a virtualenv from the network; the same entry,
        # files and options run from the installed memkit instead.
        local.append({**hook, "language": "unsupported", "args": args.get(hook["id"], [])})
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": local}]}, sort_keys=False)


@pytest.fixture
def framework(repo: Path, store: Store) -> Path:
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text(APP, encoding="utf-8")
    (repo / "README").write_text("hello\n", encoding="utf-8")
    mem = write_memory(store, "totals-rounded-once", LINKED)
    # About validate and stale; tests/githooks/test_checks_compile.py covers compile.
    (repo / ".memory" / "config.toml").write_text("[compile]\ntargets = []\n", "utf-8")
    hour_ago = time.time() - 3600
    os.utime(mem, (hour_ago, hour_ago))
    (repo / ".pre-commit-config.yaml").write_text(local_config({}), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    assert sh(repo, "pre-commit", "install").returncode == 0
    return repo


def commit(repo: Path) -> subprocess.CompletedProcess[str]:
    """A real `git commit`; git shows the hook's output on stderr."""
    return sh(repo, "git", "commit", "-q", "-m", "change")


def line(name: str, result: str) -> str:
    return f"{name}{'.' * (79 - len(name) - len(result))}{result}\n"


def test_invalid_memory_fails_validate(framework: Path) -> None:
    (framework / ".memory" / "bad.md").write_text(BAD, encoding="utf-8")
    git(framework, "add", ".memory/bad.md")
    done = commit(framework)
    assert done.returncode == 1
    assert line("memkit validate", "Failed") in done.stderr
    assert (
        ".memory/bad.md:3: type: unknown value 'opinion'; use one of: decision, convention, "
        "gotcha, procedure, episode, preference, note\n1 problem(s) in 1 file(s)\n"
    ) in done.stderr
    assert git(framework, "status", "--short", ".memory") == "A  .memory/bad.md\n"


def test_commit_touching_nothing_linked_passes_quietly(framework: Path) -> None:
    (framework / "README").write_text("hello again\n", encoding="utf-8")
    git(framework, "add", "README")
    done = commit(framework)
    assert done.returncode == 0, done.stderr
    assert line("memkit validate", "(no files to check)Skipped") in done.stderr
    assert line("memkit stale", "Passed") in done.stderr
    assert "memkit:" not in done.stderr


def test_stale_warns_and_strict_fails(framework: Path) -> None:
    (framework / "src" / "app.py").write_text(APP.replace("round(sum(xs), 2)", "sum(xs)"))
    git(framework, "add", "src/app.py")
    report = (
        "memkit: this commit changes code that 1 memory describes:\n"
        "  totals-rounded-once: Totals are rounded once (.memory/totals-rounded-once.md)\n"
        "    src/app.py::total: body changed\n"
    )
    config = framework / ".pre-commit-config.yaml"
    config.write_text(local_config({"memkit-stale": ["--strict"]}), encoding="utf-8")
    git(framework, "add", ".pre-commit-config.yaml")
    strict = commit(framework)
    assert strict.returncode == 1
    assert line("memkit stale", "Failed") in strict.stderr
    assert report in strict.stderr
    config.write_text(local_config({}), encoding="utf-8")
    git(framework, "add", ".pre-commit-config.yaml")
    done = commit(framework)
    assert done.returncode == 0
    assert line("memkit stale", "Passed") in done.stderr
    assert report in done.stderr


def test_try_repo_installs_and_runs_the_published_hooks(repo: Path, store: Store) -> None:
    """The framework builds its own environment from this repository (no network)."""
    if not (HERE / ".git").exists():
        pytest.skip("needs memkit's own git checkout")
    (repo / ".memory" / "bad.md").write_text(BAD, encoding="utf-8")
    git(repo, "add", "-A")
    done = sh(repo, "pre-commit", "try-repo", str(HERE), "memkit-validate")
    assert done.returncode == 1, done.stdout + done.stderr
    assert line("memkit validate", "Failed") in done.stdout
    assert ".memory/bad.md:3: type: unknown value 'opinion'" in done.stdout


def test_compile_hook_runs_on_every_commit() -> None:
    """A commit that changes only linked code marks memories in the compiled files."""
    published = yaml.safe_load((HERE / ".pre-commit-hooks.yaml").read_text("utf-8"))
    hook = next(h for h in published if h["id"] == "memkit-compile")
    assert hook.get("always_run") is True and "files" not in hook
