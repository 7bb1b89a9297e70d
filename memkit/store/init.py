"""Creating a store: where `memkit init` puts `.memory/`, and what it writes there.

init makes `.memory/` with a commented config.toml and a .gitignore (GITIGNORE) that
keeps interrupted writes' temp files and memkit's derived data out of git.
"""

from __future__ import annotations

import os
from pathlib import Path

from memkit.fsutil import atomic_write, create_new, read_inside, write_target
from memkit.walk import MEMORY_DIR, find_up

GITIGNORE = (
    "# temp files of writes that were interrupted\n.*.tmp\n"
    "# memkit's derived data (parse cache, search index, session journals)\n.cache/\n"
)


def default_root(start: Path | None = None) -> Path:
    """Where `memkit init` puts .memory/: MEMKIT_ROOT, else the git work tree's top, else cwd."""
    here = (start or Path.cwd()).resolve()
    found = find_up(str(here), ".git")
    return Path(found) if found else here


def init(root: Path) -> list[str]:
    """Create .memory/ with a commented config and a .gitignore (idempotent); list what it made."""
    from memkit.config import CONFIG_NAME
    from memkit.fsutil import inside
    from memkit.resources import read_template

    mdir = root / MEMORY_DIR
    made: list[str] = []
    if os.path.lexists(mdir):
        inside(root, mdir, f"{MEMORY_DIR}/")  # a link out of the repository is refused
    if not mdir.is_dir():
        mdir.mkdir(parents=True)
        made.append(f"{MEMORY_DIR}/")
    if create_new(mdir / CONFIG_NAME, read_template("config.toml").encode("utf-8")):
        made.append(f"{MEMORY_DIR}/{CONFIG_NAME}")
    ignore = mdir / ".gitignore"
    try:  # a link is refused: never read (or copied) from elsewhere, never written through
        write_target(root, f"{MEMORY_DIR}/.gitignore", forbidden=())
        current = read_inside(root, f"{MEMORY_DIR}/.gitignore", limit=1024 * 1024).decode("utf-8")
    except FileNotFoundError:
        current = None
    if current is None:
        create_new(ignore, GITIGNORE.encode("utf-8"))
        made.append(f"{MEMORY_DIR}/.gitignore")
    elif ".cache/" not in current.split():
        sep = "" if current.endswith("\n") or not current else "\n"
        atomic_write(ignore, (current + sep + GITIGNORE).encode("utf-8"))
        made.append(f"{MEMORY_DIR}/.gitignore (added .cache/)")
    return made
