"""A few read-only questions asked of the `git` command instead of pygit2.

Loading pygit2 costs more than `git diff` of a long range, so the commands that only
list and read files at two revisions (`memkit diff` when no memory has links), and
recording fingerprints of the work tree (which needs only HEAD's commit id), ask the
git command. Each function answers None when git is missing or says no; the caller
then takes the pygit2 way, which reports the error properly.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

_SAFE = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false")


def _run(root: Path, args: list[str], data: bytes | None = None) -> bytes | None:
    import subprocess

    try:
        done = subprocess.run(
            ["git", *_SAFE, *args], cwd=root, input=data, capture_output=True, check=False
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def head(root: Path) -> tuple[str, str] | None:
    """(HEAD's commit id, the folder at `root` from the top, `/`-ended or empty); None
    if git cannot say (no commits yet, not a repository, no git)."""
    from memkit.spawn import output

    asked = ["rev-parse", "--show-prefix", "--verify", "--quiet", "HEAD^{commit}"]
    try:  # without subprocess, which costs `memkit verify` more to import than this
        code, out = output(["git", "-C", str(root), *_SAFE, *asked])
    except OSError:
        return None
    if code != 0:
        return None
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) != 3 or lines[2] or len(lines[1]) not in (40, 64):
        return None
    return lines[1], lines[0]


@dataclass(frozen=True)
class Revisions:
    """Two revisions resolved to commits, where the folder at `root` is in the tree, and
    whether the clone is shallow."""

    base: str
    head: str | None
    prefix: str
    shallow: bool


def revisions(root: Path, base: str, head: str | None) -> Revisions | None:
    """`base` and `head` (None: the work tree) as commit ids; None if git cannot say."""
    revs = [base] if head is None else [base, head]
    if any(r.startswith("-") or not r for r in revs):
        return None
    asked = [f"{r}^{{commit}}" for r in revs]
    out = _run(root, ["rev-parse", "--is-shallow-repository", "--show-prefix", *asked])
    if out is None:
        return None
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 2 + len(revs) or lines[0] not in ("true", "false"):
        return None
    ids = lines[2 : 2 + len(revs)]
    if not all(len(i) in (40, 64) for i in ids):
        return None
    return Revisions(ids[0], ids[1] if head else None, lines[1], lines[0] == "true")


def files_at(root: Path, rev: str, folder: str) -> dict[str, str] | None:
    """{path from the top: blob id} of every file under `folder` (relative to `root`)."""
    out = _run(root, ["ls-tree", "-r", "-z", "--full-name", rev, "--", folder])
    if out is None:
        return None
    found: dict[str, str] = {}
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, path = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"blob":
            found[path.decode("utf-8", "surrogateescape")] = parts[2].decode("ascii")
    return found


def blobs(root: Path, ids: list[str]) -> dict[str, bytes] | None:
    """The bytes of each blob in `ids` (one `git cat-file --batch`)."""
    if not ids:
        return {}
    out = _run(root, ["cat-file", "--batch"], "".join(f"{i}\n" for i in ids).encode())
    if out is None:
        return None
    found: dict[str, bytes] = {}
    at = 0
    for oid in ids:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if len(header) != 3 or header[1] != b"blob":
            return None
        size = int(header[2])
        found[oid] = out[end + 1 : end + 1 + size]
        at = end + 1 + size + 1
    return found
