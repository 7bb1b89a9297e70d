"""A memory file's layout: split(), field_line(), decode() and format_body()."""

from __future__ import annotations

import pytest

from memkit import memory as mm
from memkit.errors import InvalidMemoryError


def test_split_keeps_the_head_and_counts_the_body_line() -> None:
    text = "\ufeff---\r\ntitle: A\r\n...\r\nBody\r\n"
    assert mm.split(text, "m.md") == (
        "\ufeff---\r\ntitle: A\r\n...\r\n",
        "title: A\r\n",
        "Body\r\n",
        4,
    )


def test_field_line_names_the_file_line() -> None:
    front = "# note\ntitle: A\ntags:\n- x\n"
    assert (mm.field_line(front, "title"), mm.field_line(front, "tags")) == (3, 4)
    assert mm.field_line(front, "links") == 1  # absent


def test_decode_refuses_big_and_non_utf8_files() -> None:
    assert mm.decode("é".encode(), "m.md") == "é"
    with pytest.raises(InvalidMemoryError, match="over the 1 MB limit"):
        mm.decode(b"x" * (mm.MAX_BYTES + 1), "m.md")


def test_format_body() -> None:
    assert mm.format_body("\r\n\nText\r\nmore\n\n") == "\nText\nmore\n"
    assert mm.format_body("\n\n") == "\n"
