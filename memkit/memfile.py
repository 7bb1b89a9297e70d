"""A memory file's layout: UTF-8 under 1 MB, front matter between `---` lines, a body.

`split()` cuts a file into its head (the front matter with its delimiters), the
YAML between them and the body; `field_line()` finds the line of a front-matter
key for error messages. It sits below memkit.memory, whose package imports the model
and the parser: `memkit search` cuts each hit's body for its snippet and parses nothing.
"""

from __future__ import annotations

import re

from memkit.errors import InvalidMemoryError

MAX_BYTES = 1_000_000
_OPEN_RE = re.compile(r"\A(\ufeff?)---[ \t]*(\r?\n)")
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.MULTILINE)


def split(text: str, path: str) -> tuple[str, str, str, int]:
    """Split a memory file into (head, front-matter text, body, body start line)."""
    m = _OPEN_RE.match(text)
    if not m:
        raise InvalidMemoryError(
            path,
            1,
            "front matter",
            "no front matter: the file must start with a '---' line, "
            "then YAML fields (at least `title:`), then a closing '---' line",
        )
    close = _CLOSE_RE.search(text, m.end())
    if not close:
        raise InvalidMemoryError(
            path,
            1,
            "front matter",
            "unterminated front matter: add a closing '---' line after the YAML fields",
        )
    head = text[: close.end()]
    front = text[m.end() : close.start()]
    return head, front, text[close.end() :], head.count("\n") + 1


def field_line(front: str, name: str) -> int:
    """The file line (1-based) of a top-level front-matter key, or 1 if absent."""
    m = re.search(rf"^{re.escape(name)}[ \t]*:", front, re.MULTILINE)
    return 2 + front.count("\n", 0, m.start()) if m else 1


def check_size(size: int, path: str) -> None:
    """Refuse a file over MAX_BYTES."""
    if size > MAX_BYTES:
        raise InvalidMemoryError(
            path,
            1,
            "file",
            f"file is {size:,} bytes, over the 1 MB limit; split it into smaller memories",
        )


def decode(raw: bytes, path: str) -> str:
    """The text of a file's bytes: at most MAX_BYTES, UTF-8."""
    check_size(len(raw), path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise InvalidMemoryError(
            path,
            line,
            "file",
            f"not UTF-8 (byte 0x{raw[e.start]:02x} at offset {e.start}); re-save the file as UTF-8",
        ) from None


def format_body(body: str) -> str:
    """A body as memkit writes it: LF line ends, a blank line before the text, a newline after."""
    text = body.replace("\r\n", "\n").strip("\n")
    return f"\n{text}\n" if text else "\n"
