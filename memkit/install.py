"""How to install memkit, said so that it works as written: memkit is not on the package
index yet (the name `memkit` there is an unrelated project) and its repository has no
release tags, so every message that says to install memkit or one of its extras gives
a pip line for a clone of memkit's repository; the clone this memkit runs from, when
it runs from one (an editable or in-place install)."""

from __future__ import annotations

from pathlib import Path

ANYWHERE = "pip install . in a clone of the memkit repository (see its README)"


def pip_line(extra: str = "", *, reinstall: bool = False) -> str:
    """`pip install ...` for memkit with `extra` (e.g. "mcp"), or with a note where to run it."""
    import shlex

    flag = "--force-reinstall " if reinstall else ""
    extras = f"[{extra}]" if extra else ""
    clone = Path(__file__).resolve().parent.parent
    if (clone / "pyproject.toml").is_file() and (clone / ".git").exists():
        return f"pip install {flag}{shlex.quote(f'{clone}{extras}')}"
    return f"pip install {flag}'.{extras}' in a clone of the memkit repository (see its README)"
