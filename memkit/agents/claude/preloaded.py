"""The memories Claude Code loads by itself: compiled into CLAUDE.md (and the files it
imports with `@file`) or into .claude/rules/, each marked by a `<!-- memkit:id=ID -->`
line. SessionStart and the point-of-action hooks leave these out. The files are those of
memkit.agents.claude.loaded's walk, for a session started in the root.
"""

from __future__ import annotations

import os

from memkit.agents.claude.loaded import FULL, rules, start_files

TYPE_CHECKING = False  # SessionStart imports this: not even `typing`
if TYPE_CHECKING:
    from collections.abc import Iterable


def compiled_ids(root: str | os.PathLike[str]) -> set[str]:
    """Ids of the memories compiled in full into what Claude Code loads at startup:
    the `<!-- memkit:id=ID -->` lines of CLAUDE.md, .claude/CLAUDE.md (AGENTS.md when
    neither exists) and the files they import (loaded.start_files)."""
    top = os.fspath(root)
    return _ids(data for _, data in start_files(top, top))


def compiled(root: str) -> tuple[set[str], set[str], list[str]]:
    """(ids compiled into CLAUDE.md and its imports, ids in .claude/rules/, every path
    looked at: each file read or tried, the rules' folders)."""
    found = start_files(root, root)
    looked = [rel for rel, _ in found]
    ruled = _ids(data for _, data, _ in rules(root, looked))
    return _ids(data for _, data in found), ruled, looked


def _ids(texts: Iterable[bytes | None]) -> set[str]:
    """The ids of the memories compiled in full into these files' bytes (None: not read);
    undecodable bytes are replaced: a stray byte must not hide memkit's ids."""
    return {
        m
        for data in texts
        if data is not None
        for m in FULL.findall(data.decode("utf-8", "replace"))
    }
