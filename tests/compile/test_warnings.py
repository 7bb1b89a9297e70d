"""compile's warnings name at most ten ids or paths, then say how many more and where."""

from __future__ import annotations

import re

import pytest
from conftest import Invoke, write_files

from memkit.capped import MAX_NAMED, capped
from memkit.store import Store

CONFIG = '[compile]\ntargets = ["agents"]\nbudgets = {agents = "8000 bytes"}\n'
BODY = "Keep the payments module free of network calls; " * 8


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def _memories(store: Store, n: int) -> None:
    write_files(
        store.root,
        {
            f".memory/rule-{i:04d}.md": f"---\ntitle: Rule {i}\ntype: convention\n---\n{BODY}{i}\n"
            for i in range(n)
        },
    )


def test_budget_warning_names_ten_ids_then_counts(run: Invoke, store: Store) -> None:
    _memories(store, 300)
    write_files(
        store.root,
        {".memory/config.toml": CONFIG},
    )
    out = run("compile")
    lines = [ln for ln in out.stderr.splitlines() if "over its budget" in ln]
    assert len(lines) == 1
    line = lines[0]
    assert len(re.findall(r"rule-\d{4}", line)) <= 2 * MAX_NAMED
    assert re.search(r"left out \((rule-\d{4}, ){9}rule-\d{4} and \d+ more", line)
    assert "(`memkit compile --explain codex`)" in line
    cut = int(re.findall(r"(\d+) left out", line)[0])
    assert f"and {cut - MAX_NAMED} more" in line


def test_twice_warning_is_capped(run: Invoke, store: Store) -> None:
    _memories(store, 30)
    write_files(
        store.root,
        {".memory/config.toml": '[compile]\ntargets = ["agents", "copilot"]\n'},
    )
    out = run("compile")
    twice = [ln for ln in (out.stdout + out.stderr).splitlines() if "twice" in ln]
    assert twice
    for ln in twice:
        assert len(re.findall(r"rule-\d{4}", ln)) == MAX_NAMED
        assert "and 20 more (`memkit compile --explain copilot-vscode`)" in ln


def test_capped() -> None:
    assert capped(["a", "b"]) == "a, b"
    ids = [f"m{i}" for i in range(25)]
    assert capped(ids, see="`x`") == ", ".join(ids[:10]) + " and 15 more (`x`)"
    assert capped(iter(ids[:3]), total=40, most=2) == "m0, m1 and 38 more"
    assert capped(["p", "q", "r"], sep=" and ", most=2) == "p and q and 1 more"
