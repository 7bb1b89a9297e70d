"""The personal store: one person's memories, in a git repository of their own.

It lives in `$MEMKIT_USER_STORE`, else `$XDG_CONFIG_HOME/memkit/personal`, else
`~/.config/memkit/personal`, and is an ordinary memkit project (`.memory/` in a git
repository) that `memkit --user ...` works on. It is compiled into the agents'
user-level files, between memkit's markers, never into a project's committed files.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.errors import MemkitError

if TYPE_CHECKING:
    import datetime as dt

    from memkit.store import Store

# Agents' documented user-level instruction files, relative to the home folder.
USER_FILES: dict[str, str] = {
    "claude": ".claude/CLAUDE.md",  # Claude Code: user memory
    "codex": ".codex/AGENTS.md",  # Codex: global AGENTS.md in CODEX_HOME
    "gemini": ".gemini/GEMINI.md",  # Gemini CLI: global context file
    "opencode": ".config/opencode/AGENTS.md",  # opencode: global rules
}


def root() -> Path:
    """Where the personal store is (not created here)."""
    if override := os.environ.get("MEMKIT_USER_STORE"):
        return Path(override).expanduser().resolve()
    config = os.environ.get("XDG_CONFIG_HOME")
    base = Path(config) if config and os.path.isabs(config) else Path.home() / ".config"
    return (base / "memkit" / "personal").resolve()


def ensure(path: Path) -> bool:
    """Create the personal store (a git repository with `.memory/`) if it is missing;
    True when it was created."""
    from memkit.store import init

    if (path / ".memory").is_dir():
        return False
    path.mkdir(parents=True, exist_ok=True)
    if not (path / ".git").exists():
        done = subprocess.run(
            ["git", "init", "--quiet", str(path)], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise MemkitError(f"cannot create the personal store at {path}: {done.stderr.strip()}")
    init(path)
    return True


@dataclass(frozen=True)
class UserFile:
    agent: str
    path: Path
    old: str | None
    new: str | None

    @property
    def changed(self) -> bool:
        return self.old != self.new


def plan_user_files(section: str | None, home: Path) -> list[UserFile]:
    """The user-level files with memkit's section replaced by `section` (hand-written
    text outside the markers kept byte for byte), of the agents whose folder exists."""
    from memkit.compile.markers import splice

    out = []
    for agent, rel in USER_FILES.items():
        path = home / rel
        if not path.parent.is_dir():
            continue  # that agent is not installed for this user
        old = path.read_text("utf-8") if path.is_file() else None
        out.append(UserFile(agent, path, old, splice(old, section, str(path))))
    return out


def apply(files: list[UserFile]) -> list[str]:
    """Write the changed files atomically (through a link to the file it names)."""
    from memkit.fsutil import atomic_write

    done = []
    for f in files:
        if not f.changed:
            continue
        target = Path(os.path.realpath(f.path))
        if f.new is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, f.new.encode("utf-8"), fsync=False)
        done.append(str(f.path))
    return done


def section(store: Store, today: dt.date) -> str | None:
    """memkit's section of the personal store's memories, as compiled for AGENTS.md."""
    from memkit.compile.markers import inner, locate
    from memkit.compile.plan import plan

    built = plan(store, today=today, targets=("agents",))
    change = next((f for f in built.files if f.path == "AGENTS.md"), None)
    if change is None or change.new is None:
        return None
    text = change.new.decode("utf-8")
    span = locate(text, "AGENTS.md")
    return inner(text, span) if span else None
