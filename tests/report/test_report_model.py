"""collect(): what the report knows, from the core, on a realistic store."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import Invoke, copy_into

from memkit.report.model import Report, collect
from memkit.store import Store
from tests.report.sample import TODAY, built_once


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    return built_once(tmp_path_factory, empty_git_dir)


@pytest.fixture
def report(sample: Path, repo: Path, run: Invoke, monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.setenv("MEMKIT_TODAY", TODAY)
    copy_into(sample, repo)
    return collect(Store(repo), today=dt.date.fromisoformat(TODAY))


def entry(report: Report, mid: str):  # type: ignore[no-untyped-def]
    return next(e for e in report.entries if e.memory.id == mid)


def test_counts_by_freshness_type_and_status(report: Report) -> None:
    assert report.counts("freshness") == [
        ("fresh", 2),
        ("stale", 1),
        ("expired", 1),
        ("review-due", 1),
        ("unverified", 1),
        ("draft", 1),
    ]
    assert dict(report.counts("type"))["decision"] == 1
    assert report.counts("status") == [("active", 6), ("draft", 1)]
    assert report.stale_by_kind() == [("body", 1)]
    assert report.tags() == [("auth", 2), ("db", 1)]


def test_queue_is_oldest_first_and_holds_all_but_fresh(report: Report) -> None:
    queue = [e.memory.id for e in report.queue()]
    assert sorted(queue) == sorted(
        [
            "login-checks-the-password",
            "old-deploy-note",
            "check-the-ops-runbook",
            "never-verified",
            "agent-noticed-retries",
        ]
    )
    ages = [e.age for e in report.queue()]
    assert ages == sorted(ages)


def test_stale_symbol_shows_its_own_diff(report: Report) -> None:
    [change] = entry(report, "login-checks-the-password").changes
    assert change.link == "src/app/auth.py::login"
    assert change.state == "body"
    assert "-    return user.check(password)\n" in change.diff
    assert "+    return user.verify(password, strict=True)\n" in change.diff
    assert "unrelated" not in change.diff  # the symbol alone, not the file
    assert entry(report, "sessions-refresh-their-token").changes == ()


def test_history_comes_from_git(report: Report) -> None:
    [added] = entry(report, "never-verified").history
    assert (added.author, added.action, added.summary) == ("Grace Hopper", "added", "more memories")
    assert entry(report, "agent-noticed-retries").history == ()  # not committed yet
    assert {h.id for h in report.recent} >= {"login-checks-the-password", "never-verified"}


def test_reach_tells_full_shortened_or_cut(report: Report) -> None:
    reach = {(r.path, r.how) for r in entry(report, "database-pool-size").reach}
    assert ("AGENTS.md", "full") in reach
    assert entry(report, "agent-noticed-retries").reach == ()  # drafts reach no agent
    assert entry(report, "old-deploy-note").reach == ()  # expired


def test_codemap_places_links_and_globs(report: Report) -> None:
    [src] = [n for n in report.codemap if n.name == "src/"]
    [app] = src.children
    names = {n.name: n for n in app.children}
    assert set(names) == {"auth.py", "db*.py", "db.py"}
    assert names["auth.py"].worst == "stale"
    assert names["db*.py"].glob and names["db*.py"].memories == (("database-pool-size", "fresh"),)
    assert app.worst == "stale" and app.total == 5
    [docs] = [n for n in report.codemap if n.name == "docs/"]
    assert {c.name for c in docs.children} == {"**", "ops.md"}


def test_store_below_the_repository_top(repo: Path, run: Invoke) -> None:
    """Links are relative to the store's root; git paths are not: the diff still reads."""
    from conftest import git

    sub = repo / "svc"
    sub.mkdir()
    (sub / "mod.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "code")
    run("--root", str(sub), "init")
    run("--root", str(sub), "add", "F returns one", "--link", "mod.py::f", "-b", "It does.")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "svc")
    (sub / "mod.py").write_text("def f():\n    return 2\n", encoding="utf-8")
    got = collect(Store(sub), today=dt.date(2026, 6, 1))
    [e] = got.entries
    [change] = e.changes
    assert "-    return 1\n+    return 2\n" in change.diff
    assert [h.summary for h in e.history] == ["svc"]
