"""Whole team days on real repositories: two clones of a bare remote, memkit's hooks,
branches, agent sessions, `--commit`, merges and a rebase, each ending with the CI gate's
verdict (`memkit ci --base origin/main`): green when nothing needs a person, red with a
one-line reason when something does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.scenarios.team import (
    APP,
    agent_session,
    ci,
    failures,
    git,
    memkit,
    sh,
    team,
)

pytestmark = pytest.mark.slow

AGENTS_ONLY = 'targets = ["agents", "claude"]\nclaude_mode = "import"\n'


def test_code_change_stales_a_memory_hook_and_ci_agree(tmp_path: Path) -> None:
    _, ada, _ = team(tmp_path)
    git(ada, "checkout", "-q", "-b", "faster-total")
    (ada / "src" / "app.py").write_text(APP.replace("round(sum(xs), 2)", "sum(xs)"), "utf-8")
    git(ada, "add", "src/app.py")
    first = git(ada, "commit", "-q", "-m", "drop rounding", code=1)
    assert "memkit: regenerated" in first.stderr and "AGENTS.md" in first.stderr
    git(ada, "add", "-A")
    second = git(ada, "commit", "-q", "-m", "drop rounding")
    assert "totals-are-rounded-once" in second.stderr  # the hook names the memory
    memkit(ada, "compile", "--check")  # the hook and CI agree on what is current
    assert "Possibly out of date" in (ada / "AGENTS.md").read_text("utf-8")
    [fail] = failures(ci(ada, code=1))
    assert fail.startswith("memkit ci: FAIL .memory/totals-are-rounded-once.md: ")
    assert "this change altered src/app.py::total" in fail and "memkit verify" in fail
    sh(
        ada,
        sys.executable,
        "-m",
        "memkit",
        "edit",
        "totals-are-rounded-once",
        EDITOR="sed -i s/Round.the.sum,.never.each.line./Totals.are.not.rounded./",
    )
    assert "Totals.are.not.rounded." in (ada / ".memory" / "totals-are-rounded-once.md").read_text()
    memkit(ada, "verify", "totals-are-rounded-once", "--commit")
    memkit(ada, "compile", "--check")
    assert ci(ada, code=0)[-1].startswith("memkit ci: ok")


def test_agent_session_drafts_never_turn_ci_red(tmp_path: Path) -> None:
    _, ada, _ = team(tmp_path)
    git(ada, "checkout", "-q", "-b", "agent-work")
    said = agent_session(ada, "5f1c2d3e-aaaa-bbbb-cccc-000000000001", "src/app.py")
    assert "(draft)" in said
    git(ada, "add", "-A")
    git(ada, "commit", "-q", "-m", "agent session")
    memkit(ada, "check")  # a draft is reported, never failed
    lines = ci(ada, code=0)
    assert any("(draft)" in line and line.startswith("memkit ci: note: ") for line in lines)
    memkit(ada, "compile", "--check")


def test_add_commit_leaves_the_outputs_current(tmp_path: Path) -> None:
    _, ada, _ = team(tmp_path)
    git(ada, "checkout", "-q", "-b", "gotcha")
    memkit(
        ada,
        "add",
        "Taxes use the line's country",
        "--type",
        "gotcha",
        "--link",
        "src/app.py::tax",
        "--body",
        "Not the buyer's.",
        "--commit",
    )
    assert git(ada, "status", "--porcelain").stdout == ""
    memkit(ada, "compile", "--check")
    assert ci(ada, code=0)[-1].startswith("memkit ci: ok")


def test_two_branches_merge_cleanly_and_stay_current(tmp_path: Path) -> None:
    """Two pull requests, each adding a memory, merged by plain git, then by the hooks.

    Memories are ordered by rank, then id, with a blank line between: two additions that
    do not land next to each other touch different lines (benchmarks/bench_merge.py).
    """
    _, ada, bob = team(tmp_path, AGENTS_ONLY)
    for clone, branch, title in (
        (ada, "a", "Always log the request id"),
        (bob, "b", "Zero-downtime deploys drain first"),
    ):
        git(clone, "checkout", "-q", "-b", branch)
        memkit(clone, "add", title, "--type", "decision", "--body", "Why: incidents.", "--commit")
        assert ci(clone, code=0)[-1].startswith("memkit ci: ok")
        git(clone, "push", "-q", "origin", branch)
    git(ada, "fetch", "-q", "origin")
    git(ada, "checkout", "-q", "main")
    git(ada, "merge", "-q", "--no-edit", "origin/a")
    git(ada, "merge", "-q", "--no-edit", "origin/b")  # a clean merge: no conflict
    memkit(ada, "compile", "--check")
    git(ada, "push", "-q", "origin", "main")
    memkit(ada, "check")


def test_clean_merge_regenerates_what_the_branch_left_stale(tmp_path: Path) -> None:
    """A branch from someone without memkit changes linked code; git's clean merge runs
    pre-merge-commit, which regenerates the compiled files into the merge commit."""
    _, ada, bob = team(tmp_path, AGENTS_ONLY)
    memkit(bob, "hooks", "uninstall")
    git(bob, "checkout", "-q", "-b", "no-memkit")
    (bob / "src" / "app.py").write_text(APP.replace("round(sum(xs), 2)", "sum(xs)"), "utf-8")
    git(bob, "commit", "-q", "-am", "no rounding")  # no hook: AGENTS.md not regenerated
    git(bob, "push", "-q", "origin", "no-memkit")
    (ada / "README.md").write_text("hello\n", "utf-8")
    git(ada, "add", "README.md")
    git(ada, "commit", "-q", "-m", "readme")  # main moved on: the merge is a real one
    git(ada, "fetch", "-q", "origin")
    merged = git(ada, "merge", "--no-edit", "origin/no-memkit", code=1)
    assert "memkit: regenerated AGENTS.md for this merge and staged it" in merged.stderr
    git(ada, "commit", "-q", "--no-edit")  # the pre-commit hook finds it current
    assert (
        git(ada, "rev-parse", "HEAD^2").stdout.strip()
        == git(ada, "rev-parse", "origin/no-memkit").stdout.strip()
    )
    assert "AGENTS.md" in git(ada, "diff", "--name-only", "HEAD^1", "HEAD").stdout
    assert "Possibly out of date" in git(ada, "show", "HEAD:AGENTS.md").stdout
    assert git(ada, "status", "--porcelain").stdout == ""
    memkit(ada, "compile", "--check")


def test_conflicting_merge_is_settled_by_compile(tmp_path: Path) -> None:
    _, ada, bob = team(tmp_path, AGENTS_ONLY)
    # Both titles sort just after the seed memory's: the same gap in AGENTS.md.
    for clone, branch, title in (
        (ada, "a", "Totals use decimals"),
        (bob, "b", "Totals use integers"),
    ):
        git(clone, "checkout", "-q", "-b", branch)
        memkit(clone, "add", title, "--type", "decision", "--body", "Why: money.", "--commit")
        git(clone, "push", "-q", "origin", branch)
    git(ada, "fetch", "-q", "origin")
    git(ada, "merge", "-q", "--no-edit", "origin/b", code=1)  # plain git: AGENTS.md conflicts
    assert git(ada, "diff", "--name-only", "--diff-filter=U").stdout == "AGENTS.md\n"
    git(ada, "checkout", "--theirs", "AGENTS.md")
    memkit(ada, "compile")
    git(ada, "add", "-A")
    git(ada, "commit", "-q", "--no-edit")
    memkit(ada, "compile", "--check")
    assert ci(ada, code=0)[-1].startswith("memkit ci: ok")
    # With the merge driver, the same conflict settles itself.
    git(bob, "fetch", "-q", "origin")
    memkit(bob, "hooks", "install", "--merge-driver")
    git(bob, "add", ".gitattributes")
    git(bob, "commit", "-q", "-m", "merge driver")
    settled = git(bob, "merge", "-q", "--no-edit", "origin/a", code=1)
    assert "memkit: regenerated AGENTS.md for this merge and staged it" in settled.stderr
    assert git(bob, "diff", "--name-only", "--diff-filter=U").stdout == ""  # no conflict left
    git(bob, "commit", "-q", "--no-edit")
    memkit(bob, "compile", "--check")


def test_rebase_onto_a_main_that_moved(tmp_path: Path) -> None:
    _, ada, bob = team(tmp_path, AGENTS_ONLY)
    git(ada, "checkout", "-q", "-b", "feature")
    memkit(
        ada, "add", "Always log the request id", "--type", "decision", "--body", "x.", "--commit"
    )
    memkit(
        bob,
        "add",
        "Zero-downtime deploys drain first",
        "--type",
        "decision",
        "--body",
        "y.",
        "--commit",
    )
    git(bob, "push", "-q", "origin", "main")
    git(ada, "fetch", "-q", "origin")
    git(ada, "rebase", "-q", "origin/main")
    memkit(ada, "compile", "--check")
    assert ci(ada, code=0)[-1].startswith("memkit ci: ok")


def test_ci_gate_scopes_failures_to_the_change(tmp_path: Path) -> None:
    _, ada, bob = team(tmp_path)
    # On main: a memory that expires tomorrow (main's own business, not a pull request's).
    memkit(
        bob,
        "add",
        "Freeze deploys this week",
        "--type",
        "procedure",
        "--body",
        "x.",
        "--expires",
        "2026-11-23",
        "--commit",
    )
    git(bob, "push", "-q", "origin", "main")
    git(ada, "pull", "-q", "--ff-only")
    git(ada, "checkout", "-q", "-b", "unrelated")
    (ada / "README.md").write_text("hello\n", "utf-8")
    git(ada, "add", "README.md")
    git(ada, "commit", "-q", "-m", "readme")
    git(ada, "fetch", "-q")
    later = memkit(ada, "ci", "--base", "origin/main", code=None)
    assert later.returncode == 0, later.stdout
    expired = sh(
        ada,
        sys.executable,
        "-m",
        "memkit",
        "ci",
        "--base",
        "origin/main",
        MEMKIT_TODAY="2026-12-01",
    )
    assert "memkit ci: note: compiled files already out of date on the base branch" in (
        expired.stdout
    )
    assert "1 expired: freeze-deploys-this-week" in expired.stdout
    # A pull request that brings an invalid memory fails with the file and line.
    (ada / ".memory" / "bad.md").write_text("---\ntitle: Bad\ntype: opinion\n---\n\nx\n", "utf-8")
    lines = memkit(ada, "ci", "--base", "origin/main", code=1).stdout.splitlines()
    assert [f for f in failures(lines) if ".memory/bad.md:3: type:" in f]
    (ada / ".memory" / "bad.md").unlink()
    # A compiled file edited inside memkit's section by hand is this change's doing.
    agents = ada / "AGENTS.md"
    agents.write_text(agents.read_text("utf-8").replace("Round the sum", "Round it"), "utf-8")
    [fail] = failures(memkit(ada, "ci", "--base", "origin/main", code=1).stdout.splitlines())
    assert fail.startswith("memkit ci: FAIL compiled files out of date for this change: AGENTS.md")
    assert "run `memkit compile`" in fail
