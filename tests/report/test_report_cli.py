"""`memkit report` on the command line: where it writes, bad input, no store."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke

from tests.report.htmltree import parse
from tests.report.sample import build


@pytest.fixture
def built(repo: Path, run: Invoke, monkeypatch: pytest.MonkeyPatch) -> Path:
    build(repo, run, monkeypatch)
    return repo


def test_writes_the_file(built: Path, run: Invoke) -> None:
    assert run("report", "--output", "out/report.html").stdout == "wrote out/report.html\n"
    result = run("report", "-o", "out", code=2)  # a folder
    assert "'out' is a directory" in result.stderr and "Traceback" not in result.stderr
    page = parse((built / "out" / "report.html").read_text("utf-8"))
    assert page.find("h1").text == "Memory report: repo"


def test_default_name_and_stdout(built: Path, run: Invoke) -> None:
    assert run("report").stdout == "wrote memkit-report.html\n"
    on_disk = (built / "memkit-report.html").read_text("utf-8")
    assert run("report", "-o", "-").stdout == on_disk


def test_base_and_link_base(built: Path, run: Invoke) -> None:
    out = run("report", "-o", "-", "--base", "HEAD~1", "--link-base", "https://h.example/b/")
    page = parse(out.stdout)
    assert page.by_id("pull-request")
    bad = run("report", "--link-base", "javascript:alert(1)//", code=2)
    assert bad.stderr == (
        "memkit: --link-base 'javascript:alert(1)//' is not an http(s) URL; give one like "
        "https://github.com/OWNER/REPO/blob/COMMIT/\n"
    )
    assert run("report", "--base", "no-such-ref", code=2).stderr.startswith("memkit: ")


def test_needs_a_store(repo: Path, run: Invoke) -> None:
    result = run("report", code=2)
    assert "memkit init" in result.stderr
