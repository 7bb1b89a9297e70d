"""Which instruction files each agent loads, found anywhere in the tree, and what is skipped.

A `Source` is one file with its format (`kind`) and the folder it applies to: a
nested CLAUDE.md, AGENTS.md or GEMINI.md applies to its folder, and so do the rules
of a nested `.cursor/rules/`. Folders git ignores, dependency folders and `.memory/`
are not searched. A symbolic link to a file found anyway is read once (from the
file, or from the link when the target is in no place an agent reads); a link
leading out of the repository is skipped with the reason.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memkit.errors import MemkitError

# kind: (pattern on the path relative to the folder searched, whether `@path` imports)
_KINDS: tuple[tuple[str, str, bool], ...] = (
    ("claude", r"(?:.*/)?(?:\.claude/)?CLAUDE\.md", True),
    ("agents", r"(?:.*/)?AGENTS\.md", False),
    ("gemini", r"(?:.*/)?GEMINI\.md", True),
    ("claude-rule", r"(?:.*/)?\.claude/rules/.+\.md", True),
    ("cursor-rule", r"(?:.*/)?\.cursor/rules/.+\.mdc", False),
    ("cursorrules", r"\.cursorrules", False),
    ("copilot", r"\.github/copilot-instructions\.md", False),
    ("copilot-rule", r"\.github/instructions/.+\.instructions\.md", False),
    ("cline", r"\.clinerules(?:/.+\.md)?", False),
    ("windsurf-rule", r"\.windsurf/rules/.+\.md", False),
    ("windsurfrules", r"\.windsurfrules", False),
    ("kiro", r"\.kiro/steering/.+\.md", False),
    ("roo", r"\.roo/rules(?:-[\w-]+)?/.+\.md", False),
    ("memory-bank", r"memory-bank/.+\.md", False),
)
_MATCH = [(k, re.compile(p), imports) for k, p, imports in _KINDS]
# Files memkit compiles a marked section into (the others are rule files or no target's).
SHARED_KINDS = frozenset({"claude", "agents", "gemini", "copilot"})
# Folders an agent would never load instructions from.
SKIP_DIRS = frozenset({".git", ".memory", "node_modules", ".venv", "venv", "__pycache__",
                       ".tox", ".mypy_cache", ".pytest_cache", "site-packages"})  # fmt: skip
_RULE_DIRS = re.compile(
    r"(?:^|/)(?:\.claude/rules|\.cursor/rules|\.github/instructions|"
    r"\.clinerules|\.windsurf/rules|\.kiro/steering|\.roo/rules[\w-]*)/"
)


@dataclass(frozen=True)
class Source:
    """One instruction file: where it was found (links not resolved) and its format."""

    rel: str  # relative to the repository root, as found
    path: Path  # absolute, as found
    kind: str  # a key of _KINDS, or "markdown" for a file named outright
    imports: bool  # `@path` lines import files
    folder: str  # the folder it applies to ("" = the whole repository)


@dataclass(frozen=True)
class Skipped:
    rel: str
    why: str
    same_as: str = ""  # the source read instead (the same file, through a link)


def kind_of(rel: str) -> tuple[str, bool] | None:
    """The format of an instruction file at `rel` (relative to the root), if it is one."""
    for kind, pattern, imports in _MATCH:
        if pattern.fullmatch(rel):
            return kind, imports
    return None


def folder_of(rel: str, kind: str) -> str:
    """The folder a file applies to: nested agent files and nested `.cursor/rules`."""
    if kind in ("claude", "agents", "gemini"):
        folder = rel.rpartition("/")[0]
        return folder.removesuffix("/.claude").removesuffix(".claude")
    if kind in ("cursor-rule", "claude-rule"):
        marker = "/.cursor/rules/" if kind == "cursor-rule" else "/.claude/rules/"
        return ("/" + rel).partition(marker)[0].lstrip("/")
    return ""


def discover(
    root: Path, given: list[Path], ignored: Callable[[str], bool] = lambda rel: False
) -> tuple[list[Source], list[Skipped]]:
    """Every instruction file named by `given` (files, or folders searched through)."""
    found: list[tuple[str, Path, bool]] = []  # rel, path, named outright
    for path in given:
        if not os.path.lexists(path):
            raise MemkitError(f"{path} does not exist; give an instruction file or a folder")
        if path.is_dir():
            found += [(r, p, False) for r, p in _walk(root, Path(os.path.abspath(path)), ignored)]
        else:
            found.append((_rel(root, path), Path(os.path.abspath(path)), True))
    sources, skipped = _classify(root, found)
    if not sources and not skipped and given:
        raise MemkitError(
            f"{', '.join(map(str, given))} holds no known instruction file (CLAUDE.md, "
            "AGENTS.md, GEMINI.md, .cursor/rules/, .github/copilot-instructions.md, "
            ".clinerules, ...); name the files"
        )
    return sources, skipped


def _walk(root: Path, top: Path, ignored: Callable[[str], bool]) -> Iterator[tuple[str, Path]]:
    seen: set[str] = set()
    stack = [top]
    while stack:
        folder = stack.pop()
        real = os.path.realpath(folder)
        if real in seen:
            continue
        seen.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            path = Path(e.path)
            rel = _rel(root, path)
            if e.is_dir():  # follows a link to a folder: agents do
                if e.name not in SKIP_DIRS and not ignored(rel + "/"):
                    stack.append(path)
            elif (kind_of(rel) is not None or _RULE_DIRS.search(rel)) and not ignored(rel):
                yield rel, path


def _classify(
    root: Path, found: list[tuple[str, Path, bool]]
) -> tuple[list[Source], list[Skipped]]:
    top = os.path.realpath(root)
    sources: dict[str, Source] = {}  # real path -> source
    skipped: list[Skipped] = []
    same: dict[str, list[Source]] = {}  # real path -> the ways it was found
    named = {rel for rel, _, outright in found if outright}  # named and found: named
    for rel, path in sorted({(rel, path) for rel, path, _ in found}):
        kind = kind_of(rel) or (("markdown", False) if rel in named else None)
        if kind is None:
            why = "not markdown: memkit imports the markdown files of a rules folder"
            skipped.append(Skipped(rel, why))
            continue
        real = os.path.realpath(path)
        if real != top and not real.startswith(top + os.sep) and path.is_relative_to(root):
            skipped.append(Skipped(rel, f"a symbolic link to {real}, outside the repository"))
            continue
        src = Source(rel, path, kind[0], kind[1], folder_of(rel, kind[0]))
        same.setdefault(real, []).append(src)
    for real, found_as in same.items():
        # Read once, from where it applies most widely: `AGENTS.md -> .agents/AGENTS.md`
        # applies to the whole repository; then as a file memkit writes a section into
        # (`AGENTS.md -> .clinerules/x.md` is AGENTS.md: compile writes there, and
        # adoption must take the text out of it); `CLAUDE.md -> AGENTS.md` is AGENTS.md.
        found_as.sort(
            key=lambda s: (_depth(s), s.kind not in SHARED_KINDS, _hops(s.path), _order(s))
        )
        sources[real] = chosen = found_as[0]
        for other in found_as[1:]:
            why = f"the same file as {chosen.rel}: read once, from there"
            skipped.append(Skipped(other.rel, why, chosen.rel))
    return sorted(sources.values(), key=_order), sorted(skipped, key=lambda s: s.rel)


def _hops(path: Path) -> int:
    """How many symbolic links lead from `path` to its file (at most 40)."""
    n = 0
    while n < 40 and os.path.islink(path):
        path = path.parent / os.readlink(path)
        n += 1
    return n


def _depth(s: Source) -> int:
    return s.folder.count("/") + 1 if s.folder else 0


def _order(s: Source) -> tuple[int, int, str]:
    """Files for the whole repository first (CLAUDE.md, AGENTS.md, ... rules), then nested
    ones by folder depth; by format, then path, within each."""
    rank = [k for k, _, _ in _KINDS].index(s.kind) if s.kind != "markdown" else len(_KINDS)
    return (_depth(s), rank, s.rel)


def _rel(root: Path, path: Path) -> str:
    """The path as found (links not resolved), relative to the root when inside it."""
    lexical = Path(os.path.abspath(path))
    try:
        return lexical.relative_to(Path(os.path.abspath(root))).as_posix()
    except ValueError:
        return path.name
