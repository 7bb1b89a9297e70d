"""The JSON Schemas: current as shipped, valid draft 2020-12, in step with the parser."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from memkit import memory as mm
from memkit.cli import cli
from memkit.errors import InvalidMemoryError
from memkit.memory import schema

jsonschema = pytest.importorskip("jsonschema")
ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "memkit" / "memory" / "schema.json"


def _json(value: Any) -> Any:
    """Front matter as a YAML editor sees it: dates are strings."""
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value.isoformat() if isinstance(value, dt.date) else value


def _front(text: str) -> Any:
    return _json(mm.load_yaml(mm.split(text, "m.md")[1], "m.md"))


def test_shipped_schema_is_current() -> None:
    assert SHIPPED.read_text("utf-8") == schema.render(), (
        "memkit/memory/schema.json is out of date: run `memkit schema > memkit/memory/schema.json`"
    )


def test_memkit_schema_prints_it() -> None:
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, ["schema"])
    assert (result.exit_code, result.stdout) == (0, schema.render())
    assert json.loads(result.stdout) == schema.front_matter()


def test_schemas_are_valid_draft_2020_12() -> None:
    for s in (schema.front_matter(), schema.record(), schema.record(body=False)):
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(s)


def test_every_memory_of_this_repository_fits_the_schema() -> None:
    check = jsonschema.Draft202012Validator(schema.front_matter())
    files = sorted((ROOT / ".memory").rglob("*.md"))
    assert files
    for path in files:
        front = _front(path.read_text("utf-8"))
        assert [e.message for e in check.iter_errors(front)] == [], path


BAD = [
    ("no title", {"type": "note"}),
    ("blank title", {"title": "  "}),
    ("two-line title", {"title": "a\nb"}),
    ("escape in title", {"title": "a\x1b[2J"}),
    ("unknown type", {"title": "A", "type": "idea"}),
    ("unknown status", {"title": "A", "status": "done"}),
    ("tags a mapping", {"title": "A", "tags": {"a": 1}}),
    ("empty tag", {"title": "A", "tags": [""]}),
    ("path escapes", {"title": "A", "paths": ["../x/*"]}),
    ("absolute link", {"title": "A", "links": ["/etc/passwd"]}),
    ("backslash path", {"title": "A", "paths": ["src\\a.py"]}),
    ("bad date", {"title": "A", "expires": "next week"}),
    ("priority a string", {"title": "A", "priority": "high"}),
    ("pin a string", {"title": "A", "pin": "yes"}),
    ("bad id", {"title": "A", "superseded_by": "Not An Id"}),
    ("bad commit", {"title": "A", "verified": {"commit": "xyz", "date": "2026-01-01"}}),
]


@pytest.mark.parametrize("front", [b[1] for b in BAD], ids=[b[0] for b in BAD])
def test_schema_refuses_what_memkit_refuses(front: dict[str, Any]) -> None:
    assert not jsonschema.Draft202012Validator(schema.front_matter()).is_valid(front)
    text = "---\n" + json.dumps(front) + "\n---\n"  # JSON is YAML
    with pytest.raises(InvalidMemoryError):
        mm.parse(text, mid="m")


def test_single_string_list_and_unknown_keys_are_allowed() -> None:
    front = {"title": "A", "tags": "one", "owner": "team", "verified": {"commit": None}}
    assert jsonschema.Draft202012Validator(schema.front_matter()).is_valid(front)
    mm.parse("---\n" + json.dumps(front) + "\n---\n", mid="m")


def test_records_fit_the_record_schema() -> None:
    today = dt.date(2026, 11, 22)
    plain = mm.new("A", "", mid="a", today=today)
    full = mm.new(
        "B",
        "Text.",
        mid="b",
        today=today,
        type="gotcha",
        tags=["x"],
        paths=["src/*"],
        links=["a.py::f"],
        source="PR 1",
        confidence="high",
        review_after=today,
        expires=today,
        priority=-1,
        pin=True,
        supersedes=["a"],
        superseded_by="c",
        status="draft",
        revises="a",
    )
    verified = mm.Verification("abcdef", today, {"a.py::f": "sig:1"})
    for mem in (plain, full, mm.Memory("c", "C", verified=verified)):
        rec = mem.to_record()
        jsonschema.validate(rec, schema.record())
        jsonschema.validate(
            {k: v for k, v in rec.items() if k != "body"}, schema.record(body=False)
        )
    assert not jsonschema.Draft202012Validator(schema.record(body=False)).is_valid(
        plain.to_record() | {"type": None}
    )
