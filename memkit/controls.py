"""Control characters: the ones memkit refuses in one-line fields and escapes everywhere else.

Memory text reaches terminals (`memkit list`, `show`, ...) and the files agents
read. Characters that move a terminal's cursor, start an escape sequence or
reorder text on screen (bidi overrides) are refused in titles, tags, paths,
links and source, and shown as visible escapes (`\\x1b`, `\\u202e`) wherever
memory text is printed or compiled.
"""

from __future__ import annotations

import re

# C0 but tab and newline, DEL, C1, the line and paragraph separators, and the bidi
# embeddings, overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# The same, tab and newline included: nothing of it belongs in a one-line field.
ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_LINE_END_CR = re.compile(r"\r+(?=\n|\Z)")
_WHITESPACE = {ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r"}


def code(ch: str) -> str:
    """How a message names a character: `U+001B`."""
    return f"U+{ord(ch):04X}"


def refused(text: str) -> str | None:
    """The first character a one-line field may not hold, named (`U+001B`), or None."""
    m = ONE_LINE.search(text)
    return None if m is None else code(m.group())


def escape(text: str) -> str:
    """Control characters as visible escapes (`\\x1b`, `\\u202e`); tab and newline kept
    (printable's spelling, for compiled files: memkit.compile.mdtext)."""
    if not CONTROL.search(text):
        return text
    return CONTROL.sub(_escaped, text)


def _escaped(m: re.Match[str]) -> str:
    n = ord(m.group())
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """Text from memories or git, safe to print to a terminal: control characters escaped.

    The escaper for terminal text: every command prints memory-derived text (titles,
    bodies, snippets, commit messages, author names) and every error message through
    this. ESC (so CSI and OSC sequences), BEL, backspace, a carriage return not ending
    a line, C1 controls and bidi overrides show as `\\x1b`, `\\u202e` and the like; tab
    and newline stay, and a carriage return that ends a line (CRLF text) is dropped.
    With `one_line` (a hook's message on stderr) tab, newline and carriage return show
    as `\\t`, `\\n` and `\\r` too.
    """
    if one_line:
        return escape(text.translate(_WHITESPACE))
    return escape(_LINE_END_CR.sub("", text))


# What for_agent looks at in body text and in one-line text: all but printable ASCII
# (and tab and newline in body text); unicodedata says which of these to escape, so
# ASCII text is one scan in C.
_SCAN = {True: re.compile("[^\t\n\x20-\x7e]"), False: re.compile("[^\x20-\x7e]")}
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp"))


def for_agent(text: str, *, lines: bool = False) -> str:
    """The escaper for agent text: memory-derived text as an agent is given it. Nothing
    in it can start a line, move text around or hide (the line and paragraph separators,
    control characters, bidi marks, embeddings, overrides and isolates, every other
    format character): each shows as a `\\u2028`-style escape (JSON's spelling, astral
    characters as surrogate pairs).

    Every route that puts a memory's title, body, id, link, path, heading or store name
    into an agent's context goes through this: the hooks (SessionStart, UserPromptSubmit,
    PreToolUse), `memkit context` and the MCP tools' answers. One-line text (the default)
    loses tab and newline too; with `lines`, body text keeps its tabs and newlines (a
    carriage return ending a line is dropped) and loses the rest.
    """
    if lines:
        text = _LINE_END_CR.sub("", text)
    scan = _SCAN[lines]
    if not scan.search(text):
        return text

    def sub(m: re.Match[str]) -> str:
        c = m.group()
        import unicodedata

        if unicodedata.category(c) not in _HIDDEN:
            return c
        n = ord(c)
        if n > 0xFFFF:
            n -= 0x10000
            return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"
        return f"\\u{n:04x}"

    return scan.sub(sub, text)


def for_agent_data(value: object) -> object:
    """JSON data with every string in it, keys too, through for_agent (as body text:
    JSON spells a newline `\\n` anyway)."""
    if isinstance(value, str):
        return for_agent(value, lines=True)
    if isinstance(value, dict):
        return {for_agent(str(k), lines=True): for_agent_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [for_agent_data(v) for v in value]
    return value
