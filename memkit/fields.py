"""The one registry of memory fields.

REGISTRY lists each front-matter key memkit manages, in the order new files are
written: its kind of value, default, whether it is required or written by memkit,
and a one-line description. The rest derives from it: the `Memory` dataclass's
methods, parsing and writing, `memkit show`, the `--json` record and the JSON Schema
(memkit/memory/schema.py). Tests keep `Memory`'s attributes and the field table in
docs/format.md in step with it. Adding a field means a line here, an attribute on
`Memory` and a row in that table.

The choice fields' vocabularies live in memkit/choices.py (re-exported here), which the
command line and search read without creating this registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from memkit.choices import ACTIVATIONS as ACTIVATIONS
from memkit.choices import CONFIDENCES as CONFIDENCES
from memkit.choices import STATUSES as STATUSES
from memkit.choices import TYPES as TYPES

# text: a one-line string; list: strings, each an `item`; date: YYYY-MM-DD; int: a whole
# number; bool: true or false; choice: one of `choices`; ref: another memory's id;
# verified: the record `memkit verify` writes (commit, date, each link's fingerprint).
Kind = Literal["text", "list", "date", "int", "bool", "choice", "ref", "verified"]
# What each string of a list is: a free label, a path glob, a link to code, a memory id.
Item = Literal["", "tag", "glob", "link", "id"]


@dataclass(frozen=True)
class Field:
    """One front-matter field: its name, kind of value, default and meaning."""

    name: str
    kind: Kind
    description: str  # one line; error messages reuse it (a ref's, a missing required one's)
    default: object = None  # the value on Memory when the key is absent
    required: bool = False
    machine: bool = False  # written by memkit only, never by hand
    auto: bool = False  # a date memkit fills in: `add` sets it, edits move `updated`
    choices: tuple[str, ...] = ()  # kind "choice"
    item: Item = ""  # kind "list"

    @property
    def hand_written(self) -> bool:
        """Whether a person writes it, not memkit (a proposed revision carries these)."""
        return not (self.machine or self.auto)


REGISTRY: tuple[Field, ...] = (
    Field("title", "text", "one line summary", required=True),
    Field("type", "choice", "what kind of knowledge", "note", choices=TYPES),
    Field(
        "status", "choice", "only `active` memories reach agents' files", "active", choices=STATUSES
    ),
    Field("tags", "list", "free labels, for filtering and search", (), item="tag"),
    Field("paths", "list", "the files the memory applies to", (), item="glob"),
    Field("links", "list", "what in the project the memory describes", (), item="link"),
    Field("description", "text", "when the memory is useful, for agents that load on demand"),
    Field("activation", "choice", "when the memory reaches an agent", choices=ACTIVATIONS),
    Field("source", "text", "where it comes from: a PR or issue URL, an incident, a session"),
    Field("order", "int", "where an imported section stood in its `source` file"),
    Field("confidence", "choice", "how sure the author is", choices=CONFIDENCES),
    Field("created", "date", "the day the memory was added", auto=True),
    Field("updated", "date", "the day the memory last changed", auto=True),
    Field("review_after", "date", "after it, the memory is due for review"),
    Field("expires", "date", "after it, the memory is no longer used"),
    Field("priority", "int", "higher ranks first in compiled files", 0),
    Field("pin", "bool", "always included first", False),
    Field("supersedes", "list", "memories this one replaces", (), item="id"),
    Field("superseded_by", "ref", "the memory that replaces this one"),
    Field("revises", "ref", "the memory this draft proposes to change", machine=True),
    Field(
        "verified", "verified", "when the links were last checked against the code", machine=True
    ),
)

NAMES = tuple(f.name for f in REGISTRY)
BY_NAME = {f.name: f for f in REGISTRY}
