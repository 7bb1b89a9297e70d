"""A read-only question asked of the `git` command instead of pygit2.

Loading pygit2 costs more than the answer, so recording fingerprints of the work tree
(which needs only HEAD's commit id) asks the git command. It answers None when git is
missing or says no; the caller then takes the pygit2 way, which reports the error properly.
"""

from __future__ import annotations

from pathlib import Path

_SAFE = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false")


def _run(root: Path, args: list[str]) -> bytes | None:
    """git's output; None when it fails."""
    import subprocess

    try:
        done = subprocess.run(["git", *_SAFE, *args], cwd=root, capture_output=True, check=False)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def head(root: Path) -> tuple[str, str] | None:
    """(HEAD's commit id, the folder at `root` from the top, `/`-ended or empty); None
    if git cannot say (no commits yet, not a repository, no git)."""
    asked = ["rev-parse", "--show-prefix", "--verify", "--quiet", "HEAD^{commit}"]
    out = _run(root, asked)
    if out is None:
        return None
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) != 3 or lines[2] or len(lines[1]) not in (40, 64):
        return None
    return lines[1], lines[0]
