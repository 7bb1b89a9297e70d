"""The project's files and branches for an audit, from one `git` command each.

`git ls-files` lists the index in a few milliseconds; opening the repository with
pygit2 costs more than the rest of a small audit (importing it alone is about 0.1 s), so
an audit only falls back to memkit.git (or a walk) when the git command is missing or
fails. Repository configuration cannot make these commands run programs: fsmonitor is
turned off and nothing here runs hooks or filters.
"""

from __future__ import annotations

import os
from pathlib import Path

_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false")


def _git(where: Path, *args: str) -> bytes | None:
    import subprocess

    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    try:
        done = subprocess.run(
            ["git", "-C", str(where), *_SAFE, *args],
            capture_output=True,
            env=env,
            check=False,
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def toplevel(start: Path) -> Path | None:
    """The top of the git work tree holding `start`, or None (not in one, or no git)."""
    out = _git(start, "rev-parse", "--show-toplevel")
    text = os.fsdecode(out).strip() if out else ""
    return Path(text).resolve() if text else None


def tracked(root: Path) -> list[str] | None:
    """Paths in the index under `root`, relative to it (submodules included), or None."""
    out = _git(root, "ls-files", "-z", "--cached")
    if out is None:
        return None
    return sorted(os.fsdecode(p) for p in out.split(b"\0") if p)


def branches(root: Path) -> frozenset[str]:
    """Local and remote branch names (`feat/x`), none outside git."""
    out = _git(root, "for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")
    names = set()
    for ref in os.fsdecode(out or b"").splitlines():
        if ref.startswith("refs/heads/"):
            names.add(ref[len("refs/heads/") :])
        elif ref.startswith("refs/remotes/"):
            names.add(ref.split("/", 3)[-1])
    return frozenset(names)
