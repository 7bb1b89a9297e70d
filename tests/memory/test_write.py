"""dumps() and new(): byte-identical round trips, and only changed fields rewritten."""

from __future__ import annotations

import dataclasses
import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from memkit import memory as mm
from tests.conftest import examples
from tests.memory.samples import FULL, FUZZ, new_memories

TODAY = dt.date(2026, 11, 22)


def test_unchanged_round_trip_is_byte_identical() -> None:
    mem = mm.parse(FULL, mid="retry-backoff")
    assert mm.dumps(mem) == FULL


def test_changed_field_rewrites_only_its_own_lines() -> None:
    mem = mm.parse(FULL, mid="retry-backoff")
    out = mm.dumps(dataclasses.replace(mem, updated=TODAY, tags=("http",)))
    expected = FULL.replace("updated: 2026-01-03", "updated: 2026-11-22").replace(
        "tags: [http, retry]", "tags:\n- http"
    )
    assert out == expected
    again = mm.parse(out, mid="retry-backoff")
    assert again.updated == TODAY and again.tags == ("http",)


def test_new_field_is_appended_and_removed_field_dropped() -> None:
    mem = mm.parse(FULL, mid="retry-backoff")
    out = mm.dumps(dataclasses.replace(mem, expires=dt.date(2027, 1, 1), pin=False))
    assert "pin:" not in out
    assert "owner: team-http   # unknown key, kept\nexpires: 2027-01-01\n---\n" in out


def test_flow_style_front_matter_is_written_again_when_a_field_changes() -> None:
    text = "---\n{title: Flow, tags: [a], owner: me}  # one line\n---\n\nBody.\n"
    mem = mm.parse(text, mid="flow")
    assert mm.dumps(mem) == text  # unchanged: every byte kept
    verified = mm.Verification("ab12cd34", TODAY, {"src/a.py::f": "sig:1 body:2 doc:3"})
    for changed in (
        dataclasses.replace(mem, verified=verified),  # a field added
        dataclasses.replace(mem, title="Flow 2", tags=("b",)),  # fields changed
    ):
        out = mm.dumps(changed)
        assert out.startswith("---\ntitle: ") and out.endswith("---\n\nBody.\n")
        assert "owner: me\n" in out  # an unknown key is kept
        assert "status:" not in out and "type:" not in out  # defaults are not written
        head = out[: -len("\nBody.\n")]
        assert mm.parse(out, mid="flow") == dataclasses.replace(changed, head=head)


def test_crlf_file_keeps_crlf() -> None:
    text = "---\r\ntitle: A\r\nupdated: 2026-01-01\r\n---\r\nBody\r\n"
    mem = mm.parse(text, mid="a")
    assert mm.dumps(mem) == text
    out = mm.dumps(dataclasses.replace(mem, updated=TODAY))
    assert out == "---\r\ntitle: A\r\nupdated: 2026-11-22\r\n---\r\nBody\r\n"


def test_new_memory_layout() -> None:
    mem = mm.new(
        "Use pygit2",
        "Because.\n",
        mid="use-pygit2",
        today=TODAY,
        type="decision",
        tags=["git"],
        links=["memkit/git.py::open_repo"],
    )
    assert mm.dumps(mem) == (
        "---\ntitle: Use pygit2\ntype: decision\ntags:\n- git\nlinks:\n"
        "- memkit/git.py::open_repo\ncreated: 2026-11-22\nupdated: 2026-11-22\n---\n\nBecause.\n"
    )


def test_bom_is_accepted_and_kept() -> None:
    text = "\ufeff---\ntitle: A\n---\nbody\n"
    mem = mm.parse(text, mid="a")
    assert mm.dumps(mem) == text
    assert mm.dumps(dataclasses.replace(mem, tags=("x",))).startswith("\ufeff---\n")


# -------------------------------------------------------------- property tests

_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_chars = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters=_BIDI)
_text = st.text(_chars, min_size=1, max_size=30)
_slug = st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}", fullmatch=True)
_path = st.from_regex(r"[a-z]{1,6}(/[a-z]{1,6}){0,2}\.(py|ts)", fullmatch=True)
_dates = st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 31))


@st.composite
def memories(draw: st.DrawFn) -> mm.Memory:
    title = draw(_text.filter(lambda t: t.strip() and "\n" not in t))
    chars = st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\n\t")
    body = draw(st.text(chars, max_size=200))
    return mm.Memory(
        id=draw(_slug),
        title=title,
        body=mm.format_body(body),
        type=draw(st.sampled_from(mm.TYPES)),
        status=draw(st.sampled_from(mm.STATUSES)),
        tags=tuple(draw(st.lists(_slug, max_size=3))),
        paths=tuple(draw(st.lists(_path, max_size=3))),
        links=tuple(draw(st.lists(_path, max_size=2))),
        source=draw(st.none() | _text),
        confidence=draw(st.none() | st.sampled_from(mm.CONFIDENCES)),
        created=draw(st.none() | _dates),
        review_after=draw(st.none() | _dates),
        priority=draw(st.integers(-5, 5)),
        pin=draw(st.booleans()),
    )


@settings(max_examples=examples(60), deadline=None)
@given(memories())
def test_dumps_parse_round_trip(mem: mm.Memory) -> None:
    text = mm.dumps(mem)
    back = mm.parse(text, mid=mem.id)
    assert dataclasses.replace(back, head="") == mem
    assert mm.dumps(back) == text  # stable: a second write changes nothing


@settings(max_examples=examples(40), deadline=None)
@given(memories(), memories())
def test_updating_fields_round_trips(a: mm.Memory, b: mm.Memory) -> None:
    parsed = mm.parse(mm.dumps(a), mid=a.id)
    changed = dataclasses.replace(
        parsed, title=b.title, tags=b.tags, pin=b.pin, source=b.source, created=b.created
    )
    back = mm.parse(mm.dumps(changed), mid=a.id)
    assert dataclasses.replace(back, head="") == dataclasses.replace(changed, head="")


@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 3))  # benchmarks/fuzz.py raises it
@given(new_memories(), new_memories(), st.booleans())
def test_new_dumps_parse_and_change(mem: mm.Memory, other: mm.Memory, crlf: bool) -> None:
    text = mm.dumps(mem)
    if crlf:
        text = text.replace("\n", "\r\n")
    parsed = mm.parse(text, mid=mem.id, path="")
    assert parsed.fields() == mem.fields()
    assert mm.dumps(parsed) == text
    changed = dataclasses.replace(
        parsed, **{k: getattr(other, k) for k in ("tags", "type", "status", "source", "title")}
    )
    out = mm.dumps(changed)
    assert mm.parse(out, mid=mem.id, path="").fields() == changed.fields()
    head = mm.split(out, "")[0]
    assert ("\r\n" in head) == crlf  # the file's line endings are kept
