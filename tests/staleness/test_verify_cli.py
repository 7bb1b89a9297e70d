"""`memkit verify` without click (memkit.commands.fast) does what the click command does."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memkit.commands.fast import parse_verify
from memkit.store import Store
from tests.conftest import git
from tests.staleness.test_check_cli import main_in_a_process
from tests.staleness.test_staleness_languages import commit_all, remember, write

CODE = "def good(x):\n    return x + 1\n\n\ndef other(y):\n    return y * 2\n"


@pytest.fixture
def verifiable(repo: Path, store: Store) -> Path:
    """Memories fresh, changed under, moved, with a bad link, never verified; an invalid file."""
    write(repo, "a.py", CODE + "\n\ndef mover(z):\n    return [z, z, z, z]\n")
    commit_all(repo, "code")
    remember(repo, store, ["a.py::good"], mid="fresh-one")
    remember(repo, store, ["a.py::other"], mid="changed-one")
    remember(repo, store, ["a.py::mover"], mid="moved-one")
    write(repo, ".memory/never.md", "---\ntitle: Never\nlinks: [a.py::good]\n---\n\nText.\n")
    write(repo, ".memory/bad.md", "---\ntitle: Bad\nlinks:\n- a.py::nothing\n---\n\nText.\n")
    write(repo, ".memory/broken.md", "---\ntitle: [\n---\n")
    write(repo, "a.py", CODE.replace("y * 2", "y * 3"))
    write(repo, "b.py", "def mover(z):\n    return [z, z, z, z]\n")
    commit_all(repo, "change other, move mover")
    return repo


def _memkit(root: Path, *args: str, fast: bool) -> tuple[int, str, str, str]:
    """Exit code, output, errors and `git status` of the command run in a copy of `root`."""
    copy = root.parent / ("fast" if fast else "click")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, symlinks=True)
    entry = "main" if fast else "cli"
    code = f"import sys\nfrom memkit.cli import {entry}\n{entry}(sys.argv[1:])"
    env = {"PATH": "/usr/bin:/bin", "MEMKIT_TODAY": "2026-11-22", "HOME": str(root)}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=copy, capture_output=True,
                          text=True, env=env)  # fmt: skip
    status = git(copy, "status", "--porcelain") + git(copy, "diff")
    return done.returncode, done.stdout, done.stderr, status


@pytest.mark.parametrize(
    "args",
    [
        ("--all",),
        ("--all", "--follow"),
        ("fresh-one",),
        ("fresh-one", "changed-one", "bad"),
        ("--follow", "moved-one"),
        ("moved-one",),
        ("--", "never"),
        ("no-such-memory",),
        ("broken",),
    ],
)
def test_fast_verify_does_what_click_does(verifiable: Path, args: tuple[str, ...]) -> None:
    fast = _memkit(verifiable, "verify", *args, fast=True)
    assert fast == _memkit(verifiable, "verify", *args, fast=False)
    assert parse_verify(list(args)) is not None


def test_fast_verify_reports_and_writes(verifiable: Path) -> None:
    code, out, err, status = _memkit(verifiable, "verify", "--all", fast=True)
    assert code == 1
    assert out.splitlines() == [f"verified {m} at {git(verifiable, 'rev-parse', 'HEAD')[:12]}"
                                for m in ("changed-one", "never")]  # fmt: skip
    assert ".memory/bad.md:4: link 'a.py::nothing': a.py defines no symbol" in err
    assert "its code moved to b.py::mover: pass --follow" in err and "broken" in err
    assert err.endswith("memkit: 2 link(s) could not be verified; 1 invalid memory file(s) "
                        "(see `memkit validate`)\n")  # fmt: skip
    assert " M .memory/never.md" in status and ".memory/fresh-one.md" not in status


@pytest.mark.parametrize(
    "args",
    [(), ("--all", "x"), ("--commit", "x"), ("--help",), ("-a",), ("--all=1",), ("--followx", "x")],
)
def test_other_verify_calls_are_left_to_click(args: tuple[str, ...]) -> None:
    assert parse_verify(list(args)) is None


def test_fast_verify_imports_no_click(verifiable: Path) -> None:
    out = "fresh-one: fingerprints unchanged, file left as it is\n"
    assert main_in_a_process(verifiable, "verify", "fresh-one") == (out, False)
