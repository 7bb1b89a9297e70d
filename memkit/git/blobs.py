"""File contents and listings: a path at a revision, in the index or on disk; blobs by id.

read_at and blob_at read one file, read_blob one blob, files_at every file of a
folder at a revision, tracked_paths every path in the index.
"""

from __future__ import annotations

from typing import Any

from memkit.git.objects import MissingObjectError, objects_of, tree_of
from memkit.git.repo import resolve, workdir
from memkit.git.trees import subtree


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
    oid = _blob_id(repo, rev, path)
    return None if oid is None else _blob(repo, oid, path, limit)


def _blob_id(repo: Any, rev: str, path: str) -> str | None:
    """The blob id of file `path` at revision `rev` ("" = the index), None if it is no file
    there (only the trees along the path are read)."""
    try:
        if rev == "":
            return str(repo.index[path].id)
        obj = tree_of(repo, resolve(repo, rev))[path]
    except KeyError:
        return None
    return str(obj.id) if obj.type_str == "blob" else None


def _blob(repo: Any, oid: str, path: str, limit: int | None) -> bytes:
    from memkit.git.bounded import header, read_object

    objects = objects_of(repo)
    try:
        if limit is not None and (size := header(objects, oid)[1]) > limit:
            from memkit.errors import TooLargeError

            raise TooLargeError(
                f"{path} is {size:,} bytes, over memkit's limit of {limit:,} for it; "
                "make it smaller",
                size=size,
                limit=limit,
            )
        return read_object(objects, oid)
    except MissingObjectError:
        raise MissingObjectError(
            objects.why(oid, f"the blob of {path} ({oid[:12]})"), oid
        ) from None


def tracked_paths(repo: Any) -> list[str]:
    """Every path in the index, sorted."""
    index = repo.index
    index.read()
    return sorted(entry.path for entry in index)


def blob_at(repo: Any, rev: str, path: str) -> bytes | None:
    """The bytes of memory file `path` at revision `rev`, or None if it did not exist
    there; TreeLimitError past memkit.git.bounded.MAX_FILE_BYTES (never read)."""
    oid = _blob_id(repo, rev, path)
    return None if oid is None else read_blob(repo, oid)


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
    """{path: blob id} of every file under `folder` at revision `rev` ({} if none), within
    memkit.git.bounded's repository limits (TreeLimitError past them: a branch can hold
    a tree that names a billion paths)."""
    from memkit.git.bounded import REPO_MAX_DEPTH, REPO_MAX_ENTRIES, walk

    tree = subtree(tree_of(repo, resolve(repo, rev)), folder)
    if tree is None:
        return {}
    found = walk(
        objects_of(repo), str(tree.id), max_entries=REPO_MAX_ENTRIES, max_depth=REPO_MAX_DEPTH
    )
    return {f"{folder}/{p}": oid for p, oid in found}
