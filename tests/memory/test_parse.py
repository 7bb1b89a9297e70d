"""parse() and parse_all(): what is read, what is refused and where; parsing never crashes."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memkit import memory as mm
from memkit.errors import InvalidMemoryError
from tests.memory.samples import FULL, FUZZ, TEXT


def test_parse_full() -> None:
    mem = mm.parse(FULL, mid="retry-backoff", path=".memory/retry-backoff.md")
    assert mem.title == "Retry: use exponential backoff"
    assert mem.type == "gotcha"
    assert mem.tags == ("http", "retry")
    assert mem.paths == ("src/http/**/*.py",)
    assert mem.links == ("src/http/client.py::Client.send",)
    assert mem.created == dt.date(2026, 1, 2)
    assert mem.priority == 3 and mem.pin is True
    assert mem.text.startswith("The client retries")
    assert "\nowner:" in mem.head  # a key memkit does not manage is kept


BAD = [
    ("no front matter", "just text\n", 1, "front matter", "no front matter"),
    ("unterminated", "---\ntitle: A\n", 1, "front matter", "unterminated"),
    ("malformed yaml", "---\ntitle: [a\n---\n", 3, "front matter", "malformed YAML"),
    ("list front matter", "---\n- a\n---\n", 2, "front matter", "mapping"),
    ("scalar front matter", "---\njust words\n---\n", 2, "front matter", "mapping"),
    ("missing title", "---\ntype: note\n---\n", 1, "title", "missing"),
    ("empty title", "---\ntitle: ''\n---\n", 2, "title", "missing or empty"),
    ("title not a string", "---\ntitle: [1]\n---\n", 2, "title", "must be a string"),
    ("unknown type", "---\ntitle: A\ntype: idea\n---\n", 3, "type", "unknown value 'idea'"),
    ("unknown status", "---\ntitle: A\nstatus: done\n---\n", 3, "status", "unknown value"),
    ("bad date", "---\ntitle: A\nexpires: 2026-13-01\n---\n", 3, "expires", "invalid date"),
    (
        "timestamp",
        "---\ntitle: A\nexpires: 2026-01-01 10:00:00\n---\n",
        3,
        "expires",
        "not a timestamp",
    ),
    ("tags not list", "---\ntitle: A\ntags: {a: 1}\n---\n", 3, "tags", "list of non-empty"),
    ("priority bool", "---\ntitle: A\npriority: yes\n---\n", 3, "priority", "whole number"),
    ("duplicate key", "---\ntitle: A\ntitle: B\n---\n", 3, "front matter", "duplicate key"),
    ("alias", "---\ntitle: &t A\nsource: *t\n---\n", 3, "front matter", "aliases"),
    ("glob escapes", "---\ntitle: A\npaths: [../x/*]\n---\n", 3, "paths", "escapes"),
    ("absolute link", "---\ntitle: A\nlinks: [/etc/passwd]\n---\n", 3, "links", "absolute"),
    ("bad symbol", "---\ntitle: A\nlinks: ['a.py::x y']\n---\n", 3, "links", "not a symbol"),
    ("glob link", "---\ntitle: A\nlinks: ['src/*.py']\n---\n", 3, "links", "is a glob"),
    ("unknown activation", "---\ntitle: A\nactivation: auto\n---\n", 3, "activation", "unknown"),
    (
        "agent activation without description",
        "---\ntitle: A\nactivation: agent\n---\n",
        3,
        "activation",
        "add `description:",
    ),
    ("multi-line description", '---\ntitle: A\ndescription: "a\\nb"\n---\n', 3, "description", ""),
    ("nul bytes", "---\ntitle: A\n---\n\x00\x01", 1, "file", "binary"),
    (
        "glob comma in brackets",
        "---\ntitle: A\npaths: ['src/[a,b].py']\n---\n",
        3,
        "paths",
        "comma outside a {a,b} group",
    ),
    (
        "glob comma in open brace",
        "---\ntitle: A\npaths: ['x.{a,b']\n---\n",
        3,
        "paths",
        "comma outside",
    ),
    ("glob comment", "---\ntitle: A\npaths: ['notes #1/*']\n---\n", 3, "paths", "[#]"),
    ("glob key", "---\ntitle: A\npaths: ['src/a: b']\n---\n", 3, "paths", "[:]"),
    ("glob final colon", "---\ntitle: A\npaths: ['src/a:']\n---\n", 3, "paths", "final ':'"),
    ("glob spaces", "---\ntitle: A\npaths: ['src/* ']\n---\n", 3, "paths", "ends with a space"),
    ("glob html", "---\ntitle: A\npaths: ['src/<!--/**']\n---\n", 3, "paths", "'<' or '>'"),
    ("glob empty part", "---\ntitle: A\npaths: ['{a,}']\n---\n", 3, "paths", "empty glob"),
    (
        "glob explodes",
        "---\ntitle: A\npaths: ['" + "{a,b}" * 9 + "']\n---\n",
        3,
        "paths",
        "more than 256 globs",
    ),
]


@pytest.mark.parametrize(
    ("text", "line", "field", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_bad_input(text: str, line: int, field: str, message: str) -> None:
    with pytest.raises(InvalidMemoryError) as info:
        mm.parse(text, mid="m", path=".memory/m.md")
    err = info.value
    assert (err.path, err.line, err.field) == (".memory/m.md", line, field), str(err)
    assert message in err.message
    assert "\n" not in str(err)


def test_description_and_activation() -> None:
    text = "---\ntitle: A\ndescription: When writing SQL migrations\nactivation: agent\n---\nx\n"
    mem = mm.parse(text, mid="m", path=".memory/m.md")
    assert (mem.description, mem.activation) == ("When writing SQL migrations", "agent")
    assert mm.parse("---\ntitle: A\n---\n", mid="m").activation is None


def test_bad_bytes() -> None:
    with pytest.raises(InvalidMemoryError, match=r"m.md:2: file: not UTF-8"):
        mm.parse(b"---\n\xff\n", mid="m", path="m.md")
    with pytest.raises(InvalidMemoryError, match="over the 1 MB limit"):
        mm.parse(b"---\ntitle: A\n---\n" + b"x" * 1_000_001, mid="m", path="m.md")


def test_bad_id() -> None:
    with pytest.raises(InvalidMemoryError, match="not a valid id"):
        mm.parse("---\ntitle: A\n---\n", mid="Bad_Id", path="Bad_Id.md")


def test_parse_all_reports_every_field_problem() -> None:
    _, problems = mm.parse_all("---\ntitle: A\ntype: x\nstatus: y\n---\n", mid="m", path="m.md")
    assert [(p.field, p.line) for p in problems] == [("type", 3), ("status", 4)]


CONTROLS = [
    ("nul in title", 'title: "a\\0b"', "title", "U+0000"),
    ("escape in title", 'title: "\\e[2J\\e[31mred"', "title", "U+001B"),
    ("bell in title", 'title: "ding\\a"', "title", "U+0007"),
    ("backspace in title", 'title: "ab\\bc"', "title", "U+0008"),
    ("carriage return in title", 'title: "done\\rfake"', "title", "U+000D"),
    ("tab in title", 'title: "a\\tb"', "title", "U+0009"),
    ("C1 CSI in title", 'title: "\\x9b31m"', "title", "U+009B"),
    ("NEL in title", 'title: "a\\Nb"', "title", "U+0085"),
    ("line separator in title", 'title: "a\\Lb"', "title", "U+2028"),
    ("paragraph separator in title", 'title: "a\\Pb"', "title", "U+2029"),
    ("RLO in title", 'title: "txt.\\u202eexe"', "title", "U+202E"),
    ("RLI in title", 'title: "a\\u2067b"', "title", "U+2067"),
    ("escape in a tag", 'title: A\ntags: ["x\\e]0;pwned\\a"]', "tags", "U+001B"),
    ("bidi in a path", 'title: A\npaths: ["src/\\u202d*.py"]', "paths", "U+202D"),
    ("newline in a path", 'title: A\npaths: ["src/a\\nb"]', "paths", "U+000A"),
    ("DEL in a link", 'title: A\nlinks: ["a\\x7f.py"]', "links", "U+007F"),
    ("escape in source", 'title: A\nsource: "PR \\e[8m12"', "source", "U+001B"),
    ("newline in source", 'title: A\nsource: "a\\nb"', "source", "U+000A"),
]


@pytest.mark.parametrize(
    ("front", "field", "char"), [c[1:] for c in CONTROLS], ids=[c[0] for c in CONTROLS]
)
def test_control_characters_are_refused_in_fields(front: str, field: str, char: str) -> None:
    with pytest.raises(InvalidMemoryError) as info:
        mm.parse(f"---\n{front}\n---\nbody\n", mid="m", path=".memory/m.md")
    err = info.value
    line = 2 + front.split("\n").index(next(x for x in front.split("\n") if x.startswith(field)))
    assert (err.path, err.line, err.field) == (".memory/m.md", line, field), str(err)
    assert f"contains control characters (first {char})" in err.message
    assert str(err).isprintable()  # one line, nothing a terminal would act on


@pytest.mark.parametrize("title", ['"A\\tB"', "[a, b]", "{a: b}"])
def test_a_title_refused_is_not_also_reported_missing(title: str) -> None:
    mem, problems = mm.parse_all(f"---\ntitle: {title}\n---\nbody\n", mid="m", path="m.md")
    assert mem is None
    assert [p.field for p in problems] == ["title"]
    assert "missing" not in problems[0].message
    _, problems = mm.parse_all("---\ntitle: ' '\n---\nbody\n", mid="m", path="m.md")
    assert [p.message.split(";")[0] for p in problems] == ["missing or empty title"]


def test_bodies_may_hold_tabs_and_control_characters() -> None:
    mem = mm.parse("---\ntitle: A\n---\n\tindented\x1b[31m\n", mid="m")
    assert mem.body == "\tindented\x1b[31m\n"  # escaped when compiled or printed


# ------------------------------------------------------------------ fuzzing


def _check_parse(raw: str | bytes) -> None:
    mem, problems = mm.parse_all(raw, mid="fuzz", path=".memory/fuzz.md")
    assert (mem is None) == bool(problems)
    for p in problems:
        assert "\n" not in str(p)  # every problem is one line
    if mem is None:
        return
    text = mm.dumps(mem)  # unchanged: every byte kept
    assert text == (raw if isinstance(raw, str) else raw.decode("utf-8"))
    again = mm.parse(text, mid="fuzz", path=".memory/fuzz.md")
    assert again == mem


@FUZZ
@given(TEXT)
def test_parse_never_crashes_and_round_trips(text: str) -> None:
    _check_parse(text)


@FUZZ
@given(st.binary(max_size=200))
def test_parse_bytes_never_crashes(raw: bytes) -> None:
    _check_parse(b"---\ntitle: x\n" + raw)


@FUZZ
@given(TEXT, TEXT)
def test_front_matter_with_fuzzed_values(key_text: str, value: str) -> None:
    _check_parse(f"---\ntitle: T\n{key_text}: {value}\n---\n{value}\n")
