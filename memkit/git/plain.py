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


def _run(
    root: Path, args: list[str], data: bytes | None = None, limit: int | None = None
) -> bytes | None:
    """git's output; None when it fails or its output passes `limit` bytes (then it is
    stopped: a branch can list a billion paths)."""
    import subprocess

    if limit is None:
        try:
            done = subprocess.run(
                ["git", *_SAFE, *args], cwd=root, input=data, capture_output=True, check=False
            )
        except OSError:
            return None
        return done.stdout if done.returncode == 0 else None
    try:
        proc = subprocess.Popen(["git", *_SAFE, *args], cwd=root, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    except OSError:
        return None
    assert proc.stdout is not None
    with proc:
        out = proc.stdout.read(limit + 1)
        if len(out) > limit:
            proc.kill()
            return None
    return out if proc.returncode == 0 else None


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
    from memkit.git.bounded import REPO_MAX_DEPTH, REPO_MAX_ENTRIES

    asked = ["ls-tree", "-r", "-z", "--full-name", rev, "--", folder]
    out = _run(root, asked, limit=REPO_MAX_ENTRIES * 300)
    if out is None or out.count(b"\0") > REPO_MAX_ENTRIES:
        return None  # past the limits, the pygit2 way says which
    found: dict[str, str] = {}
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, path = entry.partition(b"\t")
        parts = meta.split()
        if path.count(b"/") > REPO_MAX_DEPTH + folder.count("/") + 1:
            return None  # past the limits, the pygit2 way says which
        if len(parts) == 3 and parts[1] == b"blob":
            found[path.decode("utf-8", "surrogateescape")] = parts[2].decode("ascii")
    return found


def blobs(root: Path, ids: list[str]) -> dict[str, bytes] | None:
    """The bytes of each blob in `ids` (one `git cat-file --batch`); None when git cannot
    say or one is over memkit.git.bounded.MAX_FILE_BYTES (sizes are asked first)."""
    from memkit.git.bounded import MAX_FILE_BYTES

    if not ids:
        return {}
    sizes = _run(root, ["cat-file", "--batch-check"], "".join(f"{i}\n" for i in ids).encode())
    for line in (sizes or b"").splitlines():
        parts = line.split()
        if len(parts) != 3 or not parts[2].isdigit() or int(parts[2]) > MAX_FILE_BYTES:
            return None
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
