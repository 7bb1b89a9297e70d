"""The stamps of everything under .memory/, for memkit.compile.current.

`stamp_line` gives an entry of `.memory/` (memkit.walk.tree_entries lists them, each
folder followed by its entries, in name order) with its mode, size, mtime, ctime and
inode; `tree_key` digests those lines. `same_tree` compares today's tree with a recorded
digest of it and the recorded bytes of files too new to trust their stamp. Standard
library only.
"""

from __future__ import annotations

import os
from hashlib import sha256
from stat import S_ISDIR, S_ISREG

from memkit.walk import MEMORY_DIR, Entry, tree_entries


def stamp_line(rel: str, st: os.stat_result) -> str:
    """An entry of .memory/ with its stamp: one line of what tree_key digests."""
    return f"{rel} {st.st_mode} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}"


MAX_HASHED = 16 * 1024 * 1024  # bigger than compile reads (an output, a template, a memory)
_READ = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def content_state(path: str) -> str:
    """What is at `path`: "absent", "dir", "other MODE", "big SIZE MTIME" (over
    MAX_HASHED: never read), "error ERRNO", or "file SHA-256". A final link is not
    followed (an error), a FIFO never blocks, and the checks are made on the open file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "absent"
    except OSError as e:
        return f"error {e.errno}"
    if S_ISDIR(st.st_mode):
        return "dir"
    if not S_ISREG(st.st_mode):
        return f"other {st.st_mode}"
    if st.st_size > MAX_HASHED:
        return f"big {st.st_size} {st.st_mtime_ns}"
    try:
        fd = os.open(path, _READ)
    except OSError as e:
        return f"error {e.errno}"
    try:  # what was stat'ed may have been replaced since: check what is open
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode) or st.st_size > MAX_HASHED:
            return f"other {st.st_mode}"
        h, size = sha256(), 0
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
            size += len(chunk)
            if size > MAX_HASHED:  # it grew while read: not one compile can use
                return f"big {size} {st.st_mtime_ns}"
        return "file " + h.hexdigest()
    except OSError as e:
        return f"error {e.errno}"
    finally:
        os.close(fd)


def file_digest(path: str) -> str | None:
    """The SHA-256 of a regular file's bytes; None for anything else (content_state),
    which is never current."""
    state = content_state(path)
    return state[5:] if state.startswith("file ") else None


def tree_key(lines: list[str]) -> str:
    return sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()


def same_tree(root: str, tree: object, fresh: object, entries: list[Entry] | None = None) -> bool:
    """Whether .memory/ is as recorded: the digest of its stamps (`tree`) the same and,
    for each file recorded while too new to trust its stamp (`fresh`: path -> SHA-256),
    the bytes the same too. `entries`: the tree as the caller just listed it."""
    if not isinstance(tree, str) or not isinstance(fresh, dict):
        return False
    if entries is None:
        entries = tree_entries(root, defer=False)
    if entries is None or tree_key([stamp_line(r, st) for r, st in entries if st]) != tree:
        return False
    return all(
        isinstance(rel, str) and file_digest(os.path.join(root, MEMORY_DIR, rel)) == digest
        for rel, digest in fresh.items()
    )
