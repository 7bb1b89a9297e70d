"""The frozen `Memory` and `Verification` dataclasses, and their dict forms.

`Memory` has one attribute per field of the registry (memkit/fields.py, same order
and defaults; tests/test_fields.py keeps them in step), plus its id, body, path and
original head. `fields()` is what the front matter holds, `to_record()` the `--json`
record, `from_record()` its inverse.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.fields import REGISTRY, Field


@dataclass(frozen=True)
class Verification:
    """When a memory's links were last checked against the code, and their fingerprints."""

    commit: str | None
    date: dt.date | None
    fingerprints: Mapping[str, str] = field(default_factory=dict)

    def to_yaml(self) -> dict[str, Any]:
        """The `verified:` mapping of the front matter (`links` left out when empty)."""
        out: dict[str, Any] = {"commit": self.commit, "date": self.date}
        if self.fingerprints:
            out["links"] = dict(self.fingerprints)
        return out

    def to_record(self) -> dict[str, Any]:
        return {"commit": self.commit, "date": _iso(self.date), "links": dict(self.fingerprints)}

    @classmethod
    def from_record(cls, rec: Mapping[str, Any]) -> Verification:
        return cls(rec["commit"], _date_or_none(rec["date"]), dict(rec["links"]))


@dataclass(frozen=True)
class Memory:
    """One memory, validated: what `parse()` returns and `dumps()` writes."""

    id: str
    title: str
    body: str = "\n"
    type: str = "note"
    status: str = "active"
    tags: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    description: str | None = None
    activation: str | None = None  # None means always (see memkit.fields.ACTIVATIONS)
    source: str | None = None
    order: int | None = None  # an imported section's place in its source file (1: first)
    confidence: str | None = None
    created: dt.date | None = None
    updated: dt.date | None = None
    review_after: dt.date | None = None
    expires: dt.date | None = None
    priority: int = 0
    pin: bool = False
    supersedes: tuple[str, ...] = ()
    superseded_by: str | None = None
    revises: str | None = None  # a proposed revision of that memory (see memkit.agents.proposals)
    verified: Verification | None = None
    # Where the memory lives, relative to the project root ("" before it is saved).
    path: str = ""
    # The exact original head (opening delimiter through closing delimiter line).
    head: str = ""
    # The shared store it comes from ("" = this project's own .memory/); see memkit.sharing.
    origin: str = ""

    @property
    def text(self) -> str:
        """The body without surrounding blank lines."""
        return self.body.strip("\n")

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and today > self.expires

    def in_force(self, today: dt.date) -> bool:
        """Active, not superseded and not expired: what compiled files, SessionStart and
        context may give an agent. (Staleness is judged separately.)"""
        return self.status == "active" and not self.superseded_by and not self.expired(today)

    def review_due(self, today: dt.date) -> bool:
        return self.review_after is not None and today > self.review_after

    def fields(self) -> dict[str, Any]:
        """The front-matter values memkit manages, in registry order.

        Empty defaults (none, no items, priority 0, pin false) are left out; `type`
        and `status` are always there.
        """
        out: dict[str, Any] = {}
        for f in REGISTRY:
            value = getattr(self, f.name)
            if value is None or (not f.default and value == f.default):
                continue
            if f.kind == "list":
                value = list(value)
            elif f.kind == "verified":
                value = value.to_yaml()
            out[f.name] = value
        return out

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready dict: the documented, stable `--json` schema."""
        fields = {f.name: _to_json(f, getattr(self, f.name)) for f in REGISTRY}
        return {"id": self.id, "path": self.path, **fields, "body": self.text}

    @classmethod
    def from_record(
        cls, rec: Mapping[str, Any], *, head: str = "", body: str | None = None
    ) -> Memory:
        """Inverse of to_record (used by the parse cache); trusts its input.

        A record without some field raises KeyError (the cache then parses the file again).
        """
        values = {f.name: _from_json(f, rec[f.name]) for f in REGISTRY}
        body = rec["body"] if body is None else body
        return cls(id=rec["id"], body=body, path=rec["path"], head=head, **values)


_FIELDS = {f.name: f.default for f in dataclasses.fields(Memory)}  # id and title: MISSING


def checked(values: Mapping[str, Any]) -> Memory:
    """Memory(**values) for values parse has checked (id and title among them), built
    without the frozen dataclass's per-field setattr: a quarter of the cost."""
    if "id" not in values or "title" not in values:
        raise TypeError("a memory needs an id and a title")
    if not values.keys() <= _FIELDS.keys():
        raise TypeError(f"not fields of Memory: {sorted(values.keys() - _FIELDS.keys())}")
    d = {**_FIELDS, **values}
    mem: Memory = object.__new__(Memory)
    object.__setattr__(mem, "__dict__", d)
    return mem


def _to_json(f: Field, value: Any) -> Any:
    if value is None:
        return None
    if f.kind == "list":
        return list(value)
    if f.kind == "date":
        return _iso(value)
    if f.kind == "verified":
        return value.to_record()
    return value


def _from_json(f: Field, value: Any) -> Any:
    if value is None:
        return f.default
    if f.kind == "list":
        return tuple(value)
    if f.kind == "date":
        return _date_or_none(value)
    if f.kind == "verified":
        return Verification.from_record(value)
    return value


def _iso(d: dt.date | None) -> str | None:
    return None if d is None else d.isoformat()


def _date_or_none(s: str | None) -> dt.date | None:
    return None if s is None else dt.date.fromisoformat(s)
