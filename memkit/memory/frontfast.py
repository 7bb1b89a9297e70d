"""A strict fast path for the front matter memkit writes: what the YAML loader gives, or UNSURE.

Loading 10,000 front matters through PyYAML costs about 2 s even with libyaml, because
the nodes and the values are built in Python. Almost every memory's front matter is a
block mapping of one-line scalars, block lists and the `verified:` mapping, and those
shapes are read here line by line at a small fraction of that cost.

The rule is exactness: `FrontParser.load()` returns exactly what memkit.memory.yaml's Loader gives
(same keys in the same order, same values of the same types), or UNSURE, and the
caller then runs the full loader, which also gives the errors. Anything not certainly
understood is UNSURE: flow style (`[`, `{`), block scalars (`|`, `>`), tags, anchors,
aliases, multi-line scalars, duplicate keys, keys that are not strings, tabs, CR/NEL
and other line breaks, BOMs, characters YAML refuses, escapes not listed below,
complex keys, document markers, mappings inside list items, empty list items.

Plain scalars are typed by the caller's resolver (memkit.memory.yamlscalars.tag:
PyYAML's own implicit resolver table) and built by the caller's constructors for
those tags (copies of PyYAML's), so yes/no/on/off, ints, floats, dates and nulls
come out as the loader makes them; a constructor that raises hands the text to the
full loader. No YAML library is imported here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

STR = "tag:yaml.org,2002:str"
UNSURE: Any = type("Unsure", (), {"__repr__": lambda self: "UNSURE"})()
# Outside what this path reads: tabs, CR, NEL, LS, PS, the BOM, and whatever YAML's reader
# refuses (it accepts \t \n \r, 0x20-0x7E, 0x85, 0xA0-0xD7FF, 0xE000-0xFFFD, astral).
# The class is costly to compile (a few ms, more than reading a memory): ASCII texts, nearly
# all of them, use the small one.
_RISKY_CLASS = (
    "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_RISKY_ASCII = re.compile("[^\n\x20-\x7e]")
_risky: list[re.Pattern[str]] = []
# A line's indentation and content (no trailing spaces); blank and comment lines do not match.
_LINE = re.compile(r"^( *)([^ #\n](?:[^\n]*[^ \n])?)", re.MULTILINE)
# A plain scalar may not start with these (`-`, `?`, `:` may when a non-space follows).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_DQ_STOP = re.compile(r'["\\]')
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_LEN = {"x": 2, "u": 4, "U": 8}
_HEX = frozenset("0123456789abcdefABCDEF")
MAX_KEY = 1000  # YAML's simple keys end within 1024 characters
MAX_DEPTH = 8
MAX_LINES = 3000  # a line makes at most two nodes: well under the full loader's 10,000
MAX_CACHED = 50_000
_BLOCK: Any = object()  # the value is a block on the following lines

Constructors = Mapping[str, Callable[[str], Any]]


class _Unsure(Exception):
    """Raised inside the parser: hand the text to the full loader."""


class FrontParser:
    """Reads front matter with one resolver (`tag`: a plain scalar's tag) and the
    constructors of those tags (see the module).

    Lines repeat across a store (`type: decision`, `- api`, dates), so what a line
    means is remembered: every value cached is immutable (str, int, float, bool,
    None, date, datetime).
    """

    def __init__(self, tag: Callable[[str], str], constructors: Constructors) -> None:
        self.tag = tag
        self.constructors = constructors
        self.keyed: dict[str, tuple[str, Any]] = {}  # key line -> (key, value or _BLOCK)
        self.items: dict[str, Any] = {}  # `- item` line -> value
        self.keys: dict[str, bool] = {}  # plain key -> whether it is a plain string key

    def load(self, text: str) -> Any:
        """The value of the YAML document `text` as the full loader gives it, or UNSURE."""
        if _is_risky(text) or text.startswith(("---", "...")) or "\n---" in text or "\n..." in text:
            return UNSURE
        # Indentation stays a string of spaces: such strings compare as their lengths do.
        lines: list[tuple[str, str]] = _LINE.findall(text)
        if not lines:
            return None
        if lines[0][0] or len(lines) > MAX_LINES:
            return UNSURE
        if len(self.keyed) + len(self.items) + len(self.keys) > MAX_CACHED:
            self.keyed.clear()
            self.items.clear()
            self.keys.clear()
        try:
            value, end = self.mapping(lines, 0, "", 0)
        except _Unsure:
            return UNSURE
        return value if end == len(lines) else UNSURE

    def mapping(
        self, lines: list[tuple[str, str]], i: int, indent: str, depth: int
    ) -> tuple[dict[str, Any], int]:
        """The block mapping whose keys sit at `indent`, from line i; (mapping, next line)."""
        if depth > MAX_DEPTH:
            raise _Unsure
        n, out, keyed = len(lines), {}, self.keyed
        while i < n:
            ind, s = lines[i]
            if ind != indent:
                if ind < indent:
                    break
                raise _Unsure
            got = keyed.get(s)
            if got is None:
                got = keyed[s] = self.key_line(s)
            key, value = got
            if key in out:
                raise _Unsure
            i += 1
            if value is not _BLOCK:
                out[key] = value
            elif i < n and (
                lines[i][0] > indent or (lines[i][0] == indent and _is_item(lines[i][1]))
            ):
                if _is_item(lines[i][1]):
                    out[key], i = self.sequence(lines, i, lines[i][0])
                else:
                    out[key], i = self.mapping(lines, i, lines[i][0], depth + 1)
            else:
                out[key] = self.plain("")
        return out, i

    def sequence(self, lines: list[tuple[str, str]], i: int, indent: str) -> tuple[list[Any], int]:
        """The block sequence whose `- ` items sit at `indent`; scalars only."""
        n, out, items = len(lines), [], self.items
        while i < n:
            ind, s = lines[i]
            if ind != indent or not _is_item(s):
                if ind > indent:
                    raise _Unsure
                break
            if s in items:
                out.append(items[s])
            else:
                item = s[2:].lstrip(" ")
                if not item or item[0] == "#":
                    raise _Unsure  # an empty item, or one whose value is on the next lines
                out.append(items.setdefault(s, self.scalar(item)))
            i += 1
        return out, i

    def key_line(self, s: str) -> tuple[str, Any]:
        """A `key: value` line: the key (a string) and its value, or _BLOCK if on the next lines."""
        if _is_item(s):
            raise _Unsure
        if s[0] in "\"'":
            key, end = _quoted(s)
            if not s.startswith(":", end):
                raise _Unsure
            colon = end
        else:
            _check_plain_start(s)
            colon = s.find(": ")
            if colon < 0:
                if not s.endswith(":"):
                    raise _Unsure
                colon = len(s) - 1
            key = s[:colon]
            ok = self.keys.get(key)
            if ok is None:
                ok = self.keys[key] = key[-1] != " " and " #" not in key and self.tag(key) == STR
            if not ok:
                raise _Unsure
        if colon > MAX_KEY:
            raise _Unsure
        rest = s[colon + 1 :]
        if rest and rest[0] != " ":
            raise _Unsure
        rest = rest.lstrip(" ")
        return key, _BLOCK if not rest or rest[0] == "#" else self.scalar(rest)

    def scalar(self, s: str) -> Any:
        """A one-line scalar (plain, single- or double-quoted), maybe with a comment after it."""
        if s[0] in "\"'":
            value, end = _quoted(s)
            tail = s[end:]
            if tail and not (tail[0] == " " and tail.lstrip(" ")[0] == "#"):
                raise _Unsure
            return value
        _check_plain_start(s)
        hash_at = s.find(" #")
        if hash_at >= 0:
            s = s[:hash_at].rstrip(" ")
        if ": " in s or s.endswith(":"):
            raise _Unsure
        return self.plain(s)

    def plain(self, s: str) -> Any:
        tag = self.tag(s)
        if tag == STR:
            return s
        construct = self.constructors.get(tag)
        if construct is None:
            raise _Unsure
        try:
            return construct(s)
        except Exception:  # the full loader says what is wrong
            raise _Unsure from None


def _is_risky(text: str) -> bool:
    """Whether `text` holds a character outside what this path reads (see _RISKY_CLASS)."""
    if text.isascii():
        return _RISKY_ASCII.search(text) is not None
    if not _risky:
        _risky.append(re.compile(_RISKY_CLASS))
    return _risky[0].search(text) is not None


def _is_item(s: str) -> bool:
    return s == "-" or s.startswith("- ")


def _check_plain_start(s: str) -> None:
    if s[0] in _INDICATORS and not (s[0] in "-?:" and len(s) > 1 and s[1] != " "):
        raise _Unsure


def _quoted(s: str) -> tuple[str, int]:
    """A quoted scalar at the start of `s` closed on the same line: (value, end)."""
    if s[0] == "'":
        parts, i = [], 1
        while True:
            j = s.find("'", i)
            if j < 0:
                raise _Unsure
            parts.append(s[i:j])
            if not s.startswith("''", j):
                return "".join(parts), j + 1
            parts.append("'")
            i = j + 2
    parts, i = [], 1
    while True:
        m = _DQ_STOP.search(s, i)
        if m is None:
            raise _Unsure
        j = m.start()
        parts.append(s[i:j])
        if s[j] == '"':
            return "".join(parts), j + 1
        esc = s[j + 1 : j + 2]
        if esc in _ESCAPES:
            parts.append(_ESCAPES[esc])
            i = j + 2
        elif esc in _HEX_LEN:
            digits = s[j + 2 : j + 2 + _HEX_LEN[esc]]
            if len(digits) != _HEX_LEN[esc] or not _HEX.issuperset(digits):
                raise _Unsure
            code = int(digits, 16)
            if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                raise _Unsure
            parts.append(chr(code))
            i = j + 2 + len(digits)
        else:
            raise _Unsure
