"""Make a memory's markdown safe to embed in a compiled file.

A body is embedded under a heading of the compiled file, so its own headings are
demoted below that level, a code fence it leaves open is closed, and it cannot
fake memkit's markers or open anything that runs past its own entry: an HTML
comment, or one of the raw-HTML blocks markdown runs to a closing token
(`<script`, `<pre`, `<style`, `<textarea`, `<?`, `<!X`, `<![CDATA[`) is escaped when
the body does not close it. Control characters become visible escapes (`\x1b`).
Plain bodies (no headings, fences, setext underlines or raw-HTML openers) take a
fast path that never loads markdown-it. This is the one module that imports
markdown-it: `parse` gives others (memkit import) the tokens of a markdown text, and
`to_html` renders memory text for the HTML report (raw HTML escaped, no images).
"""

from __future__ import annotations

import re
from typing import Any

from memkit.controls import escape as escape_controls

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
# Raw-HTML blocks that run to a closing token (CommonMark's HTML block types 1 to 5):
# the opener, and what ends the block. Types 6 and 7 end at a blank line, which
# follows every entry (sections.wrap adds one before the end marker when needed).
_HTML_BLOCKS = (
    (re.compile(r"<(?:script|pre|style|textarea)(?=[\s>]|$)", re.I),
     re.compile(r"</(?:script|pre|style|textarea)>", re.I)),
    (re.compile(r"<!--"), re.compile(r"-->")),
    (re.compile(r"<\?"), re.compile(r"\?>")),
    (re.compile(r"<![A-Za-z]"), re.compile(r">")),
    (re.compile(r"<!\[CDATA\["), re.compile(r"\]\]>")),
)  # fmt: skip
_HTML_OPENER = re.compile(
    r"^[ \t>*+\d.)-]*<(?:[?!]|(?:script|pre|style|textarea)(?=[\s>]|$))", re.I | re.M
)
_BLOCK_START = re.compile(r"^(\s*)<(?=[A-Za-z/?!])")
_PARSER: Any = None
_HTML_RENDERER: Any = None


def escape_markers(text: str) -> str:
    """Neutralise anything that reads as a memkit marker, and every HTML comment left open."""
    if "<!--" not in text:
        return text
    text = _MARKER.sub(r"&lt;!--\1", text)
    pos = 0
    while (start := text.find("<!--", pos)) != -1:
        end = text.find("-->", start + 4)
        if end == -1:  # open to the end: it and every later opener
            return text[:start] + text[start:].replace("<!--", "&lt;!--")
        pos = end + 3
    return text


def inline(text: str) -> str:
    """One line of text (a title) safe for a heading or list item: it starts no HTML block."""
    text = escape_markers(" ".join(escape_controls(text).split()))
    return _BLOCK_START.sub(r"\1&lt;", text, count=1)


def code_span(text: str) -> str:
    """`text` as an inline code span, whatever backticks it holds."""
    text = escape_controls(text)
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    edge = text[:1] + text[-1:]
    pad = " " if "`" in edge or (edge == "  " and text.strip()) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def embed(body: str, level: int) -> str:
    """The body, stripped, with its headings at `level` or deeper and every block closed."""
    text = escape_markers(escape_controls(body.replace("\r\n", "\n")).strip("\n"))
    if _HTML_OPENER.search(text):
        text = _close_html(text)
    if not text or not _STRUCTURE.search(text):
        return text
    if not _HARD.search(text):
        return _demote(text, level)
    return _restructure(text, level)


def _close_html(text: str) -> str:
    """Escape the opener of each raw-HTML block the body leaves open (it would run on)."""
    lines = text.split("\n")
    for tok in _parser().parse(text):
        if tok.type != "html_block" or tok.map is None:
            continue
        content = tok.content.lstrip()
        for opener, closer in _HTML_BLOCKS:
            m = opener.match(content)
            if m:
                if not closer.search(content, m.end()):
                    line = lines[tok.map[0]]
                    at = opener.search(line)
                    if at is not None:
                        lines[tok.map[0]] = f"{line[: at.start()]}&lt;{line[at.start() + 1 :]}"
                break
    return "\n".join(lines)


def _demote(text: str, level: int) -> str:
    top = min((len(m.group(2)) for m in _TOP_ATX.finditer(text)), default=level)
    shift = max(0, level - top)  # no heading (a `#` indented as code): nothing to shift
    return _TOP_ATX.sub(lambda m: m.group(1) + "#" * min(6, len(m.group(2)) + shift), text)


def parse(text: str) -> list[Any]:
    """The markdown-it tokens of `text`, parsed as CommonMark."""
    return list(_parser().parse(text))


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


def to_html(text: str) -> str:
    """Memory text as HTML for a page: untrusted input, so nothing in it runs or loads.

    Raw HTML is escaped (`html` off), links keep only markdown-it's safe schemes (no
    javascript:, vbscript:, file: or data:), and an image becomes its alt text in
    brackets, so opening the page fetches nothing.
    """
    global _HTML_RENDERER
    if _HTML_RENDERER is None:
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark", {"html": False})

        def image(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
            alt = renderer.renderInline(tokens[idx].children or [], options, env)
            return f'<span class="image">[image: {alt}]</span>'

        md.add_render_rule("image", image)
        _HTML_RENDERER = md
    return str(_HTML_RENDERER.render(escape_controls(text)))
