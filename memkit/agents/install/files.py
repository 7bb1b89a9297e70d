"""The one way memkit reads, merges and writes an agent's settings file (register.py,
more_agents.py).

A file is read through the safe-path layer (a link out of the repository, or into `.git/`
or `.memory/`, is refused before anything is read), parsed, changed in memory, and written
back atomically with the file's own indentation and byte-order mark; a file left empty is
removed. Every line returned says what changed (or, with `dry_run`, would).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memkit.compile.markers import BOM
from memkit.errors import MemkitError

MAX_JSON = 4 * 1024 * 1024  # bytes of a settings file memkit reads
_FORBIDDEN = (".git", ".memory")


def without_bom(text: str) -> str:
    """The text a parser reads: a byte-order mark first in a file is no part of its content
    (JSON and TOML parsers refuse it). A file rewritten keeps it (see `write_change`)."""
    return text.removeprefix(BOM)


def read_text(root: Path, rel: str) -> str | None:
    """The text of `root/rel` (None when there is no such file)."""
    from memkit.fsutil import read_inside, write_target

    write_target(root, rel, forbidden=_FORBIDDEN)  # a link is refused, not read
    try:
        raw = read_inside(root, rel, limit=MAX_JSON)
    except FileNotFoundError:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MemkitError(f"{rel} is not UTF-8 text; fix it, then run this again") from None


def load_json(
    rel: str, text: str | None, key: str, snippet: Callable[[], Any] | None = None
) -> dict[str, Any]:
    """The JSON object `text` (of file `rel`) holds, `{}` for no file; its `key`, when
    present, must be an object. A file with comments is refused with `snippet()`, what to
    add by hand, since rewriting it would lose them."""
    if text is None:
        return {}
    try:
        data = json.loads(without_bom(text))
    except (ValueError, RecursionError) as e:
        if snippet is not None and re.search(r"(?m)^\s*//|/\*", text):
            raise MemkitError(
                f"{rel} has comments, which memkit would lose by rewriting it; add "
                f"memkit's server yourself:\n{json.dumps(snippet(), indent=2)}"
            ) from None
        raise MemkitError(f"{rel} is not valid JSON ({e}); fix it, then run this again") from None
    if not isinstance(data, dict):
        raise MemkitError(f"{rel} must hold a JSON object; fix it, then run this again")
    if not isinstance(data.get(key, {}), dict):
        raise MemkitError(f"{rel}: `{key}` must be a JSON object; fix it, then run this again")
    return data


def dump_json(data: dict[str, Any], like: str | None) -> str:
    """`data` as the text of a file indented as `like` is (two spaces for a new file);
    "" (remove the file) when `data` is empty."""
    if not data:
        return ""
    m = re.search(r"\n([ \t]+)\S", like or "")
    indent: int | str = 2 if m is None else "\t" if m.group(1)[0] == "\t" else len(m.group(1))
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


def write_change(root: Path, rel: str, old: str | None, new: str, dry_run: bool) -> str:
    """Write `new` over file `rel`, which held `old` (None: no file; `new` "": remove it)."""
    from memkit.fsutil import atomic_write, write_target

    target = write_target(root, rel, forbidden=_FORBIDDEN)
    verb = "removed" if new == "" else "created" if old is None else "updated"
    if dry_run:
        return f"would {verb[:-1]} {rel}"
    if new == "":
        target.unlink()
    else:
        keep = old is not None and old.startswith(BOM) and not new.startswith(BOM)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, ((BOM if keep else "") + new).encode("utf-8"))
    return f"{verb} {rel}"
