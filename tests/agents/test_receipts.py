"""`memkit why SESSION` with a session id as people type it: whole, or a unique start."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke

from memkit.agents.claude import receipts
from memkit.store import Store

SESSIONS = [
    "5f1c2d3e-9a4b-4c1d-8e2f-000000000001",
    "7a1c9e2b-0000-4000-8000-000000000001",
    "7a1c9e2b-0000-4000-8000-000000000002",
    "7a1c9e2b-1111-4000-8000-000000000003",
    "7a1c9e2b-2222-4000-8000-000000000004",
]


@pytest.fixture
def project(store: Store) -> Path:
    for n, sid in enumerate(SESSIONS):
        given = receipts.Receipt(f"2026-11-2{n}T00:00:00Z", "file", "src/x.py", f"m{n}", 10)
        receipts.write(receipts.receipts_path(store.root, sid), [given])
    return store.root


def memories(result_stdout: str) -> list[str]:
    return [line.split()[2] for line in result_stdout.splitlines()[1:]]


def test_a_unique_start_of_the_id_names_the_session(project: Path, run: Invoke) -> None:
    assert memories(run("why", "5f1c2d3e").stdout) == ["m0"]
    assert memories(run("why", "7a1c9e2b-1").stdout) == ["m3"]
    assert memories(run("why", SESSIONS[2]).stdout) == ["m2"]


def test_an_id_that_starts_others_is_still_itself(store: Store, run: Invoke) -> None:
    for n, sid in enumerate(["abc", "abcd"]):
        given = receipts.Receipt("2026-11-20T00:00:00Z", "file", "src/x.py", f"m{n}", 10)
        receipts.write(receipts.receipts_path(store.root, sid), [given])
    assert memories(run("why", "abc").stdout) == ["m0"]


def test_a_start_shared_by_sessions_names_a_few_in_one_line(project: Path, run: Invoke) -> None:
    err = run("why", "7a1c", code=2).stderr
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "4 sessions" in err and "and 1 more" in err
    assert sum(sid in err for sid in SESSIONS) == receipts.SHOWN


def test_no_session_names_memkit_sessions(project: Path, run: Invoke) -> None:
    err = run("why", "0000", code=2).stderr
    assert err.count("\n") == 1 and "`memkit sessions`" in err and "'0000'" in err
    err = run("why", "", code=2).stderr
    assert err.count("\n") == 1 and "`memkit sessions`" in err


def test_a_start_with_json_gives_the_receipts(project: Path, run: Invoke) -> None:
    assert '"id": "m0"' in run("why", "5f1c", "--json").stdout
