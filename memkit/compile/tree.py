"""The stamps of everything under .memory/, for memkit.compile.current.

`memory_tree(root)` lists every file and folder under `.memory/` (each folder followed
by its entries, in name order) with its mode, size, mtime, ctime and inode; `walk(root,
defer=True)` lists the memory files without stat-ing them, for a caller that takes
their stamps from the store's load. `same_tree` compares today's tree with a recorded
digest of it and the recorded bytes of files too new to trust their stamp. Standard
library only.
"""

from __future__ import annotations

import hashlib
import operator
import os

from memkit.walk import MEMORY_DIR, SKIP_DIRS

_NAME = operator.attrgetter("name")


# One entry of .memory/: (path under .memory/, its lstat or None while a memory file's
# stamp is to come from the store's load).
Entry = tuple[str, "os.stat_result | None"]


def _line(rel: str, st: os.stat_result) -> str:
    return f"{rel} {st.st_mode} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}"


def walk(root: str, *, defer: bool) -> list[Entry] | None:
    """Every file and folder under .memory/, each folder followed by its entries, in name
    order; None when one cannot be read. With `defer`, memory files (those the store
    loads: memkit.walk.memory_entries) are listed without a stat: the load takes theirs."""
    out: list[Entry] = []
    ok = _entries_of(os.path.join(root, MEMORY_DIR), "", defer, out)
    return out if ok else None


def _entries_of(folder: str, prefix: str, loaded: bool, out: list[Entry]) -> bool:
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=_NAME)
    except FileNotFoundError:
        return True
    except OSError:  # unreadable: nothing can be known about it
        return False
    for entry in entries:
        name, rel = entry.name, prefix + entry.name
        is_dir = entry.is_dir(follow_symlinks=False)
        hidden = name.startswith(".")
        memory = loaded and not hidden and not is_dir and name.endswith(".md")
        if memory and entry.is_file(follow_symlinks=False):
            out.append((rel, None))
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            return False  # going away while we look
        out.append((rel, st))
        if is_dir:
            inner = loaded and not hidden and not (not prefix and name in SKIP_DIRS)
            if not _entries_of(entry.path, rel + "/", inner, out):
                return False
    return True


def _tree_lines(entries: list[Entry]) -> list[str]:
    return [_line(rel, st) for rel, st in entries if st is not None]


def memory_tree(root: str) -> tuple[list[str], bool]:
    """Every file and folder under .memory/ with its stamp; whether all could be read."""
    entries = walk(root, defer=False)
    return ([], False) if entries is None else (_tree_lines(entries), True)


def file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def tree_key(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()


def same_tree(root: str, tree: object, fresh: object) -> bool:
    """Whether .memory/ is as recorded: the digest of its stamps (`tree`) the same and,
    for each file recorded while too new to trust its stamp (`fresh`: path -> SHA-256),
    the bytes the same too."""
    if not isinstance(tree, str) or not isinstance(fresh, dict):
        return False
    lines, ok = memory_tree(root)
    if not ok or tree_key(lines) != tree:
        return False
    return all(
        isinstance(rel, str) and file_digest(os.path.join(root, MEMORY_DIR, rel)) == digest
        for rel, digest in fresh.items()
    )
