"""Writing a memory: `dumps()` and `new()`, changing only the front-matter lines that changed.

A memory read and written unchanged keeps every byte: its original head (front
matter with its delimiters, comments and key order) is reused whenever the fields
it encodes did not change. A changed field is rewritten in place, on its own lines;
new fields go at the end, in registry order. A new memory's fields are written one
per line in registry order.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from memkit.errors import InvalidMemoryError
from memkit.fields import NAMES, REGISTRY
from memkit.memfile import format_body, split
from memkit.memory.model import Memory
from memkit.memory.parse import load_yaml, parse
from memkit.memory.values import coerce_all, written_links


def dumps(mem: Memory) -> str:
    """The file text for a memory; bytes of fields that did not change are kept as they were.

    Changed fields are rewritten in place (their own lines only), so comments, key
    order, quoting and unknown keys elsewhere in the front matter survive.
    """
    if not mem.head:
        return f"---\n{_dump_yaml(mem.fields(), chr(10))}---\n{mem.body}"
    _, front, _, _ = split(mem.head, mem.path)
    original = load_yaml(front, mem.path)
    old = _known_values(original)
    if old is not None and _as_memory(old, mem) == mem:
        return mem.head + mem.body
    nl = "\r\n" if mem.head.endswith("\r\n") else "\n"
    start = mem.head.index("\n") + 1
    new_fields = mem.fields()
    # the old fields, defaults normalised as Memory.fields() gives them
    was = None if old is None else Memory(id="x", **{"title": "", **old}).fields()
    if was is not None:
        patched = _patch(front.replace("\r\n", "\n"), was, new_fields)
        text = mem.head[:start] + patched.replace("\n", nl) + mem.head[start + len(front) :]
        if _says(text, mem):
            return text + mem.body
    # Not patchable line by line (a flow-style `{title: x}` front matter, say): the
    # whole front matter written again, its keys in their order, unknown keys kept.
    data = _merge(original, new_fields, was)
    return f"{mem.head[:start]}{_dump_yaml(data, nl)}---{nl}{mem.body}"


def new(title: str, body: str, *, mid: str, today: dt.date, **fields: Any) -> Memory:
    """Build and validate a memory from user input, as `memkit add` does."""
    _require_utf8(title, body, *(v for v in fields.values() if isinstance(v, str)))
    data: dict[str, Any] = {"title": title, **{k: v for k, v in fields.items() if v is not None}}
    for f in REGISTRY:
        if f.kind == "list" and f.name in data:
            data[f.name] = list(data[f.name])
            if f.item == "link":  # written as git names them: `./src//x.py` -> `src/x.py`
                data[f.name] = _written(data[f.name])
        elif f.auto:
            data.setdefault(f.name, today)
    data = {k: data[k] for k in NAMES if k in data}
    text = "---\n" + _dump_yaml(data, "\n") + "---\n" + format_body(body)
    return parse(text, mid=mid, path="")


def _written(links: list[Any]) -> list[Any]:
    """The links normalised when they are well formed; else as given, for parse to refuse
    with the field's line."""
    try:
        return list(written_links(links))
    except ValueError:
        return links


def _require_utf8(*texts: str) -> None:
    """Refuse text carrying bytes that were not UTF-8 (lone surrogates, as Python escapes
    a command-line argument that is not UTF-8)."""
    for text in texts:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            shown = text[:60].encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            raise InvalidMemoryError(
                "(from the command line)", 1, "text", f"'{shown}' is not UTF-8; give UTF-8 text"
            ) from None


def _says(text: str, mem: Memory) -> bool:
    """Whether a patched head reads back as `mem` (a patch can make YAML that does not
    parse: a line added after a flow mapping)."""
    try:
        check = _known_values(load_yaml(split(text, mem.path)[1], mem.path))
    except InvalidMemoryError:
        return False
    return check is not None and _as_memory(check, mem) == mem


def _known_values(original: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        return coerce_all(original)
    except (ValueError, KeyError):
        return None


def _as_memory(values: Mapping[str, Any], mem: Memory) -> Memory:
    values = dict(values)
    base = Memory(id=mem.id, title=values.pop("title", ""), **values)
    return dataclasses.replace(base, body=mem.body, path=mem.path, head=mem.head)


def _patch(front: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """Rewrite only the top-level blocks of fields whose values (Memory.fields()) changed."""
    lines = front.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    for name in NAMES:
        before, after = old.get(name), new.get(name)
        if before == after:
            continue
        block = _block(lines, name)
        text = _dump_yaml({name: after}, "\n") if after is not None else ""
        if block is None:
            if after is None:
                continue
            lines.append(text)
        else:
            lines[block[0] : block[1]] = [text] if text else []
    return "".join(lines)


def _block(lines: list[str], name: str) -> tuple[int, int] | None:
    key = re.compile(rf"^{re.escape(name)}[ \t]*:")
    for i, line in enumerate(lines):
        if key.match(line):
            j = i + 1
            while j < len(lines) and lines[j][:1] in (" ", "\t", "-"):
                j += 1
            return i, j
    return None


def _merge(
    original: Mapping[str, Any], known: Mapping[str, Any], was: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Original key order and unknown keys, with memkit's fields updated; a field the
    original did not write is added only when it changed from what the original gave
    (`was`; None: every field is added)."""
    out = {
        key: known[key] if key in NAMES else value
        for key, value in original.items()
        if key not in NAMES or key in known
    }
    for key, value in known.items():
        if key not in out and (was is None or was.get(key) != value):
            out[key] = value
    return out


def _dump_yaml(data: Mapping[str, Any], nl: str) -> str:
    from memkit.memory.yaml import dump

    text = dump(data)
    return text.replace("\n", nl) if nl != "\n" else text
