"""`memkit check` without click (memkit.commands.fast) prints what the click command prints."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memkit.commands.fast import parse_check
from memkit.store import Store
from tests.staleness.test_staleness_languages import commit_all, remember, write

CODE = "def good(x):\n    return x + 1\n\n\ndef other(y):\n    return y * 2\n"


@pytest.fixture
def checked(repo: Path, store: Store) -> Path:
    """Fresh, stale, unverified, draft and expired memories, and an invalid file."""
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::good"], mid="fresh-one")
    remember(repo, store, ["a.py::other"], mid="stale-one")
    write(repo, ".memory/never.md", "---\ntitle: Never\nlinks: [a.py::good]\n---\n\nText.\n")
    write(repo, ".memory/draft.md", (repo / ".memory/stale-one.md").read_text()
          .replace("title: About the code", "title: Draft\nstatus: draft"))  # fmt: skip
    write(repo, ".memory/old.md", "---\ntitle: Old\nexpires: 2020-01-01\n---\n\nText.\n")
    write(repo, ".memory/broken.md", "---\ntitle: [\n---\n")
    write(repo, "a.py", CODE.replace("y * 2", "y * 3"))
    commit_all(repo, "change other")
    return repo


def _memkit(root: Path, *args: str, fast: bool) -> tuple[int, str, str]:
    entry = "main" if fast else "cli"
    code = f"import sys\nfrom memkit.cli import {entry}\n{entry}(sys.argv[1:])"
    env = {"PATH": "/usr/bin:/bin", "MEMKIT_TODAY": "2026-11-22", "HOME": str(root)}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=root, capture_output=True,
                          text=True, env=env)  # fmt: skip
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--json",),
        ("stale-one",),
        ("fresh-one", "--json"),
        ("--", "fresh-one", "old"),
        ("draft", "never"),
        ("no-such-memory",),
    ],
)
def test_fast_check_prints_what_click_prints(checked: Path, args: tuple[str, ...]) -> None:
    fast = _memkit(checked, "check", *args, fast=True)
    assert fast == _memkit(checked, "check", *args, fast=False)
    assert parse_check(list(args)) is not None


def test_the_fast_check_fails_as_click_does(checked: Path) -> None:
    code, out, err = _memkit(checked, "check", fast=True)
    assert code == 1 and "stale-one: stale\n  a.py::other: body since " in out
    assert "draft: stale (draft: does not fail the check)" in out
    assert err.startswith("memkit: .memory/broken.md:")  # named, and the check fails
    assert err.endswith("memkit: 1 invalid memory file(s) (fix them, then `memkit validate`)\n")
    assert _memkit(checked, "check", "fresh-one", fast=True)[0] == 0
    assert _memkit(checked, "check", "old", fast=True)[0] == 0  # expired: a note by default
    (checked / ".memory" / "config.toml").write_text('[check]\nfail_on = ["expired"]\n')
    assert _memkit(checked, "check", "old", fast=True)[0] == 1  # `fail_on` read as by click
    assert _memkit(checked, "check", "old", fast=False)[0] == 1


@pytest.mark.parametrize("args", [("--help",), ("-h",), ("--jsonx",), ("--json=1",), ("-",)])
def test_other_check_calls_are_left_to_click(args: tuple[str, ...]) -> None:
    assert parse_check(list(args)) is None


def main_in_a_process(root: Path, *args: str) -> tuple[str, bool]:
    """What memkit.cli.main prints for `args` in a new process at `root`, and whether
    it imported click."""
    code = "import sys\nfrom memkit.cli import main\ntry:\n    main(sys.argv[1:])\n" \
        "except SystemExit:\n    pass\nprint('click' in sys.modules, file=sys.stderr)"  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=root, capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin"})  # fmt: skip
    return done.stdout, done.stderr.strip().splitlines()[-1] == "True"


def test_fast_check_imports_no_click(checked: Path) -> None:
    assert main_in_a_process(checked, "check", "fresh-one") == (
        "1 memories checked: 1 fresh\n",
        False,
    )
