"""Read-only questions asked of the `git` command instead of pygit2.

Loading pygit2 (about 0.1 s) costs more than the answers: recording fingerprints of the
work tree needs only HEAD's commit id, an audit the tracked files and the branches. Each
answers None (or nothing) when git is missing or says no; the caller then takes the
pygit2 way or a walk. Repository configuration cannot make these commands run programs:
hooks and fsmonitor are turned off, and nothing here runs filters.
"""

from __future__ import annotations

import os
from pathlib import Path

_SAFE = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false",
         "-c", "core.untrackedCache=false")  # fmt: skip


def _run(root: Path, args: list[str], env: dict[str, str] | None = None) -> bytes | None:
    """git's output; None when it fails. `env`: variables set for this run."""
    import subprocess

    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", **(env or {})}
    try:
        done = subprocess.run(
            ["git", *_SAFE, *args], cwd=root, capture_output=True, env=env, check=False
        )
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


def toplevel(start: Path) -> Path | None:
    """The top of the git work tree holding `start`, or None (not in one, or no git)."""
    out = _run(start, ["rev-parse", "--show-toplevel"])
    text = os.fsdecode(out).strip() if out else ""
    return Path(text).resolve() if text else None


def tracked(root: Path) -> list[str] | None:
    """Paths in the index under `root`, relative to it (submodules included), or None."""
    out = _run(root, ["ls-files", "-z", "--cached"])
    if out is None:
        return None
    return sorted(os.fsdecode(p) for p in out.split(b"\0") if p)


def branches(root: Path) -> frozenset[str]:
    """Local and remote branch names (`feat/x`), none outside git."""
    out = _run(root, ["for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes"])
    names = set()
    for ref in os.fsdecode(out or b"").splitlines():
        if ref.startswith("refs/heads/"):
            names.add(ref[len("refs/heads/") :])
        elif ref.startswith("refs/remotes/"):
            names.add(ref.split("/", 3)[-1])
    return frozenset(names)


def scored_renames(git_dir: Path, command: str, *sides: str) -> dict[str, tuple[str, int]] | None:
    """git's own rename detection (`git diff -M`, the one `git log --follow`, `git
    status` and `git diff` show) in the repository at `git_dir`: `command` diff-tree
    with two trees, or diff-index with --cached and a tree (the index against it).
    {old path: (new path, git's similarity 0-100)}, or None if git cannot say (no git,
    an object it cannot read). Nothing is fetched: the caller has fetched the files a
    partial clone lacks."""
    asked = ["--git-dir", str(git_dir), command, "-r", "-z", "-M", "--name-status",
             "--diff-filter=R", "--no-ext-diff", "--no-textconv", *sides]  # fmt: skip
    # the index libgit2 reads, not a git hook's temporary one (GIT_INDEX_FILE)
    env = {"GIT_NO_LAZY_FETCH": "1", "GIT_INDEX_FILE": str(git_dir / "index")}
    out = _run(git_dir, asked, env=env)
    if out is None:
        return None
    fields = out.split(b"\0")
    found: dict[str, tuple[str, int]] = {}
    for i in range(0, len(fields) - 2, 3):
        status = fields[i]
        if not (status.startswith(b"R") and status[1:].isdigit()):
            return None  # not the `R<score> old new` records asked for
        found[os.fsdecode(fields[i + 1])] = (os.fsdecode(fields[i + 2]), int(status[1:]))
    return found
