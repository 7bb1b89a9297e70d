"""Reading trees: object ids along a path, read from raw tree objects; a folder's tree.

Reading the raw bytes of a tree costs a fraction of building pygit2 objects for
every entry, which matters for history walks that read a folder of thousands of
memories once per commit. chain follows a path from a root tree and reuses the
chain of a neighbouring commit where the ids agree.
"""

from __future__ import annotations

from typing import Any

_TREE_MODE = b"40000"
_BLOB_MODES = (b"100644", b"100755")


def _entry(odb: Any, tree: bytes, name: str, want_tree: bool) -> bytes | None:
    """The raw id of entry `name` (a folder if `want_tree`) in the raw tree object `tree`
    (`odb`: the repository's memkit.git.objects.Objects)."""
    data = odb.read(tree.hex())[1]
    needle = b" " + name.encode("utf-8") + b"\x00"
    modes = (_TREE_MODE,) if want_tree else _BLOB_MODES
    start = 0
    while (at := data.find(needle, start)) >= 0:
        end = at + len(needle)
        mode = next((m for m in modes if data[max(0, at - len(m)) : at] == m), b"")
        before = at - len(mode)  # an entry starts after the previous entry's id
        if mode and (before == 0 or before >= 20):
            return bytes(data[end : end + 20])
        start = at + 1
    return None


def chain(
    odb: Any, tree: bytes, parts: list[str], known: list[bytes | None], folder: bool = False
) -> list[bytes | None]:
    """Raw object ids along `parts` from root tree `tree` (None past a missing entry).

    `known` is the chain of a neighbouring commit: where an id is equal, the rest is
    equal too, so only the trees that changed are read. The last part is a file, or
    a folder if `folder`.
    """
    out: list[bytes | None] = [tree]
    for i, name in enumerate(parts):
        cur = out[i]
        if cur == known[i]:
            return out + known[i + 1 :]
        assert cur is not None
        found = _entry(odb, cur, name, want_tree=folder or i < len(parts) - 1)
        if found is None:
            return out + [None] * (len(parts) - i)
        out.append(found)
    return out


def hex_id(raw: bytes | None) -> str | None:
    """The hex form of a raw object id (None stays None)."""
    return None if raw is None else raw.hex()


def tree_or_none(repo: Any, raw: bytes | None) -> Any | None:
    """The tree object of a raw id (None stays None)."""
    from memkit.git.objects import objects_of

    return None if raw is None else objects_of(repo).lookup(raw.hex())


def subtree(tree: Any, folder: str) -> Any | None:
    """The tree of `folder` inside `tree`, or None if it is absent or not a folder."""
    try:
        obj = tree[folder]
    except KeyError:
        return None
    return obj if obj.type_str == "tree" else None
