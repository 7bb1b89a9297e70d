"""Fetching another repository into a bare mirror memkit keeps, and reading it.

Fetching goes through the `git` command, so the user's credentials, SSH set-up and
proxy settings apply as they do for `git fetch`. Nothing fetched is checked out:
memkit reads blobs straight from the mirror's objects, so no hook, filter or file
of the fetched repository ever runs or lands in a work tree.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from memkit.errors import GitError
from memkit.git.bounded import Files

# Never prompt (a hook or CI would hang), never run the fetched repository's hooks.
_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": ""}
_SAFE = ("-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never")
TIMEOUT = 300


def _git(args: list[str], what: str, cwd: Path | None = None) -> str:
    env = {**os.environ, **_ENV}
    try:
        done = subprocess.run(
            ["git", *_SAFE, *args], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=TIMEOUT, check=False,
        )  # fmt: skip
    except FileNotFoundError:
        raise GitError("the `git` command is not installed; memkit needs it to fetch") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"{what}: git took more than {TIMEOUT} s; check the network") from None
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.strip().splitlines() if ln.strip()]
        reason = lines[-1] if lines else f"git exited with {done.returncode}"
        raise GitError(f"{what}: {reason}")
    return done.stdout


def fetch(mirror: Path, url: str, ref: str) -> str:
    """Fetch `ref` of `url` into the bare repository `mirror` (created if absent);
    return the commit id it names. A ref that is already a full commit id present in
    the mirror is not fetched again (offline use)."""
    if not (mirror / "HEAD").exists():
        mirror.parent.mkdir(parents=True, exist_ok=True)
        _git(["init", "--quiet", "--bare", str(mirror)], f"cannot create {mirror}")
    if len(ref) == 40 and has_commit(mirror, ref):
        return ref
    what = f"cannot fetch {ref!r} from {url}"
    _git(["fetch", "--quiet", "--no-tags", "--force", url, f"{ref}:refs/memkit/fetched"], what,
         cwd=mirror)  # fmt: skip
    return _git(["rev-parse", "refs/memkit/fetched^{commit}"], what, cwd=mirror).strip()


def fetch_history(mirror: Path, url: str, ref: str) -> None:
    """Fetch `ref` with its history, so that is_ancestor can compare commits."""
    _git(["fetch", "--quiet", "--no-tags", "--force", url, f"{ref}:refs/memkit/fetched"],
         f"cannot fetch {ref!r} from {url}", cwd=mirror)  # fmt: skip


def has_commit(mirror: Path, commit: str) -> bool:
    try:
        _git(["cat-file", "-e", f"{commit}^{{commit}}"], "", cwd=mirror)
    except GitError:
        return False
    return True


def is_ancestor(mirror: Path, old: str, new: str) -> bool:
    """True when commit `old` is in the history of commit `new`."""
    done = subprocess.run(
        ["git", *_SAFE, "merge-base", "--is-ancestor", old, new],
        cwd=mirror, env={**os.environ, **_ENV}, capture_output=True, check=False,
    )  # fmt: skip
    return done.returncode == 0


def files(
    mirror: Path, commit: str, folder: str, want: Callable[[str], bool],
    descend: Callable[[str], bool] = lambda p: True,
) -> Files:  # fmt: skip
    """The files under `folder` ("" = the whole tree) at `commit` whose path `want`
    accepts, read within memkit.git.bounded's limits (TreeLimitError past one)."""
    from memkit.git.bounded import commit_tree, folder_tree, read_files
    from memkit.git.repo import load_pygit2

    odb = load_pygit2().Repository(str(mirror)).odb
    tree = folder_tree(odb, commit_tree(odb, commit), folder)
    if tree is None:
        return Files()
    return read_files(odb, tree, f"{folder}/" if folder else "", want, descend)
