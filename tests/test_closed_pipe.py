"""A reader that closes memkit's output early (`memkit list | head -1`): every command,
and the agent hooks, end quietly with exit 0, never a traceback. Real processes whose
stdout pipe is closed before they write, on a store whose listings overflow a pipe."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import git

from memkit import memory as mm
from memkit.store import Store, init

MEMORIES = 500
BIG = "big-memory"


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big") / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Ada Lovelace")
    git(root, "config", "user.email", "ada@example.com")
    git(root, "config", "commit.gpgsign", "false")
    init(root)
    store = Store(root)
    day = datetime.date(2026, 11, 1)
    for i in range(MEMORIES):
        title = f"Store note {i} about careful writes through a temporary file and a rename"
        body = "Write the store through a temporary file and rename it. " * 5
        store.add(mm.new(title, body, mid=mm.slugify(title), today=day))
    store.add(mm.new("Big memory", "A long store body line.\n" * 8000, mid=BIG, today=day))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "memories")
    return root


def closed_early(root: Path, argv: list[str], stdin: bytes = b"") -> tuple[int, str]:
    """Run `argv` in `root` with its stdout pipe closed before it writes; (exit code, stderr)."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "MEMKIT_TODAY": "2026-11-22"}
    proc = subprocess.Popen(
        argv,
        cwd=root,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None and proc.stdin is not None
    proc.stdout.close()  # the reader is gone before the first byte
    err: list[bytes] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))  # type: ignore[union-attr]
    reader.start()
    proc.stdin.write(stdin)
    proc.stdin.close()
    code = proc.wait(timeout=120)
    reader.join()
    return code, err[0].decode("utf-8", "replace")


def output_size(root: Path, argv: list[str]) -> int:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    return len(subprocess.run(argv, cwd=root, env=env, capture_output=True, check=False).stdout)


MEMKIT = [sys.executable, "-m", "memkit"]
COMMANDS = [
    ["list"],
    ["list", "--json"],
    ["search", "store"],
    ["search", "store", "--limit", "300"],
    ["show", BIG],
    ["show", BIG, "--json"],
    ["log"],
    ["context", "--file", "src/x.py"],
    ["--help"],
    ["list", "--help"],
    ["--version"],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_closed_stdout_ends_a_command_quietly(big: Path, args: list[str]) -> None:
    code, err = closed_early(big, [*MEMKIT, *args])
    assert code == 0, err
    assert "Traceback" not in err and err.count("\n") <= 1, err


@pytest.mark.slow
def test_the_store_overflows_a_pipe(big: Path) -> None:
    for args in (["list"], ["list", "--json"], ["show", BIG]):
        assert output_size(big, [*MEMKIT, *args]) > 65536, args


@pytest.mark.slow
@pytest.mark.parametrize("module", ["memkit.agents.hook", "memkit.agents.claude"])
def test_a_closed_stdout_ends_a_hook_quietly(big: Path, module: str) -> None:
    event, name = "session-start", "SessionStart"
    payload = {"session_id": f"s-{module}-{event}", "cwd": str(big), "hook_event_name": name,
               "source": "startup", "transcript_path": str(big / "t.jsonl")}  # fmt: skip
    argv = [sys.executable, "-m", module, event]
    done = subprocess.run(
        argv,
        cwd=big,
        input=json.dumps(payload).encode(),
        capture_output=True,
        check=False,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1"},
    )
    assert done.stdout, "the hook printed nothing: the test would prove nothing"
    payload["session_id"] += "-closed"
    code, err = closed_early(big, argv, json.dumps(payload).encode())
    assert code == 0, err
    assert "Traceback" not in err and err.count("\n") <= 1, err
