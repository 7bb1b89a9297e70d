"""The memories Claude Code loads by itself: compiled into CLAUDE.md (and the files it
imports with `@file`) or into .claude/rules/, each marked by a `<!-- memkit:id=ID -->`
line. SessionStart and the point-of-action hooks leave these out.
"""

from __future__ import annotations

import os

from memkit.agents.claude.loaded import FALLBACK, FULL, IMPORT, MAX_DEPTH, RULES_DIR

TYPE_CHECKING = False  # SessionStart imports this: pathlib only where a path is made
if TYPE_CHECKING:
    from pathlib import Path

MAX_RULE = 1024 * 1024
MAX_IMPORTED = 4 * 1024 * 1024  # a file CLAUDE.md imports, read for memkit's own ids


def compiled_ids(root: Path, read: list[str] | None = None) -> set[str]:
    """Ids of the memories compiled in full into what Claude Code loads at startup.
    Reads the `<!-- memkit:id=ID -->` provenance lines of CLAUDE.md (and
    .claude/CLAUDE.md; AGENTS.md when neither exists), following their `@file`
    imports as Claude Code does. The imported files read are added to `read`
    (relative paths) when given."""
    from pathlib import Path

    from memkit.errors import MemkitError
    from memkit.fsutil import read_inside

    ids: set[str] = set()
    todo = [(root / "CLAUDE.md", 0), (root / ".claude" / "CLAUDE.md", 0)]
    if not any(p.is_file() for p, _ in todo):
        todo = [(root / FALLBACK, 0)]  # Claude Code reads AGENTS.md when there is no CLAUDE.md
    seen: set[Path] = set()
    while todo:
        path, depth = todo.pop()
        if path in seen or depth > MAX_DEPTH or not path.is_relative_to(root):
            continue  # memkit compiles only inside the project; `@~/x` is not its file
        seen.add(path)
        try:
            text = read_inside(root, path.relative_to(root), limit=MAX_IMPORTED).decode("utf-8")
        except (OSError, UnicodeDecodeError, MemkitError):
            continue  # missing, a link out, a FIFO or device, too big: not memkit's file
        if read is not None:
            read.append(path.relative_to(root).as_posix())
        ids.update(FULL.findall(text))
        for target in IMPORT.findall(text):
            todo.append((Path(os.path.normpath(path.parent / target)), depth + 1))
    return ids


def compiled(root: str) -> tuple[set[str], set[str], list[str]]:
    """(ids compiled into CLAUDE.md and its imports, ids in .claude/rules/, files read)."""
    from pathlib import Path

    from memkit.fsutil import read_inside

    files: list[str] = []
    claude = compiled_ids(Path(root), read=files)
    rules: set[str] = set()
    try:
        names = sorted(e.name for e in os.scandir(os.path.join(root, RULES_DIR)))
    except OSError:
        names = []
    for name in names:
        if name.endswith(".md"):
            rel = f"{RULES_DIR}/{name}"
            files.append(rel)
            try:
                text = read_inside(Path(root), rel, limit=MAX_RULE).decode("utf-8", "replace")
            except Exception:
                continue
            rules.update(FULL.findall(text))
    return claude, rules, files
