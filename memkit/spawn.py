"""Running a command and reading its output without importing subprocess.

subprocess brings threading, selectors and signal: on the paths that run on every
commit (the git hook's fast path) or ask git one short question (`memkit verify`'s
HEAD), importing it costs more than the command. Standard library only.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing costs the hook's fast path an import
if TYPE_CHECKING:
    from collections.abc import Callable


def start(argv: list[str], env: dict[str, str] | None = None) -> Callable[[], tuple[int, bytes]]:
    """Start a command (looked up on PATH); the function returned waits for it: (exit
    code, stdout), stderr discarded. Call it exactly once. OSError if it cannot start.
    `env`: variables to set on top of this process's environment.

    posix_spawn and a pipe; subprocess where there is no posix_spawn (Windows).
    """
    if not hasattr(os, "posix_spawnp"):  # pragma: no cover - Windows
        import subprocess

        done = subprocess.run(argv, capture_output=True, env={**os.environ, **(env or {})})
        return lambda: (done.returncode, done.stdout)
    r, w = os.pipe()
    try:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                actions = [
                    (os.POSIX_SPAWN_DUP2, w, 1),
                    (os.POSIX_SPAWN_DUP2, null, 2),
                    (os.POSIX_SPAWN_CLOSE, r),
                ]
                pid = os.posix_spawnp(
                    argv[0],
                    argv,
                    {**os.environ, **env} if env else os.environ,
                    file_actions=actions,
                )
            finally:
                os.close(null)
        finally:
            os.close(w)  # the child holds its own copy
    except BaseException:
        os.close(r)
        raise

    def wait() -> tuple[int, bytes]:
        chunks = []
        try:
            while chunk := os.read(r, 65536):
                chunks.append(chunk)
        finally:
            os.close(r)
            _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status), b"".join(chunks)

    return wait


def output(argv: list[str]) -> tuple[int, bytes]:
    """Run a command to its end: (exit code, stdout)."""
    return start(argv)()
