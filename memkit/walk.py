"""The walks every reader shares: up to the project root, and down the memory files.

find_up finds the project (MEMKIT_ROOT, else the nearest directory holding `.memory/`
or `.git`); memory_entries lists the memory files under `.memory/`; tree_entries lists
everything there with its stamp (memkit.compile.tree digests it). Standard library
only (the git hook's fast path uses it) and plain strings with os.scandir: pathlib
costs ~30 us a file, which dominates at 10,000 memories.
"""

from __future__ import annotations

import os
from stat import S_ISREG

TYPE_CHECKING = False  # no typing/collections imports: this runs on every commit
if TYPE_CHECKING:
    from collections.abc import Iterator

MEMORY_DIR = ".memory"
SKIP_DIRS = frozenset({"templates"})  # .memory/templates/ holds template overrides
ROOT_ENV = "MEMKIT_ROOT"  # names the project root outright: no walk


def find_up(start: str, marker: str = MEMORY_DIR) -> str | None:
    """The project root: $MEMKIT_ROOT, else the nearest directory at or above `start`
    holding `marker`, else None. Both resolved to real absolute paths.

    `marker` is MEMORY_DIR (a store: it must be a directory) or ".git" (a work tree:
    a file in linked worktrees and submodules, so anything of that name counts).
    """
    env = os.environ.get(ROOT_ENV)
    if env:
        return os.path.realpath(env)
    found = os.path.isdir if marker == MEMORY_DIR else os.path.exists
    here = os.path.realpath(start)
    while True:
        if found(os.path.join(here, marker)):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def undecodable(name: str) -> bool:
    """Whether a file name (as os.fsdecode gives it) is not UTF-8: it carries surrogates,
    which no JSON record, SQLite index or git path memkit writes can hold."""
    if name.isascii():
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def shown(name: str) -> str:
    """A file name for messages: its bytes that are not UTF-8 as `\\xNN`."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def memory_entries(
    root: str, bad: list[str] | None = None
) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """(path relative to `root`, entry) of every `*.md` under root/.memory, in no order.

    Names starting with a dot (caches, temp files) are skipped and directories are
    never entered through symlinks. A `*.md` entry is either a regular file or a
    symlink (`entry.is_symlink()`): callers must never read the latter, since it
    could point outside the repository. A missing directory yields nothing. A file
    or folder whose name is not UTF-8 is never yielded (nothing downstream could
    store its name): `bad` receives it, shown (see `shown`), for the callers that
    report it (Store.load makes it a problem).
    """
    stack = [(os.path.join(root, MEMORY_DIR), MEMORY_DIR)]
    while stack:
        full_dir, rel_dir = stack.pop()
        try:
            entries = list(os.scandir(full_dir))
        except OSError:
            continue
        for e in entries:
            name = e.name
            if name.startswith("."):
                continue
            if not name.isascii() and undecodable(name):
                if bad is not None and (name.endswith(".md") or e.is_dir(follow_symlinks=False)):
                    bad.append(f"{rel_dir}/{shown(name)}")
                continue
            if e.is_dir(follow_symlinks=False):
                if not (rel_dir == MEMORY_DIR and name in SKIP_DIRS):
                    stack.append((e.path, f"{rel_dir}/{name}"))
            elif name.endswith(".md") and (e.is_symlink() or e.is_file(follow_symlinks=False)):
                yield f"{rel_dir}/{name}", e


# One entry of .memory/: (path under .memory/, its lstat or None while a memory file's
# stamp is to come from the store's load).
Entry = tuple[str, "os.stat_result | None"]


def tree_entries(
    root: str, *, defer: bool, stamps: dict[str, list[int]] | None = None
) -> list[Entry] | None:
    """Every file and folder under .memory/, each folder followed by its entries, in name
    order; None when one cannot be read. With `defer`, memory files (those the store
    loads: memory_entries) are listed without a stat: the load takes theirs. `stamps`,
    when given (and not `defer`), receives {".memory/PATH": [size, mtime_ns]} of every
    memory file that is a regular file, as the listing goes.

    Each folder is opened once and its entries are looked at relative to it (a stat
    by name in an open folder, not by a path walked from the root again): the git
    hook lists 1,000 memory files on every commit, 12% faster so."""
    out: list[Entry] = []
    ok = _folder_entries(None, os.path.join(root, MEMORY_DIR), "", True, defer, out, stamps)
    return out if ok else None


_BY_FD = os.scandir in os.supports_fd and os.stat in os.supports_dir_fd
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def _entries_at(
    folder: int | str,
    prefix: str,
    area: bool,
    defer: bool,
    out: list[Entry],
    stamps: dict[str, list[int]] | None,
) -> bool:
    """List `folder` (an open folder's descriptor, or a path) into `out`; `area`: inside
    where memory files live (no hidden folder on the way, not .memory/templates)."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except FileNotFoundError:
        return True
    except OSError:  # unreadable: nothing can be known about it
        return False
    memories = f"{MEMORY_DIR}/{prefix}"
    for entry in entries:
        name = entry.name
        if not name.isascii() and undecodable(name):
            continue  # never a memory (memory_entries reports it): nothing records its name
        rel = prefix + name
        is_dir = entry.is_dir(follow_symlinks=False)
        memory = area and not is_dir and name[0] != "." and name.endswith(".md")
        if memory and defer and entry.is_file(follow_symlinks=False):
            out.append((rel, None))
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            return False  # going away while we look
        out.append((rel, st))
        if memory and stamps is not None and S_ISREG(st.st_mode):
            stamps[memories + name] = [st.st_size, st.st_mtime_ns]
        if is_dir:
            inner = area and name[0] != "." and not (not prefix and name in SKIP_DIRS)
            if not _folder_entries(folder, name, rel + "/", inner, defer, out, stamps):
                return False
    return True


def _folder_entries(
    parent: int | str | None,
    name: str,
    prefix: str,
    area: bool,
    defer: bool,
    out: list[Entry],
    stamps: dict[str, list[int]] | None,
) -> bool:
    """_entries_at for the folder `name` in `parent`, opened by name in the open parent,
    never through a link (one swapped in meanwhile fails to open, and the listing is
    unknown); with `parent` None, `name` is .memory/'s path, which may be a link, as
    os.scandir(path) would follow it. A folder that is not there lists nothing."""
    if isinstance(parent, str):  # pragma: no cover - no scandir on descriptors (_BY_FD)
        return _entries_at(os.path.join(parent, name), prefix, area, defer, out, stamps)
    if parent is None and not _BY_FD:  # pragma: no cover - the same
        return _entries_at(name, prefix, area, defer, out, stamps)
    flags = _DIR_FLAGS if parent is not None else _DIR_FLAGS & ~_NOFOLLOW
    try:
        fd = os.open(name, flags, dir_fd=parent)
    except FileNotFoundError:
        return True
    except OSError:  # not a folder, unreadable: nothing can be known about it
        return False
    try:
        return _entries_at(fd, prefix, area, defer, out, stamps)
    finally:
        os.close(fd)
