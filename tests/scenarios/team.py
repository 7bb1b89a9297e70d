"""A small team for the scenarios: a bare remote, clones with memkit's hooks, real processes.

Everything runs as people run it: `git` and `memkit` as subprocesses (memkit from this
interpreter), hooks installed by `memkit hooks install`, dates pinned by MEMKIT_TODAY.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

TODAY = "2026-11-22"
APP = "def total(xs):\n    return round(sum(xs), 2)\n\n\ndef tax(x):\n    return x * 0.2\n"


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "MEMKIT_TODAY": TODAY, **extra}


def sh(
    cwd: Path, *args: str, code: int | None = 0, **extra: str
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env(**extra))
    if code is not None:
        assert done.returncode == code, (
            f"{' '.join(args)} exited {done.returncode}, expected {code}\n"
            f"--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
        )
    return done


def git(cwd: Path, *args: str, code: int | None = 0) -> subprocess.CompletedProcess[str]:
    return sh(cwd, "git", *args, code=code)


def memkit(cwd: Path, *args: str, code: int | None = 0) -> subprocess.CompletedProcess[str]:
    return sh(cwd, sys.executable, "-m", "memkit", *args, code=code)


def ci(cwd: Path, code: int) -> list[str]:
    """The CI gate's lines for the current branch against origin/main, after a fetch."""
    git(cwd, "fetch", "-q", "origin")
    return memkit(cwd, "ci", "--base", "origin/main", code=code).stdout.splitlines()


def failures(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("memkit ci: FAIL ")]


def person(clone: Path, name: str) -> None:
    git(clone, "config", "user.name", name)
    git(clone, "config", "user.email", f"{name.lower()}@example.com")


def team(tmp: Path, config: str = "") -> tuple[Path, Path, Path]:
    """A bare remote with one commit (code, a linked memory, compiled files) and two clones,
    Ada's and Bob's, each with memkit's hooks installed."""
    remote = tmp / "remote.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = tmp / "seed"
    git(tmp, "clone", "-q", str(remote), str(seed))
    person(seed, "Seed")
    memkit(seed, "init")
    if config:  # settings for the [compile] section
        conf = seed / ".memory" / "config.toml"
        text = conf.read_text("utf-8").replace("\n[compile]\n", "\n[compile]\n" + config, 1)
        conf.write_text(text, "utf-8")
    (seed / "src").mkdir()
    (seed / "src" / "app.py").write_text(APP, encoding="utf-8")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "code")
    memkit(
        seed,
        "add",
        "Totals are rounded once",
        "--type",
        "decision",
        "--link",
        "src/app.py::total",
        "--body",
        "Round the sum, never each line.",
    )
    memkit(seed, "compile")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "memory: rounding")
    git(seed, "push", "-q", "origin", "main")
    clones = []
    for name in ("Ada", "Bob"):
        clone = tmp / name.lower()
        git(tmp, "clone", "-q", str(remote), str(clone))
        person(clone, name)
        memkit(clone, "hooks", "install")
        clones.append(clone)
    return remote, clones[0], clones[1]


def claude(clone: Path, event: str, payload: dict[str, Any]) -> str:
    """Run a Claude Code hook as Claude Code does: JSON on stdin, cwd in the project."""
    args = [sys.executable, "-m", "memkit", "claude-hook", event]
    done = subprocess.run(
        args, input=json.dumps(payload), cwd=clone, capture_output=True, text=True, env=env()
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def agent_session(clone: Path, sid: str, edited: str) -> str:
    """A Claude Code session that edits `edited` and runs a test: PostToolUse, then Stop."""
    base = {"session_id": sid, "transcript_path": str(clone / f"{sid}.jsonl"), "cwd": str(clone)}
    path = str(clone / edited)
    edit = {**base, "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": path, "new_string": "x"}, "tool_response": {}}  # fmt: skip
    claude(clone, "post-tool-use", edit)
    run = {**base, "hook_event_name": "PostToolUse", "tool_name": "Bash",
           "tool_input": {"command": "pytest -q"}, "tool_response": {}}  # fmt: skip
    claude(clone, "post-tool-use", run)
    return claude(clone, "stop", {**base, "hook_event_name": "Stop", "stop_hook_active": False})
