"""YAML scalars for the front matter of compiled rule files.

Each function returns text that a standard YAML parser (PyYAML, js-yaml) reads back
as exactly the string given: `yaml_str` always quotes, `yaml_plain` writes the
value unquoted when that is safe, which some agents need (Cursor keeps quotes as
part of a value; see docs/compile.md, "Cursor globs").
"""

from __future__ import annotations

import functools
import json
import re

# What a double-quoted scalar should not hold raw: what YAML cannot print, its line
# breaks NEL, U+2028 and U+2029 (it folds them), a BOM, and bidi controls (they
# reorder how a reviewer sees the line). Each is written as a \u escape.
_ESCAPE_CLASS = (
    "[^\t\x20-\x7e\xa0-\u2027\u202f-\u2065\u206a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
    "\U00010000-\U0010ffff]"
)
_ASCII_KEPT = frozenset("\t" + "".join(map(chr, range(0x20, 0x7F))))  # its ASCII part


@functools.cache
def _escape() -> re.Pattern[str]:
    """The pattern, compiled when first needed (its Unicode ranges take ms to compile)."""
    return re.compile(_ESCAPE_CLASS)


def needs_escape(value: str) -> bool:
    """Whether `value` holds a character a double-quoted scalar writes as a \\u escape."""
    if value.isascii():  # globs and most titles: no pattern to compile
        return not _ASCII_KEPT.issuperset(value)
    return _escape().search(value) is not None


# Plain scalars YAML 1.2's core schema (js-yaml) reads as a number, boolean or null;
# PyYAML's resolver (memkit.memory.yaml) covers YAML 1.1's (yes, on, 1_000, dates, ...).
_CORE = re.compile(
    r"[-+]?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\.(?:inf|Inf|INF))"
    r"|0o[0-7]+|0x[0-9a-fA-F]+|\.(?:nan|NaN|NAN)|true|True|TRUE|false|False|FALSE"
    r"|null|Null|NULL|~"
)


def yaml_str(value: str) -> str:
    """A double-quoted YAML scalar (a JSON string, with YAML's own line breaks escaped)."""
    text = json.dumps(value, ensure_ascii=False)
    return _escape().sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# Values PyYAML's emitter always allows plain (no indicator first, no `: ` or ` #`, no
# spaces or breaks), paths and globs among them, and globs joined by commas (a comma
# after the first character bars only the flow style): for these only the resolver's
# answer is needed, and memkit.memory.yamlscalars gives it without importing PyYAML.
_SIMPLE = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_./*,-]*")


def plain_ok(value: str) -> bool:
    """Whether `value`, written unquoted after `key: `, reads back as this same string."""
    if not value or _CORE.fullmatch(value) or needs_escape(value):
        return False
    if _SIMPLE.fullmatch(value) and not value.startswith(("---", "...")):
        from memkit.memory.yamlscalars import STR, tag

        return tag(value) == STR
    from memkit.memory.yaml import plain_scalar_ok

    return plain_scalar_ok(value)


def yaml_plain(value: str) -> str:
    """A plain YAML scalar when that reads back as the same string, else a quoted one."""
    return value if plain_ok(value) else yaml_str(value)
