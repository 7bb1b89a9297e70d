"""The repository: finding and opening it, revisions, shallow clones, the default branch.

The only module that imports pygit2, lazily (load_pygit2): the rest of memkit.git
asks it for the library. pygit2 errors become GitError (a MemkitError) with a
message that says what to do.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from memkit.errors import GitError

# how to get the commits a shallow clone lacks
DEEPEN = "fetch more history: `git fetch --deepen=N` (N commits more) or `git fetch --unshallow`"


def load_pygit2() -> Any:
    """The pygit2 module, imported on first use (about 0.1 s), without `ssl` and `tarfile`.

    pygit2 imports both at the top for things memkit never asks of it (ssl for the
    default certificate paths it hands libgit2, tarfile for write_archive), and together
    they cost about a quarter of its import. While pygit2 loads, stand-ins take their
    place in sys.modules (only when the real module is not loaded yet): the certificate
    paths are worked out as ssl.get_default_verify_paths does, from the same `_ssl`
    call; write_archive gets the real tarfile when it is first used. The stand-ins leave
    sys.modules right after, and a pygit2 that needs more of them is imported plainly.
    """
    if "pygit2" in sys.modules:
        return sys.modules["pygit2"]
    stand_ins = _stand_ins()
    sys.modules.update(stand_ins)
    try:
        import pygit2
    except Exception:  # a pygit2 that wants more of ssl or tarfile: import it as it is
        _drop(stand_ins)
        for name in [n for n in sys.modules if n == "pygit2" or n.startswith("pygit2.")]:
            del sys.modules[name]
        try:
            import pygit2
        except Exception as e:
            raise GitError(_cannot_start(e)) from None
    finally:
        _drop(stand_ins)
    repository = sys.modules.get("pygit2.repository")
    if "tarfile" in stand_ins and getattr(repository, "tarfile", None) is stand_ins["tarfile"]:
        repository.tarfile = _Later("tarfile")  # type: ignore[union-attr]
    return pygit2


def _cannot_start(e: Exception) -> str:
    """What to say when pygit2 fails to import (libgit2 refuses the certificates it is
    given at import, for one: a bad SSL_CERT_FILE stops every command that reads git)."""
    import os

    message = f"pygit2, the library memkit reads git with, could not start: {e}"
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        if "certificate" in str(e).lower() and os.environ.get(name):
            message += f"; {name}={os.environ[name]} names no certificates OpenSSL can load"
            return message + f": point it at a certificate bundle or unset {name}"
    if isinstance(e, ImportError):
        return message + "; it comes with memkit: reinstall memkit in this environment"
    return message


def _stand_ins() -> dict[str, Any]:
    import types

    out: dict[str, Any] = {}
    if "ssl" not in sys.modules:
        try:
            import _ssl
        except ImportError:  # a Python without ssl: pygit2 then fails as it would
            return out
        from collections import namedtuple

        DefaultVerifyPaths = namedtuple(  # ssl's own is this namedtuple
            "DefaultVerifyPaths",
            "cafile capath openssl_cafile_env openssl_cafile openssl_capath_env openssl_capath",
        )

        def get_default_verify_paths() -> Any:  # ssl.get_default_verify_paths, as written
            import os

            parts = _ssl.get_default_verify_paths()
            cafile = os.environ.get(parts[0], parts[1])
            capath = os.environ.get(parts[2], parts[3])
            return DefaultVerifyPaths(
                cafile if os.path.isfile(cafile) else None,
                capath if os.path.isdir(capath) else None,
                *parts,
            )

        ssl = types.ModuleType("ssl")
        vars(ssl).update(
            DefaultVerifyPaths=DefaultVerifyPaths, get_default_verify_paths=get_default_verify_paths
        )
        out["ssl"] = ssl
    if "tarfile" not in sys.modules:
        tarfile = types.ModuleType("tarfile")
        vars(tarfile)["TarFile"] = object  # pygit2 reads it in an annotation as it loads
        out["tarfile"] = tarfile
    return out


def _drop(stand_ins: dict[str, Any]) -> None:
    for name, module in stand_ins.items():
        if sys.modules.get(name) is module:
            del sys.modules[name]


class _Later:
    """A module imported when one of its attributes is first asked for."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        return getattr(importlib.import_module(self._name), attr)


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


def prefix(repo: Any, root: Path) -> str:
    """`root`'s path from the top of the work tree, ending in `/` ("" at the top)."""
    rel = root.resolve().relative_to(workdir(repo)).as_posix()
    return "" if rel == "." else rel + "/"


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
        if is_shallow(repo):  # HEAD~3 past the boundary, an old tag not fetched
            raise GitError(
                f"unknown revision {rev!r}: this is a shallow clone and may not have it; "
                f"{DEEPEN}, or use a commit id, branch or tag it has"
            ) from None
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
