"""memkit's YAML: safe loading with one-line errors, dumping, plain scalars."""

from __future__ import annotations

import datetime as dt

import pytest

from memkit.memory.yaml import YAMLLoadError, dump, load, plain_scalar_ok


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: [1\n", 1, "malformed YAML"),
        ("a: 1\na: 2\n", 1, "duplicate key 'a'"),
        ("a: &x 1\nb: *x\n", 1, "anchors and aliases"),  # the alias's line
        ("a: 1\nb: \x07\n", 1, "character '\\x07' is not allowed"),
        ("a: " + "[" * 100 + "]" * 100 + "\n", 0, "nested over 64 levels"),
    ],
)
def test_load_errors_are_one_line_with_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(YAMLLoadError) as info:
        load(text)
    assert (info.value.line, message in info.value.message) == (line, True), info.value.message
    assert "\n" not in info.value.message


def test_impossible_date_stays_a_string() -> None:
    assert load("a: 2026-13-01\nb: 2026-01-31\n") == {"a": "2026-13-01", "b": dt.date(2026, 1, 31)}


def test_dump_writes_block_style_without_aliases() -> None:
    day = dt.date(2026, 1, 31)
    assert dump({"created": day, "updated": day, "tags": ["a"]}) == (
        "created: 2026-01-31\nupdated: 2026-01-31\ntags:\n- a\n"
    )
    assert dump({"t": "=x", "u": "a\u00a0"}) == 't: "=x"\nu: "a\u00a0"\n'


def test_plain_scalar_ok() -> None:
    assert plain_scalar_ok("src/**/*.py")
    assert not plain_scalar_ok("yes")  # YAML 1.1 reads a boolean
    assert not plain_scalar_ok("2026-01-31")  # a date
    assert not plain_scalar_ok("a: b")
