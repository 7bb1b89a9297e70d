"""memkit.spawn: running a command without subprocess (exit code, stdout, nothing leaked)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memkit import spawn


def open_fds() -> int | None:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None


def test_output_is_exit_code_and_stdout_and_stderr_is_dropped() -> None:
    fds = open_fds()
    code, out = spawn.output(
        [sys.executable, "-c", "import sys; print('out'); print('err', file=sys.stderr)"]
    )
    assert (code, out) == (0, b"out\n")
    code, out = spawn.output([sys.executable, "-c", "import sys; sys.exit(3)"])
    assert (code, out) == (3, b"")
    assert open_fds() == fds


def test_variables_are_set_on_top_of_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_SPAWN_KEPT", "kept")
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    show = "import os; print(os.environ.get('MEMKIT_SPAWN_KEPT'), os.environ.get('LC_ALL'))"
    assert spawn.start([sys.executable, "-c", show], env={"LC_ALL": "C"})() == (0, b"kept C\n")
    assert os.environ["LC_ALL"] == "en_US.UTF-8"  # this process's own is left as it was
    assert spawn.output([sys.executable, "-c", show]) == (0, b"kept en_US.UTF-8\n")


def test_a_large_output_is_read_whole() -> None:
    code, out = spawn.output([sys.executable, "-c", "print('x' * 300_000)"])
    assert code == 0 and out == b"x" * 300_000 + b"\n"


def test_a_command_that_cannot_start_raises_and_leaks_nothing() -> None:
    fds = open_fds()
    with pytest.raises(OSError):
        spawn.start(["memkit-no-such-command-here"])
    assert open_fds() == fds


def test_a_started_command_has_run_once_waited_for(tmp_path: Path) -> None:
    flag = tmp_path / "flag"
    wait = spawn.start([sys.executable, "-c", f"open({str(flag)!r}, 'w').write('1')"])
    code, _ = wait()
    assert code == 0 and flag.read_text() == "1"


def test_git_head_does_not_import_subprocess(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@a"}  # fmt: skip
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "x"], cwd=tmp_path, env=env,
                   check=True)  # fmt: skip
    code = (
        "import sys\nfrom pathlib import Path\nfrom memkit.git.plain import head\n"
        f"found = head(Path({str(tmp_path)!r}))\n"
        "print(len(found[0]), repr(found[1]), 'subprocess' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "40 '' False\n"
