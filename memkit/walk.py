"""The one listing of memory files every reader shares.

Standard library only (the git hook's fast path uses it) and plain strings with
os.scandir: pathlib costs ~30 us a file, which dominates at 10,000 memories.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # no typing/collections imports: this runs on every commit
if TYPE_CHECKING:
    from collections.abc import Iterator

MEMORY_DIR = ".memory"
SKIP_DIRS = frozenset({"templates"})  # .memory/templates/ holds template overrides


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
