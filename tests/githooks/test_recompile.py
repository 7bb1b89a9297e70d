"""A commit of linked code alone compiles nothing when the last compile's inputs are
unchanged (memkit.compile.current), and reports what a full compile would."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import git, write_memory

from memkit.compile import current
from memkit.compile import plan as compile_plan
from memkit.githooks.checks import Outcome, run_hook
from memkit.store import Store

TODAY = dt.date(2026, 11, 22)
MEMORY = "---\ntitle: Totals are rounded once\ntype: gotcha\nlinks:\n- src/app.py::total\n---\n\n"


def outcome(repo: Path) -> Outcome:
    return run_hook(Store(repo), "pre-commit", ["src/app.py"], today=TODAY)


def test_linked_code_commit_compiles_nothing_and_reports_the_same(
    repo: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(current, "RACY_NS", 0)
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("def total(xs):\n    return sum(xs)\n", "utf-8")
    write_memory(store, "totals", MEMORY + "Round once.\n")
    compile_plan.apply(compile_plan.plan(store, today=TODAY))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    (repo / "src" / "app.py").write_text("def total(xs):\n    return round(sum(xs))\n", "utf-8")
    git(repo, "add", "-A")
    (store.cache_dir / current.NAME).unlink(missing_ok=True)
    cold = outcome(repo)  # compiles, finds nothing to change, records its inputs
    assert (store.cache_dir / current.NAME).is_file()

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled")

    monkeypatch.setattr(compile_plan, "build", no_build)
    assert outcome(repo) == cold
    assert cold.out and not cold.stop  # the report on the memory, as before
    write_memory(store, "totals", MEMORY + "Round the final sum.\n")
    with pytest.raises(AssertionError, match="compiled"):
        outcome(repo)  # a memory changed: a real compile again
