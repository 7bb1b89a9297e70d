"""Fetching another repository into a bare mirror memkit keeps.

Fetching goes through the `git` command, so the user's credentials, SSH set-up and
proxy settings apply as they do for `git fetch`. Nothing fetched is checked out:
memkit reads blobs straight from the mirror's objects (memkit.git.bounded.read_files),
so no hook, filter or file of the fetched repository ever runs or lands in a work tree.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

from memkit.errors import GitError

# Never prompt (a hook or CI would hang), never run the fetched repository's hooks,
# only the transports a store needs (no `ext::` or `fd::` remote helper, no plain http),
# and give up on a connection that has stalled.
_ENV = {
    "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "",
    "GIT_ALLOW_PROTOCOL": "https:ssh:file", "GIT_PROTOCOL_FROM_USER": "0",
}  # fmt: skip
_SAFE = (
    "-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never",
    "-c", "http.lowSpeedLimit=1000", "-c", "http.lowSpeedTime=60",
)  # fmt: skip
TIMEOUT = 300  # seconds for any one git command, the network included


def run(
    args: list[str], cwd: str | Path | None, env: dict[str, str], stdin: str | None = None
) -> tuple[int, str, str]:
    """`git ARGS` in `cwd` with `env`, given `stdin`, within TIMEOUT: (exit code, stdout,
    stderr). On timeout its whole process group (ssh and remote helpers included, which
    would otherwise hold the pipes open) is killed and TimeoutExpired raised."""
    proc = subprocess.Popen(
        ["git", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        proc.communicate()
        raise
    return proc.returncode, out, err


def kill_group(proc: subprocess.Popen[str]) -> None:
    """Kill a process started with start_new_session=True and everything it started
    (on Windows, which has no process groups: the process itself)."""
    with contextlib.suppress(OSError):
        if sys.platform == "win32":
            proc.kill()
        else:
            import signal

            os.killpg(proc.pid, signal.SIGKILL)


def _git(args: list[str], what: str, cwd: Path | None = None) -> str:
    try:
        code, out, err = run([*_SAFE, *args], cwd, {**os.environ, **_ENV})
    except FileNotFoundError:
        raise GitError("the `git` command is not installed; memkit needs it to fetch") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"{what}: git took more than {TIMEOUT} s; check the network") from None
    if code != 0:
        lines = [ln for ln in err.strip().splitlines() if ln.strip()]
        reason = lines[-1] if lines else f"git exited with {code}"
        raise GitError(f"{what}: {reason}")
    return out


def fetch(mirror: Path, url: str, ref: str) -> str:
    """Fetch `ref` of `url` into the bare repository `mirror` (created if absent);
    return the commit id it names. A ref that is already a full commit id present in
    the mirror is not fetched again (offline use)."""
    if not (mirror / "HEAD").exists():
        mirror.parent.mkdir(parents=True, exist_ok=True)
        _git(["init", "--quiet", "--bare", str(mirror)], f"cannot create {mirror}")
    if len(ref) == 40 and has_commit(mirror, ref):
        return ref
    fetch_history(mirror, url, ref)
    what = f"cannot fetch {ref!r} from {url}"
    return _git(["rev-parse", "refs/memkit/fetched^{commit}"], what, cwd=mirror).strip()


def fetch_history(mirror: Path, url: str, ref: str) -> None:
    """Fetch `ref` with its history, so that is_ancestor can compare commits."""
    _git(
        ["fetch", "--quiet", "--no-tags", "--force", url, f"{ref}:refs/memkit/fetched"],
        f"cannot fetch {ref!r} from {url}",
        cwd=mirror,
    )


def has_commit(mirror: Path, commit: str) -> bool:
    return _succeeds(["cat-file", "-e", f"{commit}^{{commit}}"], mirror)


def is_ancestor(mirror: Path, old: str, new: str) -> bool:
    """True when commit `old` is in the history of commit `new`."""
    return _succeeds(["merge-base", "--is-ancestor", old, new], mirror)


def _succeeds(args: list[str], mirror: Path) -> bool:
    try:
        _git(args, "", cwd=mirror)
    except GitError:
        return False
    return True
