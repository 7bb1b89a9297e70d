"""Keeping a project's layout when it is adopted: folder files stay folder files.

When nested AGENTS.md, CLAUDE.md or GEMINI.md files were imported, `memkit import --adopt`
sets `[compile] nested_agents = true` (one line added, the rest of config.toml kept byte
for byte) so compile writes them back; a config that says `nested_agents` is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from memkit.agents.adopt.sources import Source

NESTED_KINDS = frozenset({"agents", "claude", "gemini"})
_KEY = re.compile(r"^\s*nested_agents\s*=", re.M)
_TABLE = re.compile(r"^\s*\[compile\]\s*(?:#.*)?$", re.M)


def nested(sources: Iterable[Source]) -> bool:
    """Whether any of the adopted files is a folder's own agent file."""
    return any(s.kind in NESTED_KINDS and s.folder for s in sources)


def with_nested(text: str) -> str | None:
    """The config text with `nested_agents = true` under [compile]; None when the text
    sets `nested_agents` already (or the table is not written plainly)."""
    if _KEY.search(text):
        return None
    nl = "\r\n" if "\r\n" in text else "\n"
    table = _TABLE.search(text)
    line = f"nested_agents = true  # set by `memkit import --adopt`: folder files stay{nl}"
    if table is None:
        sep = "" if not text or text.endswith("\n") else nl
        return f"{text}{sep}{nl}[compile]{nl}{line}"
    end = text.find("\n", table.end())
    end = len(text) if end < 0 else end + 1
    head = text[:end] if text[:end].endswith("\n") else text[:end] + nl
    return head + line + text[end:]


def keep_nested(config: Path) -> bool:
    """Set `nested_agents = true` in the config file; whether it changed."""
    from memkit.fsutil import atomic_write

    try:
        text = config.read_bytes().decode("utf-8") if config.exists() else ""
    except (OSError, UnicodeDecodeError):
        return False
    new = with_nested(text)
    if new is None:
        return False
    atomic_write(config, new.encode("utf-8"))
    return True
