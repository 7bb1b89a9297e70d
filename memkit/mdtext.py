"""Make a memory's markdown safe to embed in a compiled file.

A body is embedded under a heading of the compiled file, so its own headings are
demoted below that level, a code fence it leaves open is closed, and it cannot
fake memkit's markers or open an HTML comment that swallows what follows.
Plain bodies (no headings, fences or setext underlines) take a fast path that
never loads markdown-it.
"""

from __future__ import annotations

import re
from typing import Any

# Lines that can change the structure around a body: ATX headings, fences, setext underlines.
_STRUCTURE = re.compile(
    r"^(?:[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?#{1,6}(?:[ \t]|$)"  # ATX heading
    r"|[ \t>]*(?:```|~~~)"  # fence
    r"| {0,3}(?:=+|-+)[ \t]*$)",  # setext underline
    re.M,
)
# Bodies whose only structure is top-level ATX headings are rewritten without a parser.
_HARD = re.compile(r"^(?:[ \t>]*(?:```|~~~)| {0,3}(?:=+|-+)[ \t]*$|[ \t]*[>*+\d-].*#)", re.M)
_TOP_ATX = re.compile(r"^( {0,3})(#{1,6})(?=[ \t]|$)", re.M)
_MARKER = re.compile(r"<!--(\s*memkit)", re.I)
_ATX = re.compile(r"^([ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?[ \t]*)(#{1,6})(?=[ \t]|$)")
_PARSER: Any = None


def escape_markers(text: str) -> str:
    """Neutralise anything that reads as a memkit marker, and an HTML comment left open."""
    if "<!--" not in text:
        return text
    text = _MARKER.sub(r"&lt;!--\1", text)
    start = text.rfind("<!--")
    if start != -1 and text.find("-->", start + 4) == -1:
        text = text[:start] + "&lt;!--" + text[start + 4 :]
    return text


def inline(text: str) -> str:
    """One line of text (a title) safe for a heading or list item."""
    return escape_markers(" ".join(text.split()))


def embed(body: str, level: int) -> str:
    """The body, stripped, with its headings at `level` or deeper and every fence closed."""
    text = escape_markers(body.replace("\r\n", "\n").strip("\n"))
    if not text or not _STRUCTURE.search(text):
        return text
    if not _HARD.search(text):
        return _demote(text, level)
    return _restructure(text, level)


def _demote(text: str, level: int) -> str:
    shift = max(0, level - min(len(m.group(2)) for m in _TOP_ATX.finditer(text)))
    if not shift:
        return text
    return _TOP_ATX.sub(lambda m: m.group(1) + "#" * min(6, len(m.group(2)) + shift), text)


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        from markdown_it import MarkdownIt

        _PARSER = MarkdownIt("commonmark")
    return _PARSER


def _restructure(text: str, level: int) -> str:
    lines = text.split("\n")
    tokens = [t for t in _parser().parse(text) if t.map is not None]
    heads = [t for t in tokens if t.type == "heading_open"]
    shift = max(0, level - min((int(t.tag[1]) for t in heads), default=level))
    close = ""
    for tok in reversed(tokens):  # bottom up, so line numbers above stay valid
        start, end = tok.map
        if tok.type == "heading_open" and shift:
            new = "#" * min(6, int(tok.tag[1]) + shift)
            if tok.markup.startswith("#"):
                lines[start] = _ATX.sub(rf"\g<1>{new}", lines[start], count=1)
            elif tok.level == 0:  # setext: title lines, then the underline
                title = " ".join(x.strip() for x in lines[start : end - 1])
                lines[start:end] = [f"{new} {title}"]
        elif tok.type == "fence" and tok.level == 0 and end == len(lines):
            last = lines[end - 1].strip() if end - 1 > start else ""
            mark = tok.markup
            if not (last.startswith(mark) and set(last) == {mark[0]}):
                close = "\n" + mark
    return "\n".join(lines) + close
