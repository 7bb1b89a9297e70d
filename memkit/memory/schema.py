"""JSON Schemas (draft 2020-12), made from the field registry: the front matter, the record.

`front_matter()` describes what a memory file's YAML may hold, for editors and
other tools; memkit ships it as memkit/memory/schema.json (a test keeps the file
current: regenerate it with `memkit schema > memkit/memory/schema.json`).
`record()` describes the `--json` record (`Memory.to_record()`), for tools that
return memories, such as the MCP server's. `memkit validate` stays the authority:
it also checks the shape of globs and link symbols, and that named memories exist.
"""

from __future__ import annotations

import json
from typing import Any

from memkit.controls import ONE_LINE
from memkit.fields import REGISTRY, Field
from memkit.memory.ids import ID_RE, MAX_ID, WINDOWS_RESERVED
from memkit.memory.values import COMMIT_RE

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_CONTROLS = ONE_LINE.pattern.removeprefix("[").removesuffix("]")
_LINE: dict[str, Any] = {"type": "string", "pattern": f"^[^{_CONTROLS}]*$"}
_ITEM: dict[str, Any] = {"type": "string", "pattern": f"^[^{_CONTROLS}]+$"}
# Relative to the repository root: not absolute, no backslash, no `..` segment.
_INSIDE = r"(?![/\\~]|[A-Za-z]:)(?!.*\\)(?!(?:.*/)?\.\.(?:/|$))"
_PATH: dict[str, Any] = {"type": "string", "pattern": f"^{_INSIDE}[^{_CONTROLS}]+$"}
_ID: dict[str, Any] = {
    "type": "string",
    "pattern": ID_RE.pattern,
    "maxLength": MAX_ID,
    "not": {"enum": sorted(WINDOWS_RESERVED)},  # device names: no such file on Windows
}
_TITLE: dict[str, Any] = {
    "type": "string",
    "pattern": f"^[^{_CONTROLS}]*[^{_CONTROLS}\\s][^{_CONTROLS}]*$",
}
_DATE: dict[str, Any] = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
_SIMPLE: dict[str, dict[str, Any]] = {
    "date": _DATE,
    "ref": _ID,
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
}


def front_matter() -> dict[str, Any]:
    """The schema of a memory's front matter; keys it does not list are allowed (kept)."""
    return {
        "$schema": DIALECT,
        "title": "memkit memory",
        "description": "The YAML front matter of a memory file under .memory/ (docs/format.md).",
        "type": "object",
        "required": [f.name for f in REGISTRY if f.required],
        "properties": {f.name: _front_matter_field(f) for f in REGISTRY},
    }


def record(*, body: bool = True) -> dict[str, Any]:
    """The schema of a memory's `--json` record (`body` left out, as `list --json` does)."""
    properties: dict[str, Any] = {
        "id": {**_ID, "description": "the file name without .md"},
        "path": {"type": "string", "description": "the file, relative to the repository root"},
    }
    properties.update({f.name: _record_field(f) for f in REGISTRY})
    if body:
        properties["body"] = {"type": "string", "description": "the markdown text"}
    return {
        "$schema": DIALECT,
        "title": "memkit memory record",
        "type": "object",
        "required": list(properties),
        "properties": properties,
    }


def render() -> str:
    """The front-matter schema as memkit ships it (memkit/memory/schema.json)."""
    return json.dumps(front_matter(), indent=2, ensure_ascii=True) + "\n"


def _annotations(f: Field, default: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"description": f.description}
    if default is not None:
        out["default"] = default
    if f.machine:
        out["readOnly"] = True  # written by memkit
    return out


def _front_matter_field(f: Field) -> dict[str, Any]:
    value = _value(f)
    if f.kind == "list":  # a single string is read as a one-item list
        value = {"anyOf": [value["items"], value]}
    default = list(f.default) if isinstance(f.default, tuple) else f.default
    return {**value, **_annotations(f, default)}


def _record_field(f: Field) -> dict[str, Any]:
    value = _value(f, record=True)
    if f.default is None and not f.required:
        value = {"anyOf": [value, {"type": "null"}]}
    return {**value, **_annotations(f, None)}


def _value(f: Field, *, record: bool = False) -> dict[str, Any]:
    """The JSON form of one field's value, never null."""
    if f.kind == "text":
        return dict(_TITLE if f.required else _LINE)  # a required one is not blank
    if f.kind == "list":
        item = {"id": _ID, "glob": _PATH, "link": _PATH}.get(f.item, _ITEM)
        return {"type": "array", "items": dict(item)}
    if f.kind == "choice":
        return {"enum": list(f.choices)}
    if f.kind == "verified":
        return _verified(record=record)
    return dict(_SIMPLE[f.kind])


def _verified(*, record: bool) -> dict[str, Any]:
    """`memkit verify`'s record; in the `--json` record it always has all three keys."""
    commit = {"type": "string", "pattern": f"^{COMMIT_RE.pattern}$"}
    links = {"type": "object", "additionalProperties": {"type": "string"}}
    out: dict[str, Any] = {
        "type": "object",
        "properties": {
            "commit": {"anyOf": [commit, {"type": "null"}]},
            "date": {"anyOf": [_DATE, {"type": "null"}]},
            "links": links if record else {"anyOf": [links, {"type": "null"}]},
        },
    }
    if record:
        out["required"] = ["commit", "date", "links"]
    return out
