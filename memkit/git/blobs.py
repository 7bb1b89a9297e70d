"""File contents and listings: a path at a revision, in the index or on disk; blobs by id.

read_at and blob_at read one file, read_blob one blob, files_at every file of a
folder at a revision, tracked_paths every path in the index.
"""

from __future__ import annotations

from typing import Any

from memkit.git.objects import MissingObjectError, objects_of, tree_of
from memkit.git.repo import resolve, workdir
from memkit.git.trees import subtree, walk_tree


def read_at(repo: Any, rev: str | None, path: str, limit: int | None = None) -> bytes | None:
    """The content of `path` at revision `rev` ("" = the index, None = the work tree).

    With `limit`, a blob over it is not read: TooLargeError naming `path` and the limit.
    """
    if rev is None:
        full = workdir(repo) / path
        try:
            return full.read_bytes() if full.is_file() else None
        except OSError:
            return None
    if rev == "":
        try:
            entry = repo.index[path]
        except KeyError:
            return None
        return _blob(repo, str(entry.id), path, limit)
    try:
        obj = tree_of(repo, resolve(repo, rev))[path]
    except KeyError:
        return None
    return _blob(repo, str(obj.id), path, limit) if obj.type_str == "blob" else None


def _blob(repo: Any, oid: str, path: str, limit: int | None) -> bytes:
    objects = objects_of(repo)
    try:
        return _limited(objects, oid, path, limit)
    except MissingObjectError:
        raise MissingObjectError(
            objects.why(oid, f"the blob of {path} ({oid[:12]})"), oid
        ) from None


def _limited(objects: Any, oid: str, path: str, limit: int | None) -> bytes:
    from memkit.git.bounded import header, read_object

    if limit is not None:
        from memkit.errors import TooLargeError

        size = header(objects, oid)[1]
        if size > limit:
            raise TooLargeError(
                f"{path} is {size:,} bytes, over memkit's limit of {limit:,} for it; "
                "make it smaller",
                size=size,
                limit=limit,
            )
    return read_object(objects, oid)


def tracked_paths(repo: Any) -> list[str]:
    """Every path in the index, sorted."""
    index = repo.index
    index.read()
    return sorted(entry.path for entry in index)


def blob_at(repo: Any, rev: str, path: str) -> bytes | None:
    """The bytes of memory file `path` at revision `rev`, or None if it did not exist
    there; TreeLimitError past memkit.git.bounded.MAX_FILE_BYTES (never read)."""
    commit = resolve(repo, rev)
    try:
        entry = tree_of(repo, commit)[path]  # reads the trees along the path, not the blob
    except KeyError:
        return None
    return read_blob(repo, str(entry.id)) if entry.type_str == "blob" else None


def read_blob(repo: Any, oid: str) -> bytes:
    """The bytes of the memory file blob `oid`; TreeLimitError, without reading it, when
    it is over memkit.git.bounded.MAX_FILE_BYTES (a memory file never is)."""
    from memkit.git.bounded import MAX_FILE_BYTES, TreeLimitError, header, read_object

    objects = objects_of(repo)
    size = header(objects, oid)[1]
    if size > MAX_FILE_BYTES:
        raise TreeLimitError(
            f"blob {oid[:12]} holds {size} bytes, over memkit's limit of "
            f"{MAX_FILE_BYTES} for a memory file"
        )
    return read_object(objects, oid)


def files_at(repo: Any, rev: str, folder: str) -> dict[str, str]:
    """{path: blob id} of every file under `folder` at revision `rev` ({} if none)."""
    commit = resolve(repo, rev)
    tree = subtree(tree_of(repo, commit), folder)
    if tree is None:
        return {}
    return {f"{folder}/{p}": oid for p, oid in walk_tree(repo, tree, "")}
