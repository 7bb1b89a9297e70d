"""Where agents keep what they remembered on their own, for one project (`memkit import --harvest`).

As each maker documents it (sources in docs/agents.md): Claude Code's auto memory,
`<config>/projects/<project>/memory/` (`<config>`: $CLAUDE_CONFIG_DIR or ~/.claude;
`<project>`: the main work tree's path, each character not a letter or digit turned to
`-`, cut at 200 with a hash suffix), moved by `autoMemoryDirectory` in the user's own
settings only; CLAUDE.local.md files; Gemini CLI's `## Gemini Added Memories` in
~/.gemini/GEMINI.md and its per-project `~/.gemini/tmp/<id>/memory/`; Cline's and Roo
Code's memory-bank/. This module only lists files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memkit.agents.adopt.sources import SKIP_DIRS
from memkit.cachedir import git_dir

MAX_SETTINGS = 1024 * 1024
_CLAUDE_NAME_MAX = 200  # Claude Code cuts a longer project name and adds a hash


@dataclass(frozen=True)
class Place:
    """One file an agent wrote its memories into."""

    agent: str  # claude-auto-memory | claude-local | gemini | gemini-project | memory-bank
    path: Path  # absolute, as found
    label: str  # shown to a person: relative to the repository, or `~/...`
    source: str  # the provenance recorded in a draft (no home folder in it)
    inside: bool  # in the repository (read through the safe-path layer)


def claude_project_name(path: str) -> str:
    """The folder name Claude Code gives a project under `<config>/projects/`."""
    return re.sub(r"[^a-zA-Z0-9]", "-", path)


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def _label(path: Path, home: Path) -> str:
    try:
        return "~/" + path.relative_to(home).as_posix()
    except ValueError:
        return str(path)


def _user_setting(settings: Path, trees: tuple[Path, ...]) -> Path | None:
    """`autoMemoryDirectory` from the user's own Claude Code settings, never from a file of
    the work tree: a committed `.claude/settings.local.json` (or a config folder inside the
    repository) naming a folder outside would have `--harvest` read it into drafts."""
    from memkit.fsutil import read_regular

    real = Path(os.path.realpath(settings))
    if any(real.is_relative_to(os.path.realpath(t)) for t in trees):
        return None
    try:
        data = json.loads(read_regular(settings, limit=MAX_SETTINGS, what=str(settings)))
    except (OSError, ValueError, UnicodeDecodeError):
        return None  # no file, or unreadable: Claude Code ignores it too
    value = data.get("autoMemoryDirectory") if isinstance(data, dict) else None
    if not isinstance(value, str) or not value.strip():
        return None
    found = Path(os.path.expanduser(value.strip())) if value.startswith("~") else Path(value)
    return found if found.is_absolute() else trees[-1] / found


def claude_memory_dirs(main_root: Path, root: Path, env: Mapping[str, str]) -> list[Path]:
    """Claude Code's auto-memory folders for the project (the first that exists wins)."""
    home = _home(env)
    config = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home / ".claude"
    if env.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"):
        return [Path(env["CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"])]
    chosen = _user_setting(config / "settings.json", (main_root, root))
    if chosen is not None:
        return [chosen]
    projects = config / "projects"
    dirs = []
    for top in dict.fromkeys((str(main_root), str(root))):
        name = claude_project_name(top)
        if len(name) <= _CLAUDE_NAME_MAX:
            dirs.append(projects / name / "memory")
            continue
        try:
            long = sorted(p for p in projects.iterdir() if p.name.startswith(name[:200] + "-"))
        except OSError:
            long = []
        dirs += [p / "memory" for p in long]
    return dirs


def gemini_memory_dirs(root: Path, env: Mapping[str, str]) -> list[Path]:
    """Gemini CLI's per-project memory folders for `root` (registry name, or old hash)."""
    from memkit.fsutil import read_regular

    gemini = _home(env) / ".gemini"
    ids: list[str] = []
    try:
        reg = json.loads(read_regular(gemini / "projects.json", limit=MAX_SETTINGS, what="x"))
        slug = reg.get("projects", {}).get(str(root)) if isinstance(reg, dict) else None
        if isinstance(slug, str) and "/" not in slug and slug not in (".", ".."):
            ids.append(slug)
    except (OSError, ValueError, UnicodeDecodeError, AttributeError):
        pass
    ids.append(hashlib.sha256(str(root).encode("utf-8")).hexdigest())
    return [gemini / "tmp" / i / "memory" for i in dict.fromkeys(ids)]


def _markdown_in(folder: Path, limit: int = 500) -> list[Path]:
    """The markdown files of an agent's memory folder (and its subfolders), sorted."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        found += [Path(dirpath) / f for f in sorted(filenames) if f.endswith(".md")]
        if len(found) >= limit:
            break
    return found[:limit]


def _local_files(root: Path) -> list[Path]:
    """Every CLAUDE.local.md in the repository (git-ignored ones included: they are)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        if "CLAUDE.local.md" in filenames:
            found.append(Path(dirpath) / "CLAUDE.local.md")
    return sorted(found)


def git_roots(root: Path) -> tuple[Path, Path]:
    """The work tree holding `root`, and the main work tree (Claude Code keys auto memory
    on it, so linked worktrees share one memory); `root` twice outside git. A `.git` that
    is a symbolic link is not followed (memkit.cachedir.git_dir): its folder is both."""
    top = root.resolve()
    for folder in (top, *top.parents):
        dotgit = folder / ".git"
        if not (dotgit.is_dir() or dotgit.is_file()):
            continue
        gitdir = git_dir(str(folder))
        if gitdir is None:
            return folder, folder
        try:
            main = Path(gitdir, Path(gitdir, "commondir").read_text("utf-8").strip()).resolve()
        except (OSError, UnicodeDecodeError):  # a main work tree's .git has no commondir
            return folder, folder
        return folder, main.parent if main.name == ".git" else folder
    return top, top


def _first_folder(agent: str, folders: list[Path], home: Path) -> list[Place]:
    """The markdown files of the first of an agent's `folders` that exists."""
    for folder in folders:
        if folder.is_dir():
            return [
                Place(
                    agent, f, _label(f, home), f"{agent}:{f.relative_to(folder).as_posix()}", False
                )
                for f in _markdown_in(folder)
            ]
    return []


def locate(root: Path, main_root: Path, env: Mapping[str, str]) -> list[Place]:
    """Every file, in a stable order, where an agent kept memories for this project."""
    home = _home(env)
    places = _first_folder("claude-auto-memory", claude_memory_dirs(main_root, root, env), home)
    for f in _local_files(root):
        rel = f.relative_to(root).as_posix()
        places.append(Place("claude-local", f, rel, rel, True))
    for name in ("GEMINI.md", "memory.md"):
        f = home / ".gemini" / name
        if f.is_file():
            places.append(Place("gemini", f, _label(f, home), f"gemini:{name}", False))
    places += _first_folder("gemini-project", gemini_memory_dirs(root, env), home)
    bank = root / "memory-bank"
    if bank.is_dir() and not bank.is_symlink():
        for f in _markdown_in(bank):
            rel = f.relative_to(root).as_posix()
            places.append(Place("memory-bank", f, rel, rel, True))
    return places
