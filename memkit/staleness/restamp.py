"""A memory with a new `verified:` record, its file text prepared without YAML work.

`memkit verify` changes one field of each memory it writes. memory.dumps() would load
the front matter, patch the field with the YAML emitter, then load the result again to
prove it: three YAML round trips a memory, most of verify's time on 1,000 links.
Here the new `verified:` block is written straight into the memory's head when every
scalar in it is one the emitter writes plain (ids, dates, paths, fingerprints), in the
emitter's layout; anything else is left to dumps(). Nothing is trusted blindly:
Store.put_many parses the prepared text and writes it only if it reads back as the
memory, else it asks dumps(), which patches the field itself.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from memkit.memory.model import checked

if TYPE_CHECKING:
    from memkit.memory import Memory, Verification

# Characters of scalars the emitter writes plain. Keys must stay short: the emitter
# writes keys of 128 characters or more in the `? key` form.
_PLAIN = re.compile(r"[A-Za-z0-9_/][A-Za-z0-9_/.:+@-]*(?: [A-Za-z0-9_/.:+@-]+)*")
_KEY = re.compile(r"^verified[ \t]*:", re.MULTILINE)
MAX_KEY = 120


def restamped(mem: Memory, verified: Verification) -> Memory:
    """`mem` with `verified`, its head already carrying the new block where possible."""
    head = _head(mem, verified)
    if head is None:
        return dataclasses.replace(mem, verified=verified)
    # the fields of a valid memory and a Verification: no need to check them again
    return checked({**vars(mem), "verified": verified, "head": head})


def _head(mem: Memory, verified: Verification) -> str | None:
    """The head with its `verified:` block replaced (appended if none), None to leave it."""
    head = mem.head
    if not head.startswith("---\n") or "\r" in head or not head.endswith("\n---\n"):
        return None
    block = _block(verified)
    if block is None:
        return None
    lines = head[4:-4].splitlines(keepends=True)
    found = [i for i, line in enumerate(lines) if _KEY.match(line)]
    if len(found) > 1 or (not found) != (mem.verified is None) or not _block_style(lines):
        return None
    if found:
        start = end = found[0]
        end += 1
        while end < len(lines) and lines[end][:1] in (" ", "\t", "-"):
            end += 1
    else:
        start = end = len(lines)
    rest = "".join(lines[:start] + lines[end:])
    if "verified" in rest:  # a quoted or flow-style key somewhere: leave it to dumps()
        return None
    return "---\n" + "".join(lines[:start]) + block + "".join(lines[end:]) + "---\n"


def _block_style(lines: list[str]) -> bool:
    """Whether the front matter is a block mapping (`key: value` lines at column 0)."""
    first = next((x for x in lines if x.strip() and not x.startswith("#")), None)
    return first is not None and re.match(r"[A-Za-z_][\w-]*[ \t]*:", first) is not None


def _block(verified: Verification) -> str | None:
    """The `verified:` field as the emitter writes it, None if a scalar needs quoting."""
    commit = "null" if verified.commit is None else verified.commit
    date = "null" if verified.date is None else verified.date.isoformat()
    if verified.commit is not None and not _commit(verified.commit):
        return None
    out = [f"verified:\n  commit: {commit}\n  date: {date}\n"]
    if verified.fingerprints:
        out.append("  links:\n")
        for key, value in verified.fingerprints.items():
            if len(key) > MAX_KEY or not _plain(key) or not _plain(value):
                return None
            out.append(f"    {key}: {value}\n")
    return "".join(out)


def _plain(text: str) -> bool:
    """Written plain and read back as this string: safe characters, no `: `, and a
    letter first with a `/`, `.` or `:` inside (no number, date, boolean or null
    looks like that in YAML 1.1)."""
    return (
        _PLAIN.fullmatch(text) is not None
        and (text[0].isalpha() or text[0] == "_")
        and any(c in text for c in "/.:")
        and ": " not in text
        and not text.endswith(":")
    )


def _commit(commit: str) -> bool:
    """A commit id is plain unless it is all digits (then an integer to YAML)."""
    return re.fullmatch(r"[0-9a-f]{4,64}", commit) is not None and not commit.isdigit()
