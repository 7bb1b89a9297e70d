"""`memkit check`, `verify`, `diff` and `ci` in real blobless partial and depth-1 clones.

A partial clone gives the verdicts a full clone gives (what it lacks is fetched from the
promisor remote, as git would); where an object cannot be had (the remote out of reach,
a commit past a shallow clone's boundary) the link is `unverified` with a reason that
names what is missing and how to get it, and no command stops with a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memkit.cli import cli
from tests.conftest import git, isolated, write_files
from tests.staleness.clones import build, clone, commit, missing

Run = Callable[..., Result]


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> tuple[Path, str]:
    """The bare repository clones are made from, and the commit memories were verified at."""
    with isolated(tmp_path_factory):
        _, bare, verified = build(tmp_path_factory.mktemp("origin"), empty_git_dir)
    return bare, verified


@pytest.fixture
def memkit(monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[int, str, str]]:
    """Run memkit in a folder: (exit code, stdout, stderr); an exception fails the test."""
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")

    def run(where: Path, *args: str) -> tuple[int, str, str]:
        monkeypatch.chdir(where)
        got = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        text = (got.stdout + got.stderr).replace(str(where), "<clone>")
        assert "Traceback" not in text
        return (
            got.exit_code,
            got.stdout.replace(str(where), "<clone>"),
            got.stderr.replace(str(where), "<clone>"),
        )

    return run


@pytest.fixture
def full(origin: tuple[Path, str], tmp_path: Path) -> Path:
    return clone(origin[0], tmp_path / "full")


@pytest.fixture
def blobless(origin: tuple[Path, str], tmp_path: Path) -> Path:
    out = clone(origin[0], tmp_path / "blobless", "--filter=blob:none")
    assert missing(out)  # the old blobs are not there
    return out


@pytest.fixture
def shallow(origin: tuple[Path, str], tmp_path: Path) -> Path:
    out = clone(origin[0], tmp_path / "shallow", "--depth", "1")
    assert git(out, "rev-parse", "--is-shallow-repository").strip() == "true"
    return out


COMMANDS = [("check",), ("check", "--json"), ("verify", "--all"), ("diff", "HEAD~5", "HEAD"),
            ("ci", "--base", "HEAD~5")]  # fmt: skip


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_blobless_clone_gives_a_full_clones_verdicts(
    full: Path, blobless: Path, memkit: Callable[..., tuple[int, str, str]], args: tuple[str, ...]
) -> None:
    expected = memkit(full, *args)
    assert expected[0] == 1 or args[0] == "diff"  # stale memories, and no error
    assert memkit(blobless, *args) == expected


@pytest.mark.parametrize("args", COMMANDS[::2], ids=" ".join)
def test_treeless_clone_gives_a_full_clones_verdicts(
    full: Path,
    origin: tuple[Path, str],
    tmp_path: Path,
    memkit: Callable[..., tuple[int, str, str]],
    args: tuple[str, ...],
) -> None:
    """`--filter=tree:0`: old commits' trees are missing too (fetched with their folders)."""
    treeless = clone(origin[0], tmp_path / "treeless", "--filter=tree:0")
    assert memkit(treeless, *args) == memkit(full, *args)


def test_blobless_clone_with_history_staged_over_missing_blobs(
    full: Path, blobless: Path, memkit: Callable[..., tuple[int, str, str]]
) -> None:
    """HEAD moved back over commits whose blobs were never fetched (`git reset --soft`):
    the index renames a file whose old blob the clone lacks."""
    for repo in (full, blobless):
        git(repo, "reset", "-q", "--soft", "HEAD~2")
    assert memkit(blobless, "check") == memkit(full, "check")


def test_blobless_clone_offline_names_the_missing_blob(
    origin: tuple[Path, str], tmp_path: Path, memkit: Callable[..., tuple[int, str, str]]
) -> None:
    bare, verified = origin
    served = tmp_path / "served.git"
    git(tmp_path, "clone", "-q", "--bare", str(bare), str(served))
    git(served, "config", "uploadpack.allowFilter", "true")
    repo = clone(served, tmp_path / "offline", "--filter=blob:none")
    os.rename(served, tmp_path / "gone.git")  # the promisor remote is out of reach
    code, out, _ = memkit(repo, "check")
    assert code == 1
    lines = out.splitlines()
    assert lines[:2] == ["helper: stale", f"  pkg/other.py::helper: body since {verified[:12]}"]
    assert lines[2] == "login-flow: unverified"
    for line in lines[3:5]:
        assert line.startswith(
            ("  pkg/auth.py::login: unverified since", "  pkg/auth.py: unverified since")
        )
        assert "the blob of pkg/auth.py" in line and "not in this partial clone" in line
        assert "run again where origin can be reached" in line
    assert lines[-1] == "3 memories checked: 2 stale, 1 unverified"
    code, out, err = memkit(repo, "diff", "HEAD~5", "HEAD")
    assert code == 0 and "not in this partial clone" in out
    code, _, err = memkit(repo, "verify", "--all")
    assert code == 1 and err.count("not in this partial clone") == 2


def test_shallow_clone_says_which_history_it_lacks(
    full: Path, shallow: Path, memkit: Callable[..., tuple[int, str, str]], origin: tuple[Path, str]
) -> None:
    code, out, _ = memkit(shallow, "check")
    assert code == 1
    since = origin[1][:12]
    fix = "fetch more history: `git fetch --deepen=N` (N commits more) or `git fetch --unshallow`"
    gap = f"commit {since} is not in this shallow clone; {fix}"
    assert out.splitlines() == [
        "helper: stale",
        f"  pkg/other.py::helper: body since {since}",
        "login-flow: unverified",
        f"  pkg/auth.py::login: unverified since {since}: memkit cannot tell where "
        f"pkg/auth.py::login went: {gap}",
        f"  pkg/auth.py: unverified since {since}: memkit cannot tell where pkg/auth.py "
        f"went: {gap}",
        "session: stale",
        f"  pkg/auth.py::Session.open: moved to pkg/login.py::Session.open since {since}",
        "3 memories checked: 2 stale, 1 unverified",
    ]
    git(shallow, "fetch", "-q", "--unshallow")  # what the message says: then as a full clone
    assert memkit(shallow, "check") == memkit(full, "check")


def test_shallow_clone_verify_says_which_history_it_lacks(
    shallow: Path, memkit: Callable[..., tuple[int, str, str]], origin: tuple[Path, str]
) -> None:
    code, out, err = memkit(shallow, "verify", "--all")
    assert (code, out) == (1, "verified helper at " + git(shallow, "rev-parse", "HEAD")[:12] + "\n")
    since = origin[1][:12]
    lines = err.splitlines()
    assert len(lines) == 4 and lines[-1] == "memkit: 3 link(s) could not be verified"
    for line in lines[:2]:
        assert line.startswith("memkit: .memory/login-flow.md:")
        assert line.endswith(
            f"went: commit {since} is not in this shallow clone; fetch more history: "
            "`git fetch --deepen=N` (N commits more) or `git fetch --unshallow`"
        )


def test_ci_in_a_depth_1_clone_says_what_to_fetch(
    origin: tuple[Path, str], tmp_path: Path, memkit: Callable[..., tuple[int, str, str]]
) -> None:
    """A pull request's branch checked out at depth 1, without its base branch."""
    bare, _ = origin
    work = clone(bare, tmp_path / "work")
    git(work, "checkout", "-q", "-b", "feature", "HEAD~1")
    write_files(work, {"pkg/login.py": "def login(user, password):\n    return False\n"})
    commit(work, "feature")
    git(work, "push", "-q", "origin", "feature")
    pr = clone(bare, tmp_path / "pr", "--depth", "1", "--branch", "feature", "--single-branch")
    code, _, err = memkit(pr, "ci", "--base", "origin/main")
    assert code == 2
    assert err.splitlines() == [
        "memkit: --base 'origin/main' names no commit in this shallow clone; memkit ci needs "
        "it and the history back to where HEAD left it: fetch it with `git fetch --unshallow "
        "origin main:refs/remotes/origin/main` and run `memkit ci` again (in GitHub Actions: "
        "actions/checkout with fetch-depth: 0, as docs/github-actions.md shows)"
    ]
    git(pr, "fetch", "-q", "--unshallow", "origin", "main:refs/remotes/origin/main")
    assert memkit(pr, "ci", "--base", "origin/main") == memkit(work, "ci", "--base", "origin/main")
