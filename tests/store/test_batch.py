"""put_many's texts are the same whether heads are proven here or in forked workers."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from pathlib import Path

import pytest

from memkit import memory as mm
from memkit.store import Store, batch
from tests.conftest import git

TODAY = dt.date(2026, 1, 1)
SECRET = "ghp_" + "x7Kq2Lm9" * 4 + "Ab12"


def _batch(store: Store) -> list[mm.Memory]:
    """Memories as loaded (their heads kept), some changed so that the head lies."""
    mems = sorted(store.load().memories, key=lambda m: m.id)
    out = []
    for i, mem in enumerate(mems):
        if i % 4 == 1:
            mem = dataclasses.replace(mem, title=f"Renamed {i}")  # old head: dumps() then
        elif i % 4 == 2:
            mem = dataclasses.replace(mem, body=f"pasted {SECRET}\n")  # refused
        out.append(mem)
    return out


def _written(store: Store, repo: Path) -> tuple[list[str], list[str], dict[str, bytes]]:
    written, refused = store.put_many(_batch(store))
    files = {p.name: p.read_bytes() for p in sorted((repo / ".memory").glob("*.md"))}
    git(repo, "checkout", "-q", "--", ".memory")
    return [m.id for m in written], [mid for mid, _ in refused], files


@pytest.mark.parametrize("failing", [False, True])
def test_workers_change_nothing(
    repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch, failing: bool
) -> None:
    for i in range(12):
        store.add(mm.new(f"Memory {i}", f"body {i}", mid=f"m{i:02d}", today=TODAY))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memories")
    monkeypatch.setenv("MEMKIT_JOBS", "1")
    alone = _written(store, repo)
    monkeypatch.setenv("MEMKIT_JOBS", "3")
    monkeypatch.setattr(batch, "MIN_SHARE", 1)
    parent = os.getpid()
    real = batch._prove
    proven: list[int] = []

    def prove(heads: list[tuple[int, mm.Memory, str]]) -> list[int]:
        if failing and os.getpid() != parent:
            raise RuntimeError("a worker fails")
        found = real(heads)
        proven.extend(found)  # seen here for this process's share only
        return found

    monkeypatch.setattr(batch, "_prove", prove)
    shared = _written(store, repo)
    assert shared == alone
    ids, refused, _ = alone
    assert refused == ["m02", "m06", "m10"] and len(ids) == 9
    assert 0 < len(proven) < 6  # this process proved only its own share
