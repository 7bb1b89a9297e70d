"""The two walks every reader shares: up to the project root, and down the memory files.

find_up finds the project (MEMKIT_ROOT, else the nearest directory holding `.memory/`
or `.git`); memory_entries lists the memory files under `.memory/`. Standard library
only (the git hook's fast path uses it) and plain strings with os.scandir: pathlib
costs ~30 us a file, which dominates at 10,000 memories.
"""

from __future__ import annotations

import os

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


def memory_entries(root: str) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """(path relative to `root`, entry) of every `*.md` under root/.memory, in no order.

    Names starting with a dot (caches, temp files) are skipped and directories are
    never entered through symlinks. A `*.md` entry is either a regular file or a
    symlink (`entry.is_symlink()`): callers must never read the latter, since it
    could point outside the repository. A missing directory yields nothing.
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
            if e.is_dir(follow_symlinks=False):
                if not (rel_dir == MEMORY_DIR and name in SKIP_DIRS):
                    stack.append((e.path, f"{rel_dir}/{name}"))
            elif name.endswith(".md") and (e.is_symlink() or e.is_file(follow_symlinks=False)):
                yield f"{rel_dir}/{name}", e
