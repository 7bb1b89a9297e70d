"""Instruction files cut into sections, each with the lines it came from.

A section is a top-level heading and what follows it up to the next one. Line
numbers are kept so adoption can take out exactly the imported lines. Front matter
is only a leading `---` block of `key: value` lines: a file that starts with a `---`
horizontal rule keeps its text. A lone top heading with sections under it is the
document's title. `@path` lines outside code are file imports (Claude Code, Gemini
CLI); inside fenced or indented code they are text (`@pytest.fixture`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memkit.compile.markers import BOM

_FM_LINE = re.compile(r"^(?:[A-Za-z_][\w.-]*\s*:.*|\s+\S.*|\s*-.*|\s*#.*|\s*)$")
_FM_KEY = re.compile(r"^([A-Za-z_][\w.-]*)\s*:\s*(.*)$")
_IMPORT = re.compile(r"^@(?!@)[\w./~-]*[\w~]\s*$")
_MEMKIT_BEGIN = re.compile(r"^<!--\s*memkit:begin\s*-->\s*$")
_MEMKIT_END = re.compile(r"^<!--\s*memkit:end\s*-->\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class Part:
    """One section: its heading (None before the first), and its lines [start, end)."""

    title: str | None
    start: int  # the heading line, or the first line of text before any heading
    body_start: int  # the first line after the heading
    end: int
    imports: tuple[int, ...] = ()  # lines that import a file (`@AGENTS.md`)

    def body(self, visible: list[str]) -> str:
        """The section's text (from Document.visible), without its import lines."""
        keep = (
            ln
            for n, ln in enumerate(visible[self.body_start : self.end], self.body_start)
            if n not in self.imports
        )
        return "".join(keep).strip("\n")


@dataclass(frozen=True)
class Heading:
    """A heading: its lines [start, end), its level (1 for `#`) and its text."""

    start: int
    end: int
    level: int
    text: str


@dataclass(frozen=True)
class Document:
    lines: list[str]  # with their line ends; front matter and memkit's section included
    visible: list[str]  # the same, with front matter and memkit's section as blank lines
    meta: dict[str, str | list[str]]
    content_start: int  # the first line after the front matter
    title: Heading | None  # the document's title
    parts: tuple[Part, ...]
    memkit: tuple[int, int] | None  # memkit's compiled section, markers included


def text_of(raw: str) -> str:
    """Text as sections are cut from it: no byte-order mark, `\\n` line ends."""
    return raw.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def front_matter(lines: list[str]) -> tuple[dict[str, str | list[str]], int]:
    """Lenient `key: value` front matter and the line after it (0 when there is none)."""
    if not lines or lines[0].rstrip() != "---":
        return {}, 0
    for end in range(1, len(lines)):
        if lines[end].rstrip() in ("---", "..."):
            break
        if not _FM_LINE.match(lines[end].rstrip("\n")):
            return {}, 0  # a horizontal rule, then text
    else:
        return {}, 0
    block = [ln.rstrip("\n") for ln in lines[1:end]]
    if not any(_FM_KEY.match(ln) for ln in block):
        return {}, 0
    return _pairs(block), end + 1


def _pairs(block: list[str]) -> dict[str, str | list[str]]:
    data: dict[str, str | list[str]] = {}
    key = ""
    for line in block:
        item = re.match(r"^\s*-\s*(.*)$", line)
        if item and key:
            current = data.get(key)
            items = current if isinstance(current, list) else []
            data[key] = [*items, unquote(item.group(1))]
            continue
        if kv := _FM_KEY.match(line):
            key = kv.group(1)
            data[key] = unquote(kv.group(2))
    return data


def unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def meta_text(meta: dict[str, str | list[str]], key: str) -> str | None:
    """Front matter `key` as one line of text (a list's items joined), or None when empty."""
    value = meta.get(key)
    if isinstance(value, list):
        value = " ".join(value)
    return " ".join(value.split()) or None if value else None


def _memkit_span(lines: list[str], start: int) -> tuple[int, int] | None:
    begin = next((n for n in range(start, len(lines)) if _MEMKIT_BEGIN.match(lines[n])), None)
    if begin is None:
        return None
    end = next((n for n in range(begin + 1, len(lines)) if _MEMKIT_END.match(lines[n])), None)
    return None if end is None else (begin, end + 1)


def parse(raw: str, *, imports: bool) -> Document:
    """Cut a file into sections; `imports`: whether `@path` lines import files there."""
    from memkit.compile.mdtext import parse as tokens_of

    lines = text_of(raw).splitlines(keepends=True)
    meta, start = front_matter(lines)
    memkit = _memkit_span(lines, start)
    visible = ["\n"] * start + lines[start:]
    if memkit:
        visible[memkit[0] : memkit[1]] = ["\n"] * (memkit[1] - memkit[0])
    tokens = tokens_of("".join(visible))
    heads: list[Heading] = []
    code: set[int] = set()
    for i, t in enumerate(tokens):
        if t.map is None:
            continue
        if t.type == "heading_open" and t.level == 0:
            heads.append(Heading(t.map[0], t.map[1], int(t.tag[1]), tokens[i + 1].content.strip()))
        elif t.type in ("fence", "code_block", "html_block"):
            code.update(range(t.map[0], t.map[1]))
    found = [n for n in range(start, len(lines)) if n not in code and _IMPORT.match(visible[n])]
    title, heads = _title(heads)
    if title is not None:  # the title is the intro's memory title, not text of its own
        visible[title.start : title.end] = ["\n"] * (title.end - title.start)
    parts = _parts(heads, start, len(lines), tuple(found) if imports else ())
    joined = tuple(_joined(parts, visible, memkit))
    return Document(lines, visible, meta, start, title, joined, memkit)


def _title(heads: list[Heading]) -> tuple[Heading | None, list[Heading]]:
    """A lone top heading that comes first, with other headings under it, is the title."""
    if len(heads) < 2:
        return None, heads
    top = min(h.level for h in heads)
    if heads[0].level != top or [h.level for h in heads].count(top) != 1:
        return None, heads
    return heads[0], heads[1:]


def _parts(heads: list[Heading], start: int, stop: int, imports: tuple[int, ...]) -> list[Part]:
    top = min((h.level for h in heads), default=0)
    cuts = [h for h in heads if h.level == top]
    bounds = [h.start for h in cuts] + [stop]
    spans: list[tuple[str | None, int, int, int]] = [(None, start, start, bounds[0])]
    spans += [(h.text, h.start, h.end, end) for h, end in zip(cuts, bounds[1:], strict=True)]
    return [Part(*span, tuple(i for i in imports if span[1] <= i < span[3])) for span in spans]


def _joined(parts: list[Part], visible: list[str], memkit: tuple[int, int] | None) -> list[Part]:
    """Sections without text of their own joined to the next one (to the one before
    when last): a run of headings (`# IMPORTANT: use full paths`, then `# Example: ...`)
    says something, and a section is what becomes a memory. Sections importing a file
    and the one holding memkit's section are left as they are (those lines stay)."""
    out: list[Part] = []
    pending: Part | None = None
    for p in parts:
        if pending is not None:
            p = Part(pending.title, pending.start, pending.body_start, p.end, p.imports)
            pending = None
        held = memkit is not None and p.start <= memkit[0] < p.end
        empty = not has_text("".join(visible[p.body_start : p.end])) and not p.imports and not held
        if p.title is not None and empty:
            pending = p
            continue
        out.append(p)
    if pending is not None:
        last = out[-1] if out and out[-1].title is not None and not out[-1].imports else None
        if last is None:
            out.append(pending)
        else:
            out[-1] = Part(last.title, last.start, last.body_start, pending.end, last.imports)
    return out


def has_text(text: str) -> bool:
    """Whether `text` says anything once HTML comments are left out."""
    return bool(_COMMENT.sub("", text).strip())
