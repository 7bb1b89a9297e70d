"""The field registry: Memory, docs/format.md and the rest of memkit agree with it."""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import re
from pathlib import Path

from memkit import memory as mm
from memkit.fields import BY_NAME, CONFIDENCES, NAMES, REGISTRY, STATUSES, TYPES, Field

ROOT = Path(__file__).resolve().parents[1]
# Memory's attributes that are not front-matter fields.
NOT_FIELDS = ("id", "body", "path", "head", "origin")
# The annotation on Memory each kind of field has (`| None` when its default is None).
ANNOTATION = {
    "text": "str",
    "list": "tuple[str, ...]",
    "date": "dt.date",
    "int": "int",
    "bool": "bool",
    "choice": "str",
    "ref": "str",
    "verified": "Verification",
}


def test_registry_and_memory_agree_field_for_field() -> None:
    attrs = [a for a in dataclasses.fields(mm.Memory) if a.name not in NOT_FIELDS]
    assert [a.name for a in attrs] == list(NAMES)
    for a in attrs:
        f = BY_NAME[a.name]
        if f.required:
            assert a.default is dataclasses.MISSING, a.name
        else:
            assert a.default == f.default, a.name
        optional = " | None" if f.default is None and not f.required else ""
        assert a.type == ANNOTATION[f.kind] + optional, a.name


def test_registry_is_consistent() -> None:
    assert len(set(NAMES)) == len(NAMES)
    assert mm.FIELDS == NAMES
    for f in REGISTRY:
        assert (f.kind == "choice") == bool(f.choices), f.name
        assert (f.kind == "list") == bool(f.item), f.name
        assert f.default is None or f.default in f.choices or f.kind != "choice", f.name
        assert "\n" not in f.description and f.description == f.description.strip(), f.name
    assert BY_NAME["type"].choices == TYPES == mm.TYPES
    assert BY_NAME["status"].choices == STATUSES == mm.STATUSES
    assert BY_NAME["confidence"].choices == CONFIDENCES == mm.CONFIDENCES


def test_record_has_every_field_and_reads_back() -> None:
    today = dt.date(2026, 11, 22)
    mem = mm.new("A", "Text.", mid="a", today=today, tags=["t"], links=["a.py::f"], priority=2)
    mem = dataclasses.replace(mem, verified=mm.Verification("abcd", today, {"a.py::f": "x"}))
    rec = mem.to_record()
    assert list(rec) == ["id", "path", *NAMES, "body"]
    assert mm.Memory.from_record(rec, head=mem.head, body=mem.body) == mem


def _type_words(f: Field) -> str:
    """How docs/format.md's table names a field's type."""
    if f.kind == "choice":
        return " \\| ".join(f"`{c}`" for c in f.choices)
    words = {
        "text": "string",
        "date": "date `YYYY-MM-DD`",
        "int": "integer",
        "bool": "boolean",
        "ref": "id",
        "verified": "mapping",
    }
    if f.kind == "list":
        return {
            "tag": "list of strings",
            "glob": "list of globs",
            "link": "list of links",
            "id": "list of ids",
        }[f.item]
    return words[f.kind] + (", required" if f.required else "")


def _default_words(f: Field) -> str:
    if f.default in (None, ()):
        return ""
    return f"`{str(f.default).lower() if isinstance(f.default, bool) else f.default}`"


def test_docs_field_table_matches_the_registry() -> None:
    text = (ROOT / "docs" / "format.md").read_text("utf-8")
    section = text.split("\n## Fields\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    assert [c[0] for c in cells] == [f"`{name}`" for name in NAMES]
    for (_, type_, default, meaning), f in zip(cells, REGISTRY, strict=True):
        assert type_ == _type_words(f), f.name
        assert default == _default_words(f), f.name
        assert meaning.startswith(f.description), f"{f.name}: start with {f.description!r}"
        assert ("written by memkit" in meaning) == f.machine, f.name


def test_no_other_copy_of_the_field_list() -> None:
    """A literal naming four or more fields is a copy of the list: derive it from REGISTRY."""
    copies = []
    for path in sorted((ROOT / "memkit").rglob("*.py")):
        if path.name == "fields.py" and path.parent.name == "memkit":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                names = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                if sum(n in BY_NAME for n in names) >= 4:
                    copies.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert copies == []
