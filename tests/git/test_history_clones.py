"""`memkit log`, `show` and `diff` (memory history) in real blobless and depth-1 clones.

A blobless clone answers as a full clone does (what it lacks is fetched from the promisor
remote); offline, or past a shallow clone's boundary, each says what it lacks and none
stops with a traceback. The project is tests/staleness/clones.py's, then a memory moved
into a folder and edited on the way, another edited and a third deleted.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from memkit.cli import cli
from tests.conftest import git, isolated
from tests.staleness.clones import build, clone, commit

Memkit = Callable[..., tuple[int, str, str]]


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    with isolated(tmp_path_factory):
        src, out, _ = build(tmp_path_factory.mktemp("origin"), empty_git_dir)
        text = (src / ".memory" / "session.md").read_text()
        (src / ".memory" / "auth").mkdir()
        git(src, "mv", ".memory/session.md", ".memory/auth/session.md")
        (src / ".memory" / "auth" / "session.md").write_text(text + "\nOne more line.\n")
        commit(src, "file the session memory under auth")
        flow = src / ".memory" / "login-flow.md"
        flow.write_text(flow.read_text() + "\nEdited.\n")
        commit(src, "edit login-flow")
        git(src, "rm", "-q", ".memory/helper.md")
        commit(src, "drop helper")
        git(src, "push", "-q", str(out), "HEAD")
    return out


@pytest.fixture
def memkit(monkeypatch: pytest.MonkeyPatch) -> Memkit:
    """Run memkit in a folder: (exit code, stdout, stderr); an exception fails the test."""
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")

    def run(where: Path, *args: str) -> tuple[int, str, str]:
        monkeypatch.chdir(where)
        got = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        assert "Traceback" not in got.stdout + got.stderr
        return got.exit_code, got.stdout, got.stderr

    return run


COMMANDS = [("log",), ("log", "--json"), ("log", "session"), ("log", "helper"),
            ("log", "login-flow", "--json"), ("show", "session"), ("show", "session", "--at",
            "HEAD~3"), ("show", "helper", "--at", "HEAD~1"), ("diff", "HEAD~7", "HEAD"),
            ("diff", "HEAD~3", "HEAD", "--json")]  # fmt: skip


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_blobless_clone_gives_a_full_clones_history(
    bare: Path, tmp_path: Path, memkit: Memkit, args: tuple[str, ...]
) -> None:
    full = clone(bare, tmp_path / "full")
    expected = memkit(full, *args)
    assert expected[0] == 0
    assert memkit(clone(bare, tmp_path / "blobless", "--filter=blob:none"), *args) == expected


@pytest.mark.parametrize("args", COMMANDS[::3], ids=" ".join)
def test_treeless_clone_gives_a_full_clones_history(
    bare: Path, tmp_path: Path, memkit: Memkit, args: tuple[str, ...]
) -> None:
    """`--filter=tree:0`: old commits' trees are missing too."""
    expected = memkit(clone(bare, tmp_path / "full"), *args)
    assert memkit(clone(bare, tmp_path / "treeless", "--filter=tree:0"), *args) == expected


def test_log_follows_the_move_into_a_folder(bare: Path, tmp_path: Path, memkit: Memkit) -> None:
    code, out, _ = memkit(clone(bare, tmp_path / "full"), "log", "session")
    assert code == 0
    assert "file the session memory under auth" in out and "memories" in out


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_shallow_clone_history_says_what_it_lacks(
    bare: Path, tmp_path: Path, memkit: Memkit, args: tuple[str, ...]
) -> None:
    shallow = clone(bare, tmp_path / "shallow", "--depth", "1")
    code, _, err = memkit(shallow, *args)
    if code:
        assert code == 2 and len(err.splitlines()) == 1 and err.startswith("memkit: ")
        assert "shallow" in err


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_blobless_clone_offline_history_has_no_traceback(
    bare: Path, tmp_path: Path, memkit: Memkit, args: tuple[str, ...]
) -> None:
    served = tmp_path / "served.git"
    git(tmp_path, "clone", "-q", "--bare", str(bare), str(served))
    git(served, "config", "uploadpack.allowFilter", "true")
    repo = clone(served, tmp_path / "offline", "--filter=blob:none")
    os.rename(served, tmp_path / "gone.git")  # the promisor remote is out of reach
    code, _, err = memkit(repo, *args)
    if code:
        assert code == 2 and len(err.splitlines()) == 1 and err.startswith("memkit: ")
