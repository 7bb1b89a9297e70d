"""The repository: finding and opening it, revisions, shallow clones, the default branch.

The only module that imports pygit2, lazily (load_pygit2): the rest of memkit.git
asks it for the library. pygit2 errors become GitError (a MemkitError) with a
message that says what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memkit.errors import GitError


def load_pygit2() -> Any:
    """The pygit2 module, imported on first use (importing it takes about 0.1 s)."""
    import pygit2

    return pygit2


def open_repo(path: Path | str) -> Any:
    """The repository containing `path`; GitError if there is none."""
    pygit2 = load_pygit2()
    found = pygit2.discover_repository(str(path))
    if found is None:
        raise GitError(f"{path} is not inside a git repository; run `git init` first")
    try:
        return pygit2.Repository(found)
    except pygit2.GitError as e:
        raise GitError(f"cannot open the git repository at {found}: {e}") from None


def find_repo(path: Path | str) -> Any | None:
    """Like open_repo, but None outside a repository."""
    try:
        return open_repo(path)
    except GitError:
        return None


def workdir(repo: Any) -> Path:
    if repo.workdir is None:
        raise GitError(f"{repo.path} is a bare repository; memkit needs a work tree")
    return Path(repo.workdir).resolve()


def head_commit(repo: Any) -> str | None:
    """The commit id HEAD points at, or None in a repository without commits."""
    if repo.head_is_unborn:
        return None
    return str(repo.head.target)


def resolve(repo: Any, rev: str) -> Any:
    """The commit named by `rev` (id, branch, tag, HEAD~2...)."""
    pygit2 = load_pygit2()
    try:
        obj = repo.revparse_single(rev)
        return obj.peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
        raise GitError(f"unknown revision {rev!r}; use a commit id, branch or tag") from None


def require_commits(repo: Any, what: str) -> str:
    """HEAD's commit id; GitError naming `what` in a repository without commits."""
    head = head_commit(repo)
    if head is None:
        raise GitError(
            f"{what} needs git history, but the repository at {workdir(repo)} has no commits "
            "yet; commit the memories first (`git add .memory && git commit`)"
        )
    return head


def is_shallow(repo: Any) -> bool:
    return bool(repo.is_shallow)


def shallow_commits(repo: Any) -> frozenset[str]:
    """The commits whose parents a shallow clone does not have."""
    try:
        text = (Path(repo.path) / "shallow").read_text("ascii")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def default_branch(repo: Any) -> str | None:
    """The default branch's ref: origin/HEAD, else main, master, origin/main, origin/master."""
    try:
        target = repo.lookup_reference("refs/remotes/origin/HEAD").target
        if isinstance(target, str):
            return target
    except (KeyError, ValueError):
        pass
    for ref in (
        "refs/heads/main",
        "refs/heads/master",
        "refs/remotes/origin/main",
        "refs/remotes/origin/master",
    ):
        if ref in repo.references:
            return ref
    return None


def merge_base_with_default(repo: Any, head: str) -> str | None:
    """The merge base of `head` and the default branch (None: no default branch or base)."""
    ref = default_branch(repo)
    if ref is None:
        return None
    other = repo.lookup_reference(ref).peel(load_pygit2().Commit).id
    base = repo.merge_base(other, resolve(repo, head).id)
    return None if base is None else str(base)
