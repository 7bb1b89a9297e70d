"""Objects a partial or shallow clone may lack: the one place memkit.git reads them by id.

A blobless partial clone (`git clone --filter=blob:none`) has every commit and tree but
only the blobs it checked out; git fetches any other from the promisor remote when it
needs one, and libgit2 (pygit2) does not. A shallow clone (`git clone --depth N`) has
no commit past its boundary, and nothing fetches one on its own. So every read by id in
memkit.git goes through Objects (`objects_of(repo)`), which stands in for `repo.odb`:

- a blob or tree the repository lacks is fetched from the promisor remote, the way git
  would, and read; several known at once (the sides of a rename detection, the memory
  files a review reads) are fetched in one `git fetch` with `prefetch`;
- what cannot be had (no promisor remote, the remote out of reach, GIT_NO_LAZY_FETCH
  set, a commit past a shallow clone's boundary) raises MissingObjectError, a GitError
  whose message names the object, why it is missing and the command that gets it.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from memkit.errors import GitError
from memkit.git.repo import DEEPEN, load_pygit2

# What git runs itself for a lazy fetch (promisor-remote.c): no negotiation (the
# objects are named), no tags, no FETCH_HEAD, no submodules, and no blobs but those asked.
_FETCH = (
    "-c", "fetch.negotiationAlgorithm=noop", "fetch", "--quiet", "--no-tags",
    "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", "--stdin",
)  # fmt: skip
_SAFE = ("-c", "core.hooksPath=/dev/null", "-c", "http.lowSpeedLimit=1000",
         "-c", "http.lowSpeedTime=60")  # fmt: skip


class MissingObjectError(GitError):
    """An object memkit needs is not in this clone, and could not be fetched."""

    def __init__(self, message: str, oid: str) -> None:
        super().__init__(message)
        self.oid = oid


class Objects:
    """`repo.odb` for reads by id (read, read_header), fetching what a partial
    clone lacks from its promisor remote; MissingObjectError when it cannot."""

    def __init__(self, repo: Any) -> None:
        self.repo = repo
        self.odb = repo.odb
        self.tried: dict[str, str] = {}  # object id -> why fetching it failed

    def read_header(self, oid: str) -> tuple[Any, int]:
        return self._fetched(self.odb.read_header, oid)  # type: ignore[no-any-return]

    def read(self, oid: str) -> tuple[Any, bytes]:
        return self._fetched(self.odb.read, oid)  # type: ignore[no-any-return]

    def lookup(self, oid: str) -> Any:
        """The pygit2 object `oid` (a commit, tree or blob)."""
        return self._fetched(self.repo.__getitem__, oid)

    def _fetched(self, get: Callable[[str], Any], oid: str) -> Any:
        """get(oid), once more after fetching `oid` when the first try finds it missing."""
        try:
            return get(oid)
        except (KeyError, ValueError, load_pygit2().GitError):
            self.need(oid)
            return get(oid)

    def need(self, oid: str) -> None:
        """Fetch `oid` if it is missing; MissingObjectError if it cannot be had (a
        present object that does not read is not this module's to explain: the caller's
        own error handling says what it is)."""
        if oid in self.prefetch([oid]):  # what is present or fetched is not in it
            raise MissingObjectError(self.why(oid), oid)

    def prefetch(self, oids: Iterable[str]) -> frozenset[str]:
        """Fetch every object of `oids` this repository lacks in one `git fetch` from its
        promisor remote (none: nothing is fetched); the ones still missing after it."""
        wanted = sorted({o for o in oids if o and set(o) != {"0"} and o not in self.odb})
        todo = [o for o in wanted if o not in self.tried]
        remote = promisor_remote(self.repo) if todo else None
        if remote is not None and not os.environ.get("GIT_NO_LAZY_FETCH"):
            failure = _fetch(self.repo, remote, todo)
            for oid in todo:
                if oid not in self.odb:
                    self.tried[oid] = failure or "the remote did not send it"
        return frozenset(o for o in wanted if o not in self.odb)

    def why(self, oid: str, what: str = "") -> str:
        """One sentence: object `oid` (described as `what`, e.g. "the blob of a.py at
        1a2b3c") is missing, why, and the command that gets it."""
        name = what or f"object {oid[:12]}"
        remote = promisor_remote(self.repo)
        if remote is not None:
            if os.environ.get("GIT_NO_LAZY_FETCH"):
                return (
                    f"{name} is not in this partial clone, and GIT_NO_LAZY_FETCH forbids "
                    f"fetching it from {remote}; unset GIT_NO_LAZY_FETCH and run again"
                )
            failed = self.tried.get(oid, "it was not asked for")
            return (
                f"{name} is not in this partial clone, and `git fetch` from {remote} could "
                f"not get it ({failed}); run again where {remote} can be reached"
            )
        if self.repo.is_shallow:
            return f"{name} is not in this shallow clone; {DEEPEN}"
        return f"{name} is missing from the repository; `git fsck` tells what else is damaged"


_OBJECTS: weakref.WeakKeyDictionary[Any, Objects] = weakref.WeakKeyDictionary()


def objects_of(repo: Any) -> Objects:
    """The one Objects of `repo` (what was tried and failed is not tried again)."""
    found = _OBJECTS.get(repo)
    if found is None:
        found = _OBJECTS[repo] = Objects(repo)
    return found


def tree_of(repo: Any, commit: Any) -> Any:
    """The root tree of `commit` (a pygit2 Commit), fetched with its folders (not their
    files) when a partial clone without trees (`--filter=tree:0`) lacks it."""
    objects_of(repo).need(str(commit.tree_id))
    return commit.tree


def prefetch(repo: Any, oids: Iterable[str]) -> frozenset[str]:
    """Fetch, in one batch, the objects of `oids` a partial clone lacks (before reading
    them one by one); the ones still missing after it."""
    return objects_of(repo).prefetch(oids)


def promisor_remote(repo: Any) -> str | None:
    """The remote a partial clone fetches missing objects from (None: not a partial clone)."""
    config = repo.config
    try:
        named = config["extensions.partialclone"]
    except (KeyError, ValueError):
        named = None
    if named:
        return str(named)
    for entry in config:
        name = entry.name
        if name.startswith("remote.") and name.endswith(".promisor") and _true(entry.value):
            return str(name[len("remote.") : -len(".promisor")])
    return None


def _true(value: str | None) -> bool:
    return (value or "true").strip().lower() in ("true", "yes", "on", "1")


def missing_commit(repo: Any, commit: str) -> str | None:
    """Why `commit` cannot be read here when a shallow clone lacks it (None: it is there,
    or the clone is not shallow: a commit missing from a full clone was rewritten away)."""
    try:
        if commit in repo.odb or not repo.is_shallow:
            return None
    except (ValueError, TypeError):  # not an object id
        return None
    return f"commit {commit[:12]} is not in this shallow clone; {DEEPEN}"


def _fetch(repo: Any, remote: str, oids: list[str]) -> str | None:
    """Fetch `oids` from `remote` into `repo`; None, or why it failed (git's last line)."""
    import subprocess

    from memkit.git.remote import TIMEOUT, run

    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    wanted = "".join(f"{o}\n" for o in oids)
    try:
        code, _, err = run([*_SAFE, *_FETCH, remote], repo.workdir or repo.path, env, wanted)
    except OSError as e:
        return f"the `git` command could not run: {e.strerror or e}"
    except subprocess.TimeoutExpired:
        return f"no answer within {TIMEOUT} s"
    if code == 0:
        return None
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()]
    fatal = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
    return (fatal or lines or [f"git exited with {code}"])[0]
