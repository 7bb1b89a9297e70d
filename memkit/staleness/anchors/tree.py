"""The files of a project: git's tracked paths, or a walk that skips what tools generate."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SKIP_DIRS = frozenset(
    {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", "dist", "build"}
)
MAX_WALK = 200_000


def walk_files(root: Path) -> list[str]:
    """Files under `root` (relative, `/`-separated, sorted), without generated folders."""
    out: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        rel = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        out.extend(prefix + f for f in files)
        if len(out) > MAX_WALK:
            break
    return sorted(out)


def project_files(root: Path, repo: Any | None) -> list[str]:
    """Paths relative to `root`: the index's entries under it when in git, else a walk."""
    if repo is None or repo.workdir is None:
        return walk_files(root)
    from memkit.git import prefix as prefix_of
    from memkit.git import tracked_paths

    prefix = prefix_of(repo, root)
    return [p[len(prefix) :] for p in tracked_paths(repo) if p.startswith(prefix)]
