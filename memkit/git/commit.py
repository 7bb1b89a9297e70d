"""Making commits: who makes them (the identity git would use) and committing exact paths.

signature follows git: GIT_AUTHOR_* / GIT_COMMITTER_* (dates included), then the
configured user.name and user.email. commit_paths commits the given files as they
are on disk and nothing else the user has staged.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memkit.errors import GitError
from memkit.git.repo import load_pygit2, open_repo, workdir


def signature(repo: Any, role: str = "COMMITTER") -> Any:
    """Who makes memkit's commits: GIT_AUTHOR_* / GIT_COMMITTER_* first, as git does, then
    the configured user.name and user.email. GitError when neither names someone."""
    pygit2 = load_pygit2()
    name = os.environ.get(f"GIT_{role}_NAME")
    email = os.environ.get(f"GIT_{role}_EMAIL")
    if not (name and email):
        try:
            default = repo.default_signature
        except (KeyError, pygit2.GitError):
            raise GitError(
                'git has no identity configured; run `git config user.name "Your Name"` and '
                "`git config user.email you@example.com` (or set GIT_AUTHOR_NAME and "
                "GIT_AUTHOR_EMAIL); nothing was written"
            ) from None
        name = name or default.name
        email = email or default.email
    when = _git_date(os.environ.get(f"GIT_{role}_DATE"), f"GIT_{role}_DATE")
    if when is None:
        return pygit2.Signature(name, email)
    return pygit2.Signature(name, email, when[0], when[1])


def _git_date(value: str | None, var: str) -> tuple[int, int] | None:
    """(seconds since the epoch, offset in minutes) from git's date formats, or None."""
    import datetime as dt

    if not value:
        return None
    text = value.strip().removeprefix("@")
    if m := re.fullmatch(r"(\d+)(?:\s+([+-])(\d\d)(\d\d))?", text):
        sign = -1 if m.group(2) == "-" else 1
        offset = sign * (int(m.group(3) or 0) * 60 + int(m.group(4) or 0))
        return int(m.group(1)), offset
    from email.utils import parsedate_to_datetime  # RFC 2822, as in an email's Date:

    for parse in (dt.datetime.fromisoformat, parsedate_to_datetime):
        try:
            when = parse(text)
        except (ValueError, TypeError):
            continue
        if when.tzinfo is None:
            when = when.astimezone()
        delta = when.utcoffset()
        return int(when.timestamp()), int(delta.total_seconds() // 60) if delta else 0
    raise GitError(f"{var}={value!r} is not a date git understands; use ISO 8601 or @EPOCH +ZZZZ")


def check_identity(root: Path) -> None:
    """Raise GitError now if a commit here could not be made (before anything is written)."""
    repo = open_repo(root)
    signature(repo, "AUTHOR")
    signature(repo, "COMMITTER")
    _require_unlocked_index(repo)


def _require_unlocked_index(repo: Any) -> None:
    lock = Path(repo.path) / "index.lock"
    if lock.exists():
        raise GitError(
            f"git's index is locked ({lock} exists): another git command is running; wait "
            "for it, or delete the file if no git command is running; nothing was committed"
        )


def commit_paths(root: Path, paths: Iterable[str], message: str) -> str:
    """Commit exactly `paths` (relative to the work tree) as they are on disk.

    Other changes the user has staged stay staged and out of the commit: the new
    tree is HEAD's tree plus these paths, and only their index entries are updated.
    A path missing on disk is committed as deleted. Returns the new commit id.
    """
    from memkit.fsutil import file_lock

    paths = list(paths)
    repo = open_repo(root)
    # Concurrent memkit commits would race on HEAD ("current tip is not the first
    # parent") and on the index (one process dropping another's entries).
    with file_lock(Path(repo.path) / "memkit-commit.lock"):
        _require_unlocked_index(repo)
        try:
            return _commit_paths(repo, root, paths, message)
        except load_pygit2().GitError as e:
            raise GitError(f"git could not commit {', '.join(paths)}: {e}") from None


def _commit_paths(repo: Any, root: Path, paths: Iterable[str], message: str) -> str:
    pygit2 = load_pygit2()
    top = workdir(repo)
    # the folder resolved, not the file: a link is committed as the link, never its target
    rels = sorted({_in_tree(Path(root) / p, top) for p in paths})
    author, committer = signature(repo, "AUTHOR"), signature(repo, "COMMITTER")
    parents = [] if repo.head_is_unborn else [repo.head.target]
    tree_index = pygit2.Index()
    if parents:
        tree_index.read_tree(repo[parents[0]].peel(pygit2.Commit).tree)
    index = repo.index
    index.read()
    for rel in rels:
        full = top / rel
        if full.is_symlink():  # a tracked link stays a link (compile writes through it)
            blob = repo.create_blob(os.readlink(full).encode("utf-8", "surrogateescape"))
            mode = pygit2.GIT_FILEMODE_LINK
        elif full.is_file():
            blob = repo.create_blob_fromdisk(str(full))
            executable = os.access(full, os.X_OK)
            mode = pygit2.GIT_FILEMODE_BLOB_EXECUTABLE if executable else pygit2.GIT_FILEMODE_BLOB
        else:
            for idx in (tree_index, index):
                if rel in idx:
                    idx.remove(rel)
            continue
        entry = pygit2.IndexEntry(rel, blob, mode)
        tree_index.add(entry)
        index.add(entry)
    tree = tree_index.write_tree(repo)
    if parents and tree == repo[parents[0]].peel(pygit2.Commit).tree.id:
        raise GitError("nothing to commit: the files memkit wrote are unchanged from HEAD")
    ref = "HEAD" if not repo.head_is_unborn else repo.lookup_reference("HEAD").target
    oid = repo.create_commit(ref, author, committer, message, tree, parents)
    index.write()
    return str(oid)


def _in_tree(path: Path, top: Path) -> str:
    """`path` relative to the work tree `top`, its folder resolved and the file itself not
    (a committed `CLAUDE.md -> AGENTS.md` is the link, not AGENTS.md)."""
    return (path.parent.resolve() / path.name).relative_to(top).as_posix()
