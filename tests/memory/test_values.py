"""Front-matter values, converted and checked by each field's kind."""

from __future__ import annotations

import datetime as dt

import pytest

from memkit.memory.model import Verification
from memkit.memory.values import coerce, coerce_all

GOOD = [
    ("title", "A", "A"),
    ("tags", "one", ("one",)),
    ("tags", ["a", "b"], ("a", "b")),
    ("links", ["a.py::C.m"], ("a.py::C.m",)),
    ("created", "2026-01-31", dt.date(2026, 1, 31)),
    ("created", dt.date(2026, 1, 31), dt.date(2026, 1, 31)),
    ("priority", -3, -3),
    ("pin", True, True),
    ("confidence", "low", "low"),
    ("superseded_by", "new-one", "new-one"),
    (
        "verified",
        {"commit": "abcd", "date": "2026-01-31"},
        Verification("abcd", dt.date(2026, 1, 31), {}),
    ),
]
BAD = [
    ("title", 3, "must be a string"),
    ("tags", [""], "list of non-empty strings"),
    ("paths", ["/abs/*"], "is absolute"),
    ("supersedes", ["Not-An-Id"], "is not a memory id"),
    ("created", dt.datetime(2026, 1, 31, 10), "not a timestamp"),
    ("priority", True, "whole number"),
    ("pin", "yes", "true or false"),
    ("status", "done", "use one of: active, draft, archived, superseded"),
    ("superseded_by", 3, "must be the id of the memory that replaces this one"),
    ("verified", {"commit": "xyz"}, "is not a git commit id"),
    ("verified", {"links": {"a": 1}}, "fingerprint string"),
]


@pytest.mark.parametrize(("name", "value", "expected"), GOOD)
def test_coerce(name: str, value: object, expected: object) -> None:
    assert coerce(name, value) == expected


@pytest.mark.parametrize(("name", "value", "message"), BAD)
def test_coerce_refuses(name: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        coerce(name, value)


def test_coerce_all_takes_only_managed_fields() -> None:
    assert coerce_all({"title": "A", "owner": "x", "pin": False}) == {"title": "A", "pin": False}


def test_repeated_lists_and_dates_give_the_same_values_and_errors() -> None:
    for _ in range(2):  # the second time from the process's memo of checked values
        assert coerce("tags", ["a", "b"]) == ("a", "b")
        assert coerce("created", "2026-01-02") == dt.date(2026, 1, 2)
        assert coerce("created", dt.date(2026, 1, 2)) == dt.date(2026, 1, 2)
        with pytest.raises(ValueError, match="escapes the repository"):
            coerce("paths", ["../x"])
        with pytest.raises(ValueError, match="invalid date"):
            coerce("created", "2026-13-01")
        with pytest.raises(ValueError, match="list of non-empty strings"):
            coerce("tags", [1, True])
