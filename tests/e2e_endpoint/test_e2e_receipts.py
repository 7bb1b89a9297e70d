"""The end-to-end suite's receipts check (e2e/receipts.py) on hand-made receipts.

No agent: a project gets the receipts Claude Code's hooks would write, and the check
compares `memkit why` (the real command) with what the requests carried.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from memkit.agents.claude import receipts as kept
from memkit.store import Store

E2E = Path(__file__).resolve().parents[2] / "e2e"
MEMKIT = str(Path(sys.executable).parent / "memkit")
SID = "28b45a63-8710-4810-8955-8e3d530c9948"


@pytest.fixture(scope="module")
def e2e() -> Any:
    sys.path.insert(0, str(E2E))
    try:
        import analyze
        import receipts

        yield analyze, receipts
    finally:
        sys.path.remove(str(E2E))


def given(mid: str, via: str = "", form: str = "", event: str = "file") -> kept.Receipt:
    return kept.Receipt("2026-11-29T04:39:50Z", event, "why", mid, 10, via=via, form=form)


def run_dir(store: Store, tmp_path: Path, recs: list[kept.Receipt]) -> Path:
    """A run folder whose repo is `store`'s project, with one session's receipts."""
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "repo").symlink_to(store.root)
    if recs:
        kept.write(kept.receipts_path(store.root, SID), recs)
    return tmp_path / "run"


def result(e2e: Any, **memories: tuple[str, int]) -> Any:
    analyze = e2e[0]
    r = analyze.RunResult("claude", "read")
    r.memories = {"always": ("absent", 0), "api": ("absent", 0), **memories}
    return r


def test_receipts_that_match_the_requests_agree(e2e: Any, store: Store, tmp_path: Path) -> None:
    recs = [given("always", "CLAUDE.md", event="session-start"),
            given("api", ".claude/rules/memkit-src-api.md"), given("api", "src/api/AGENTS.md"),
            given("bulky", "CLAUDE.md", form="title")]  # fmt: skip
    found = result(e2e, always=("full", 1), api=("full", 2), bulky=("short", 1))
    assert e2e[1].check(found, run_dir(store, tmp_path, recs), MEMKIT) == "receipts agree"


def test_a_memory_sent_without_a_receipt_disagrees(e2e: Any, store: Store, tmp_path: Path) -> None:
    recs = [given("always", "CLAUDE.md"), given("api", "", form="description")]
    found = result(e2e, always=("full", 2), api=("full", 1), docs=("absent", 0))
    said = e2e[1].check(found, run_dir(store, tmp_path, recs), MEMKIT)
    assert said == (
        "receipts disagree: always:sent full 2x, receipts full 1x api:sent full 1x, receipts desc"
    )


def test_a_receipt_for_what_was_never_sent_disagrees(
    e2e: Any, store: Store, tmp_path: Path
) -> None:
    recs = [given("always", "CLAUDE.md"), given("docs")]
    said = e2e[1].check(result(e2e, always=("full", 1)), run_dir(store, tmp_path, recs), MEMKIT)
    assert said == "receipts disagree: docs:sent none, receipts full 1x"


def test_no_session_says_the_hooks_never_ran(e2e: Any, store: Store, tmp_path: Path) -> None:
    said = e2e[1].check(result(e2e, always=("full", 1)), run_dir(store, tmp_path, []), MEMKIT)
    assert said.startswith("no receipts")


def test_a_description_sent_and_received_agrees(e2e: Any, store: Store, tmp_path: Path) -> None:
    """An `activation: agent` memory offered by its description: no title-line receipt."""
    recs = [given("always", "CLAUDE.md"), given("api", "", form="description")]
    found = result(e2e, always=("full", 1), api=("desc", 1))
    assert e2e[1].check(found, run_dir(store, tmp_path, recs), MEMKIT) == "receipts agree"
