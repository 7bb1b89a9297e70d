"""The shape of a link as a memory writes it: checked and normalised, no I/O.

A link is a file (`src/x.py`), a symbol in a code file (`src/x.py::Class.method`),
a key in a config file (`pyproject.toml::project.requires-python`), or an anchor
(`dep:NAME`, `cmd:COMMAND`, `env:NAME`). `check()` refuses a link that could never
resolve, saying what to write instead; `normalise()` gives the path part the form
git names it by (`./src//x.py` -> `src/x.py`). Parsing a memory applies both, so
every write path (add, edit, link, the MCP tools, import) and every reader compares
links in one form.
"""

from __future__ import annotations

import re

# A dotted name of identifiers (Unicode letters too, as Python, Go, Java and JavaScript
# allow; `$` for JavaScript); a name starting with a digit is none.
SYMBOL_RE = re.compile(r"^(?:[^\W\d]|\$)[\w$]*(?:\.(?:[^\W\d]|\$)[\w$]*)*$")
PREFIXES = ("dep:", "cmd:", "env:")
CONFIG_SUFFIXES = (".toml", ".json", ".yaml", ".yml")
_PART = re.compile(r'"([^"]*)"|([^.]+)')
_LINE = re.compile(r"(?:#L?|:)(\d+)(?:-L?\d+)?$")


def normalise(link: str) -> str:
    """`link` with its path as git names it: no `./` parts, no empty parts, no final `/`.

    Anchors (`dep:`, `cmd:`, `env:`) and paths check() refuses (absolute, backslashes)
    are left as they are, so that the refusal still names what was written.
    """
    if link.startswith(PREFIXES):
        return link
    path, sep, rest = link.partition("::")
    if not path or path.startswith(("/", "\\", "~")) or "\\" in path:
        return link
    parts = [p for p in path.split("/") if p and p != "."]
    if not parts:
        return link
    return "/".join(parts) + sep + rest


def split_key(key: str) -> tuple[str, ...]:
    """`a."b.c".0` -> ("a", "b.c", "0"); ValueError naming the fix for a malformed key.

    A part is any text without dots (TOML's `requires-python`, YAML's `my key`,
    JSON's `@scope/pkg`), or a double-quoted text that may hold dots.
    """
    parts: list[str] = []
    pos = 0
    while pos < len(key):
        m = _PART.match(key, pos)
        if m is None:  # a dot where a part should start
            raise ValueError(f"key {key!r} has an empty part (a stray dot); write a.b.c")
        parts.append(m.group(1) if m.group(1) is not None else m.group(2))
        pos = m.end()
        if pos < len(key):
            if key[pos] != ".":
                raise ValueError(f'key {key!r}: quote a part holding dots as "a.b"')
            pos += 1
            if pos == len(key):
                raise ValueError(f"key {key!r} ends with a dot; write a.b.c")
    if not parts:
        raise ValueError("the key is empty; write a.b.c")
    return tuple(parts)


def check(link: str) -> None:
    """Refuse a link that can never resolve; ValueError saying what to write instead.

    The path's own rules (relative, no backslash, no `..`, no control characters)
    are checked by the caller (memkit.memory.values.check_link).
    """
    if link != link.strip():
        raise ValueError(f"link {link!r} starts or ends with spaces; remove them")
    if link.startswith(PREFIXES):
        if not link.partition(":")[2].strip():
            raise ValueError(f"link {link!r} names nothing after the prefix; write e.g. dep:celery")
        return
    path, sep, symbol = link.partition("::")
    if not path:
        raise ValueError(f"link {link!r} names no file; write `path/to/file.py::Symbol`")
    _check_path(link, path)
    if not sep:
        return
    if path.lower().endswith(CONFIG_SUFFIXES):  # a key of a TOML, JSON or YAML file
        try:
            split_key(symbol)
        except ValueError as e:
            raise ValueError(f"link {link!r}: {e} (`{path}::section.key`)") from None
    else:
        _check_symbol(link, path, symbol)


def _check_path(link: str, path: str) -> None:
    if "://" in path:
        raise ValueError(
            f"link {link!r} is a URL; links name what is in the repository: put a URL in `source`"
        )
    line = _LINE.search(path)
    if line is not None:
        whole = path[: line.start()]
        raise ValueError(
            f"link {link!r}: line numbers are not supported (lines move): link the symbol "
            f"(`{whole}::Name`) or the file (`{whole}`)"
        )
    for mark in "#:":
        if mark in path:
            whole, _, name = path.partition(mark)
            raise ValueError(f"link {link!r}: write a symbol after two colons: `{whole}::{name}`")


def _check_symbol(link: str, path: str, symbol: str) -> None:
    if not symbol.strip():
        raise ValueError(
            f"link {link!r} names no symbol after '::': write `{path}::Name`, or `{path}` "
            "to link the whole file"
        )
    if "::" in symbol or symbol.startswith(":"):
        dotted = ".".join(p for p in symbol.split(":") if p)
        raise ValueError(
            f"link {link!r}: one '::' separates the file from the symbol; join names with "
            f"dots: `{path}::{dotted}`"
        )
    if symbol.startswith(".") or symbol.endswith(".") or ".." in symbol:
        dotted = ".".join(p for p in symbol.split(".") if p)
        raise ValueError(
            f"link {link!r}: {symbol!r} has an empty name part (a stray dot); "
            f"write `{path}::{dotted}`"
        )
    if not SYMBOL_RE.match(symbol):
        raise ValueError(f"link {link!r}: {symbol!r} is not a symbol name like `Class.method`")
