"""Reading a memory: text or bytes in, a validated frozen `Memory` out, or every problem.

Each problem is an InvalidMemoryError naming the file, the line and the field. The
fields are checked by kind (memory/values.py); this module adds what spans the whole
file: the id, the required fields, and that a proposed revision is never active.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from memkit import __version__
from memkit.errors import InvalidMemoryError
from memkit.fields import NAMES, REGISTRY
from memkit.memfile import MAX_BYTES, decode, field_line, split
from memkit.memory.ids import id_problem
from memkit.memory.model import Memory, checked
from memkit.memory.values import coerce


def load_yaml(front: str, path: str) -> dict[str, Any]:
    """Load front matter as a mapping, rejecting duplicate keys and aliases."""
    from memkit.memory.yaml import YAMLLoadError, load

    try:
        data = load(front)
    except YAMLLoadError as e:
        line = 1 if e.line is None else 2 + e.line
        raise InvalidMemoryError(path, line, "front matter", e.message) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InvalidMemoryError(
            path,
            2,
            "front matter",
            f"front matter must be a mapping of fields like "
            f"`title: ...`, not a {type(data).__name__}",
        )
    return data


# A lone surrogate: bytes that were not UTF-8 (a command-line argument, say), escaped.
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse(text: str | bytes, *, mid: str, path: str = "") -> Memory:
    """Parse and validate one memory; raise InvalidMemoryError on the first problem."""
    mem, problems = parse_all(text, mid=mid, path=path)
    if problems:
        raise problems[0]
    assert mem is not None
    return mem


def parse_all(
    text: str | bytes, *, mid: str, path: str = ""
) -> tuple[Memory | None, list[InvalidMemoryError]]:
    """Parse one memory, collecting every problem instead of stopping at the first."""
    where = path or f"{mid}.md"
    try:
        if isinstance(text, bytes):
            text = decode(text, where)
        elif len(text) > MAX_BYTES or _SURROGATE.search(text):
            text = decode(text.encode("utf-8", "surrogateescape"), where)
        if "\x00" in text:
            raise InvalidMemoryError(
                where, 1, "file", "binary content (NUL bytes); a memory is a UTF-8 markdown file"
            )
        head, front, body, _ = split(text, where)
        data = load_yaml(front, where)
    except InvalidMemoryError as e:
        return None, [e]
    problems: list[InvalidMemoryError] = []
    why = id_problem(mid)
    if why is not None:
        problems.append(InvalidMemoryError(where, 1, "id", f"file name {why}"))
    values = _check_fields(data, front, where, problems)
    if problems:
        return None, problems
    values.update(id=mid, body=body, path=path, head=head)
    return checked(values), []


# Registry order: what people and agents write first, then the record `memkit verify` writes.
_WRITTEN = [f.name for f in REGISTRY if f.kind != "verified"]
_RECORDED = [f.name for f in REGISTRY if f.kind == "verified"]
_REQUIRED = [f for f in REGISTRY if f.required]


def _check_fields(
    data: Mapping[str, Any], front: str, where: str, problems: list[InvalidMemoryError]
) -> dict[str, Any]:
    values: dict[str, Any] = {}

    def bad(name: str, message: str) -> None:
        problems.append(InvalidMemoryError(where, field_line(front, name), name, message))

    def take(names: list[str]) -> None:
        for name in names:
            if name in data:
                try:
                    values[name] = coerce(name, data[name])
                except ValueError as e:
                    bad(name, str(e))

    take(_WRITTEN)
    for f in _REQUIRED:
        value: str = values.get(f.name) or ""
        if f.name in data and f.name not in values:
            continue  # there, but refused above: that problem says why
        if not value.strip():
            bad(f.name, f"missing or empty {f.name}; add `{f.name}: <{f.description}>`")
        elif "\n" in value:
            bad(f.name, f"{f.name} must be a single line")
    take(_RECORDED)  # after the required fields: the order problems are reported in
    if values.get("revises") and values.get("status", "active") == "active":
        bad(
            "status",
            "a proposed revision (`revises`) is never active: set `status: draft`, and "
            "apply it with `memkit approve ID`",
        )
    if values.get("activation") == "agent" and not (values.get("description") or "").strip():
        bad(
            "activation",
            "`activation: agent` lets the agent decide from the description: add "
            "`description: <when the memory is useful>`, or remove `activation`",
        )
    return values


# `memkit: VERSION` says which memkit wrote the memory; `x-...` keys are extensions.
WRITTEN_BY = "memkit"
EXTENSION = "x-"


def unknown_fields(mem: Memory) -> list[InvalidMemoryError]:
    """A problem for each front-matter key that is no field (a misspelt `tpye:`), with
    the field it most likely means; what `validate`, `check` and the hooks report.

    Reading a memory keeps such keys and the memory; these are not parse errors. Keys
    starting with `x-` are always accepted (people's and tools' own), and so is every
    key of a memory whose `memkit: VERSION` is newer than this memkit:
    that version may define fields this one does not know.
    """
    if not mem.head:
        return []
    _, front, _, _ = split(mem.head, mem.path)
    if not any(_key_of(line) not in _KNOWN for line in front.splitlines() if _key_of(line)):
        return []  # every top-level key is a field: no need to read the YAML again
    data = load_yaml(front, mem.path)
    written_by = data.get(WRITTEN_BY)
    if isinstance(written_by, str | int | float) and _newer(str(written_by), __version__):
        return []
    import difflib

    out = []
    for key in data:
        if not isinstance(key, str) or key in _KNOWN or key.startswith(EXTENSION):
            continue
        near = difflib.get_close_matches(key.lower(), NAMES, n=1, cutoff=0.6)
        fix = (
            f"did you mean {near[0]}?"
            if near
            else f"remove it, or name your own field `{EXTENSION}{key}`"
        )
        out.append(
            InvalidMemoryError(mem.path, field_line(front, key), key, f"unknown field; {fix}")
        )
    return out


_KNOWN = frozenset((*NAMES, WRITTEN_BY))


def _key_of(line: str) -> str:
    """The key of a top-level `key: value` line ("" for anything else)."""
    if not line or line[0] in " \t-#":
        return ""
    return line.partition(":")[0].strip().strip("'\"")


def _newer(written: str, version: str) -> bool:
    """Whether version `written` (1.2.3) is newer than `version`; False when unreadable."""

    def parts(v: str) -> tuple[int, ...]:
        return tuple(int(p) for p in re.findall(r"\d+", v.split("+")[0])[:3])

    try:
        return parts(written) > parts(version)
    except ValueError:
        return False
