"""A session's ledger read from its end: the hooks get the receipts since the context last
started afresh (the last `start` line), whatever the blocks the file is read in; torn,
mangled and foreign lines are skipped as a whole read of the file skips them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memkit.agents.claude import ledger

AT = "2026-11-22T10:00:00Z"
BLOCKS = [1, 2, 7, 64, 65536]  # bytes read at a time: every line across a boundary, to none


def start(why: str = "compact") -> bytes:
    return ledger.line({"at": AT, "event": "start", "why": why, "chars": 0}).encode()


def given(mid: str, chars: int = 100, **extra: object) -> bytes:
    rec = {"at": AT, "event": "file", "why": "src/x.py", "id": mid, "chars": chars, **extra}
    return ledger.line(rec).encode()


def ids(recs: list[dict[str, object]]) -> list[object]:
    return [r.get("id") or r["event"] for r in recs]


@pytest.fixture(params=BLOCKS)
def block(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(ledger, "BLOCK", request.param)
    return int(request.param)


def write(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    return str(path)


def test_only_the_receipts_since_the_last_start_are_given(tmp_path: Path, block: int) -> None:
    earlier = start("startup") + given("a") + given("b") + start() + given("c")
    path = write(tmp_path, earlier + start("clear") + given("d", 30) + given("e", 40, via="X.md"))
    recent = ledger.records(path, since_start=True)
    assert ids(recent) == ["start", "d", "e"] and recent[0]["why"] == "clear"
    assert ledger.state(recent) == ({"d", "e"}, 30)
    assert ledger.via_given(recent) == {("X.md", "e", None)}
    assert ids(ledger.records(path)) == ["start", "a", "b", "start", "c", "start", "d", "e"]


def test_a_start_line_across_a_block_boundary_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    after = given("c") + given("d")
    path = write(tmp_path, start("startup") + given("a") + start() + after)
    monkeypatch.setattr(ledger, "BLOCK", len(after) + len(start()) // 2)
    assert ids(ledger.records(path, since_start=True)) == ["start", "c", "d"]


def test_without_a_start_line_every_receipt_counts(tmp_path: Path, block: int) -> None:
    path = write(tmp_path, given("a", 10) + given("b", 20) + given("c", 30))
    assert ids(ledger.records(path, since_start=True)) == ["a", "b", "c"]
    assert ledger.state(ledger.records(path, since_start=True)) == ({"a", "b", "c"}, 60)


def test_a_line_longer_than_a_block_is_read_whole(tmp_path: Path, block: int) -> None:
    long = "src/" + "é" * 5000 + ".py"  # two bytes a character: blocks cut inside them
    path = write(tmp_path, given("a") + start(long) + given("b", why=long) + given("c"))
    recent = ledger.records(path, since_start=True)
    assert ids(recent) == ["start", "b", "c"]
    assert recent[0]["why"] == long and recent[1]["why"] == long


def test_crlf_line_ends_read_as_lf(tmp_path: Path, block: int) -> None:
    lines = [given("a"), start(), given("b"), given("c")]
    path = write(tmp_path, b"".join(x.replace(b"\n", b"\r\n") for x in lines))
    assert ids(ledger.records(path, since_start=True)) == ["start", "b", "c"]


def test_a_torn_last_line_is_skipped_and_reading_goes_on(tmp_path: Path, block: int) -> None:
    path = write(tmp_path, given("a") + start() + given("b") + given("c")[:-20])
    assert ids(ledger.records(path, since_start=True)) == ["start", "b"]
    torn_start = start()[:-10]  # a new context whose line was cut: not a start yet
    path = write(tmp_path, start() + given("a") + torn_start)
    assert ids(ledger.records(path, since_start=True)) == ["start", "a"]


def test_mangled_and_foreign_lines_never_count_as_a_start(tmp_path: Path, block: int) -> None:
    foreign = [
        b'{"event": "start", "why": "no time"}\n',  # not a receipt: no `at`
        b'[{"at": "x", "event": "start"}]\n',
        b"\xff\xfe not json \xe2\x80\n",
        b"\n",
        b'{"at": "x", "event": "start", "why": "cut \xe2\x80\xa8 here"}\n',  # U+2028 splits it
    ]
    path = write(tmp_path, given("a") + start() + given("b") + b"".join(foreign) + given("c"))
    assert ids(ledger.records(path, since_start=True)) == ["start", "b", "c"]


def test_a_missing_or_unreadable_ledger_gives_nothing(tmp_path: Path) -> None:
    assert ledger.records(str(tmp_path / "none.jsonl"), since_start=True) == []
    assert ledger.records(str(tmp_path), since_start=True) == []  # a folder
    assert ledger.records(write(tmp_path, b""), since_start=True) == []
    if os.geteuid() != 0:  # root reads whatever the mode says
        path = write(tmp_path, start() + given("a"))
        os.chmod(path, 0)
        assert ledger.records(path, since_start=True) == []


def test_of_a_ledger_too_long_to_read_its_latest_receipts_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    latest = start() + given("new", 5)
    path = write(tmp_path, start("startup") + given("old") * 100 + latest)
    monkeypatch.setattr(ledger, "MAX_LEDGER", len(latest) + 10)
    assert ledger.state(ledger.records(path, since_start=True)) == ({"new"}, 5)
    assert ids(ledger.records(path)) == ["start", "new"]
