"""Memory: what its front matter holds (fields()), its dates, its record."""

from __future__ import annotations

import datetime as dt

from memkit import memory as mm

TODAY = dt.date(2026, 11, 22)


def test_fields_leave_out_empty_defaults_but_keep_type_and_status() -> None:
    assert mm.Memory("a", "A").fields() == {"title": "A", "type": "note", "status": "active"}
    mem = mm.Memory("a", "A", tags=("x",), priority=-1, pin=True, source="")
    assert mem.fields() == {
        "title": "A",
        "type": "note",
        "status": "active",
        "tags": ["x"],
        "source": "",
        "priority": -1,
        "pin": True,
    }


def test_fields_write_verified_as_front_matter() -> None:
    bare = mm.Memory("a", "A", verified=mm.Verification("abcd", TODAY))
    assert bare.fields()["verified"] == {"commit": "abcd", "date": TODAY}
    full = mm.Memory("a", "A", verified=mm.Verification(None, None, {"a.py": "x"}))
    assert full.fields()["verified"] == {"commit": None, "date": None, "links": {"a.py": "x"}}
    assert full.to_record()["verified"] == {"commit": None, "date": None, "links": {"a.py": "x"}}


def test_expired_and_review_due_start_the_day_after() -> None:
    mem = mm.Memory("a", "A", expires=TODAY, review_after=TODAY)
    assert not mem.expired(TODAY) and not mem.review_due(TODAY)
    tomorrow = TODAY + dt.timedelta(days=1)
    assert mem.expired(tomorrow) and mem.review_due(tomorrow)
    assert not mm.Memory("a", "A").expired(tomorrow)


def test_text_is_the_body_without_surrounding_blank_lines() -> None:
    assert mm.Memory("a", "A", body="\n\nText.\n\n").text == "Text."
