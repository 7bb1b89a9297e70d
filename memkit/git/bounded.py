"""Reading trees and blobs someone else wrote, within limits a real memory store never meets.

A fetched team store (or a branch of a pull request) is data an outsider controls: a
few dozen git objects can name a billion paths (a tree reused under ten names on each
of eight levels), and one large blob can be named a thousand times. So nothing is read
before its name and size are known: trees are walked from their raw objects, each
object's type and size come from `odb.read_header`, a name that is not wanted is never
read, each object is read once however many names it has, and a walk that goes past
MAX_DEPTH folders, MAX_ENTRIES entries or MAX_TOTAL_BYTES of wanted files stops with
TreeLimitError naming the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memkit.errors import GitError

if TYPE_CHECKING:
    from pathlib import Path

MAX_DEPTH = 8  # folders below the folder walked
MAX_ENTRIES = 10_000  # tree entries (files and folders) read in one walk
MAX_FILE_BYTES = 1_000_000  # one memory file (memkit.memory.MAX_BYTES)
MAX_TOTAL_BYTES = 64_000_000  # every wanted file of one walk together
MAX_TREE_BYTES = 4_000_000  # one tree or commit object (10,000 entries of long names)
# The project's own history (a pull request's branch is as much an outsider's as a
# store): far above any real memory folder, or the changes of any real commit.
REPO_MAX_ENTRIES = 200_000
REPO_MAX_DEPTH = 32

_TREE, _BLOB = 2, 3  # git object types (pygit2.enums.ObjectType)
_BLOB_MODES = (b"100644", b"100755")


class TreeLimitError(GitError):
    """A tree or blob goes past one of the limits above."""


@dataclass
class Files:
    """What a walk read: {path: bytes} of the wanted files within MAX_FILE_BYTES, and
    {path: size} of the wanted files over it (never read)."""

    data: dict[str, bytes] = field(default_factory=dict)
    too_large: dict[str, int] = field(default_factory=dict)


def header(odb: Any, oid: str) -> tuple[int, int]:
    """(type, size) of object `oid` without reading it; GitError if it is absent.

    `odb`: a repository's objects (memkit.git.objects.Objects for the project's own
    repository, which fetches what a partial clone lacks), or a fetched mirror's odb."""
    from memkit.git.repo import load_pygit2

    try:
        kind, size = odb.read_header(oid)
    except (KeyError, ValueError, load_pygit2().GitError) as e:
        raise GitError(f"object {oid[:12]} cannot be read ({e}); fetch again") from None
    return int(kind), int(size)


def read_object(odb: Any, oid: str) -> bytes:
    """The bytes of object `oid`; GitError if it is absent."""
    from memkit.git.repo import load_pygit2

    try:
        return bytes(odb.read(oid)[1])
    except (KeyError, ValueError, load_pygit2().GitError) as e:
        raise GitError(f"object {oid[:12]} cannot be read ({e}); fetch again") from None


def _tree(odb: Any, oid: str, where: str) -> bytes:
    got, size = header(odb, oid)
    if got != _TREE:
        raise GitError(f"{where or '/'} is not a folder")
    if size > MAX_TREE_BYTES:
        raise TreeLimitError(
            f"folder {where or '/'} is a tree of {size} bytes, over memkit's limit of "
            f"{MAX_TREE_BYTES}; a memory store holds fewer files"
        )
    return read_object(odb, oid)


def entries(data: bytes) -> Iterator[tuple[bytes, str, str]]:
    """(mode, name, hex id) of each entry of a raw tree object; names that are not
    UTF-8, or that git would refuse (`.`, `..`, a `/`), are left out."""
    pos = 0
    while pos < len(data):
        sp = data.find(b" ", pos)
        nul = data.find(b"\x00", sp + 1)
        if sp < 0 or nul < 0 or nul + 21 > len(data):
            return  # a damaged tree: what was read so far
        mode, raw, oid = data[pos:sp], data[sp + 1 : nul], data[nul + 1 : nul + 21].hex()
        pos = nul + 21
        try:
            name = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if name not in ("", ".", "..") and "/" not in name:
            yield mode, name, oid


def folder_tree(odb: Any, root_tree: str, folder: str) -> str | None:
    """The tree id of `folder` ("" = `root_tree` itself) inside `root_tree`, or None."""
    oid = root_tree
    for i, part in enumerate(p for p in folder.split("/") if p):
        data = _tree(odb, oid, "/".join(folder.split("/")[:i]))
        found = [o for mode, name, o in entries(data) if name == part and mode == b"40000"]
        if not found:
            return None
        oid = found[0]
    return oid


def walk(
    odb: Any,
    tree: str,
    prefix: str = "",
    *,
    descend: Callable[[str], bool] = lambda p: True,
    max_entries: int = MAX_ENTRIES,
    max_depth: int = MAX_DEPTH,
) -> Iterator[tuple[str, str]]:
    """(`prefix` + path, blob id) of every regular file under `tree`, within `max_depth`
    and `max_entries`; a folder for which descend(path) is false is not read. Each tree
    object is read once, whatever the number of names it has."""
    parsed: dict[str, list[tuple[bytes, str, str]]] = {}
    stack = [(tree, prefix, 0)]
    count = 0
    while stack:
        oid, where, depth = stack.pop()
        if oid not in parsed:
            parsed[oid] = list(entries(_tree(odb, oid, where.rstrip("/"))))
        for mode, name, child in parsed[oid]:
            count += 1
            if count > max_entries:
                raise _too_many(prefix, max_entries)
            path = f"{where}{name}"
            if mode == b"40000":
                if depth + 1 > max_depth:
                    raise _too_deep(path, prefix, max_depth)
                if descend(path):
                    stack.append((child, f"{path}/", depth + 1))
            elif mode in _BLOB_MODES:
                yield path, child


def _too_many(prefix: str, limit: int) -> TreeLimitError:
    return TreeLimitError(
        f"{prefix.rstrip('/') or 'the tree'} holds more than {limit} files "
        "and folders, memkit's limit"
    )


def _too_deep(path: str, prefix: str, limit: int) -> TreeLimitError:
    return TreeLimitError(
        f"folder {path} is more than {limit} folders deep under "
        f"{prefix.rstrip('/') or 'the top'}, memkit's limit"
    )


def check_changes(odb: Any, old: str | None, new: str | None) -> None:
    """TreeLimitError if what differs between trees `old` and `new` (None: absent) goes
    past REPO_MAX_ENTRIES or REPO_MAX_DEPTH. Only differing folders are read, so the
    cost follows the change, not the size of the repository; run it before a diff that
    git (libgit2) would otherwise expand in full."""
    count = 0
    stack = [(old, new, "", 0)]
    while stack:
        a, b, where, depth = stack.pop()
        if a == b:
            continue
        left = {n: (m, o) for m, n, o in entries(_tree(odb, a, where))} if a else {}
        right = {n: (m, o) for m, n, o in entries(_tree(odb, b, where))} if b else {}
        for name in left.keys() | right.keys():
            count += 1
            if count > REPO_MAX_ENTRIES:
                raise _too_many("", REPO_MAX_ENTRIES)
            la, lb = left.get(name), right.get(name)
            if la == lb:
                continue
            sub = [e[1] if e and e[0] == b"40000" else None for e in (la, lb)]
            if sub[0] or sub[1]:
                if depth + 1 > REPO_MAX_DEPTH:
                    raise _too_deep(f"{where}{name}", "", REPO_MAX_DEPTH)
                stack.append((sub[0], sub[1], f"{where}{name}/", depth + 1))


def too_large(odb: Any, oids: Iterable[str], limit: int = MAX_FILE_BYTES) -> bool:
    """Whether one of the blobs `oids` is over `limit` bytes (git's rename and copy
    detection reads every one it compares in full)."""
    return any(header(odb, o)[1] > limit for o in oids if o and set(o) != {"0"})


def read_files(
    mirror: Path,
    commit: str,
    folder: str,
    want: Callable[[str], bool],
    descend: Callable[[str], bool] = lambda p: True,
) -> Files:
    """The files under `folder` ("" = the whole tree) at `commit` in the repository at
    `mirror` whose path `want` accepts: each blob read once, none over MAX_FILE_BYTES
    read at all, TreeLimitError past MAX_TOTAL_BYTES together (or any limit of the walk)."""
    from memkit.git.repo import load_pygit2

    odb = load_pygit2().Repository(str(mirror)).odb
    tree = folder_tree(odb, commit_tree(odb, commit), folder)
    prefix = f"{folder}/" if folder else ""
    out = Files()
    blobs: dict[str, bytes] = {}
    total = 0
    for path, oid in walk(odb, tree, prefix, descend=descend) if tree else ():
        if not want(path):
            continue
        if oid in blobs:
            out.data[path] = blobs[oid]
            continue
        kind, size = header(odb, oid)
        if kind != _BLOB:
            continue
        if size > MAX_FILE_BYTES:
            out.too_large[path] = size
            continue
        total += size
        if total > MAX_TOTAL_BYTES:
            raise TreeLimitError(
                f"the memory files under {prefix.rstrip('/') or 'the top'} hold more than "
                f"{MAX_TOTAL_BYTES} bytes together, memkit's limit"
            )
        blobs[oid] = out.data[path] = read_object(odb, oid)
    return out


def commit_tree(odb: Any, commit: str) -> str:
    """The root tree id of commit `commit`, read only if it is a commit of sane size."""
    kind, size = header(odb, commit)
    data = read_object(odb, commit) if kind == 1 and size <= MAX_TREE_BYTES else b""
    first = data.split(b"\n", 1)[0]
    if not first.startswith(b"tree ") or len(first) not in (45, 69):
        raise GitError(f"{commit[:12]} is not a commit memkit can read")
    return first[5:].decode("ascii")
