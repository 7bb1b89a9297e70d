"""memkit's part of a shared file: between its markers, everything else kept byte for byte.

A file memkit creates carries the CREATED header; one it owns whole (a rule file)
carries the GENERATED line after its front matter. Memory text is escaped before
it gets here (memkit.compile.mdtext), so it cannot fake either.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memkit.errors import MemkitError

BEGIN = "<!-- memkit:begin -->"
END = "<!-- memkit:end -->"
CREATED = (
    "<!-- Created by memkit. The text between the memkit:begin and memkit:end markers is "
    "compiled from .memory/ by `memkit compile`; write your own text outside them. -->"
)
GENERATED = (
    "<!-- memkit:generated: compiled from .memory/ by `memkit compile`; "
    "edit the memories, not this file. -->"
)
BOM = "\ufeff"  # a byte-order mark: files written on Windows often start with one
# A marker line; one first in a file may follow a byte-order mark, kept before the section.
_BEGIN_RE = re.compile(rf"(?:^|(?<=\A{BOM})){re.escape(BEGIN)}[ \t]*\r?$", re.M)
_END_RE = re.compile(rf"(?:^|(?<=\A{BOM})){re.escape(END)}[ \t]*(?:\r?\n|\Z)", re.M)
# A line that may start a raw-HTML block ending only at a blank line (CommonMark types 6, 7).
HTML_LINE = re.compile(r"^[ \t>]*<[A-Za-z/]", re.M)


def wrap(section: str) -> str:
    """memkit's section with its markers; `section` is empty or ends with a newline.

    When its last paragraph may be a raw-HTML block, a blank line ends it before the
    end marker: such a block runs on to the next blank line, over the marker and into
    the hand-written text after it.
    """
    last = section[section.rfind("\n\n") + 1 :]
    sep = "\n" if HTML_LINE.search(last) else ""
    return f"{BEGIN}\n{section}{sep}{END}\n"


def created(section: str) -> str:
    """A shared file as memkit creates it."""
    return f"{CREATED}\n\n{wrap(section)}"


def owns(text: str) -> bool:
    """Whether memkit owns a whole file: it carries the GENERATED line at a line start."""
    return text.removeprefix(BOM).startswith(GENERATED) or f"\n{GENERATED}" in text


def locate(text: str, path: str) -> tuple[int, int] | None:
    """Start and end offsets of the marked section (markers included), or None."""
    begin = _BEGIN_RE.search(text)
    if begin is None:
        if _END_RE.search(text):
            raise MemkitError(
                f"{path} has a `{END}` line but no `{BEGIN}` line before it; "
                "add the begin marker or delete the end marker"
            )
        return None
    end = _END_RE.search(text, begin.end())
    if end is None:
        raise MemkitError(
            f"{path} has a `{BEGIN}` line but no `{END}` line after it; add the end "
            "marker where memkit's section should stop (the text between is replaced)"
        )
    return begin.start(), end.end()


def splice(existing: str | None, section: str | None, path: str) -> str | None:
    """The new text of a shared file; None when it should not exist.

    `section` is None when memkit has nothing to say there. A file memkit created
    and nobody edited is deleted then; any other file keeps its text.
    """
    return framer(existing, path)(section)


def framer(existing: str | None, path: str) -> Callable[[str | None], str | None]:
    """`splice` for one file, with its markers found once (budget fitting calls it often).

    The file keeps its text before and after memkit's section: a new file gets the
    CREATED header; a file without markers gets the section at its end, after a blank
    line."""
    if existing is None:
        head = f"{CREATED}\n\n"
        return lambda section: None if section is None else head + wrap(section)
    span = locate(existing, path)
    if span is None:
        sep = "\n" * max(0, 2 - len(existing) + len(existing.rstrip("\n"))) if existing else ""
        return lambda section: existing if section is None else existing + sep + wrap(section)
    head, tail = existing[: span[0]], existing[span[1] :]
    owned = existing == created(inner(existing, span))
    return lambda section: None if section is None and owned else head + wrap(section or "") + tail


def inner(text: str, span: tuple[int, int]) -> str:
    start, end = span
    inner = text[start + len(BEGIN) + 1 : end]
    return inner[: inner.rfind(END)]
