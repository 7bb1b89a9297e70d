"""`memkit check` as the installed command runs it (memkit.cli.main, in a process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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
    write(
        repo,
        ".memory/draft.md",
        (repo / ".memory/stale-one.md")
        .read_text()
        .replace("title: About the code", "title: Draft\nstatus: draft"),
    )
    write(repo, ".memory/old.md", "---\ntitle: Old\nexpires: 2020-01-01\n---\n\nText.\n")
    write(repo, ".memory/broken.md", "---\ntitle: [\n---\n")
    write(repo, "a.py", CODE.replace("y * 2", "y * 3"))
    commit_all(repo, "change other")
    return repo


def main_in_a_process(root: Path, *args: str) -> tuple[int, str, str]:
    """Exit code, output and errors of memkit.cli.main for `args` in a new process at `root`."""
    code = "import sys\nfrom memkit.cli import main\nmain(sys.argv[1:])"
    env = {"PATH": "/usr/bin:/bin", "MEMKIT_TODAY": "2026-11-22", "HOME": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=root, capture_output=True, text=True, env=env
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("args", "code", "summary"),
    [
        ((), 1, "5 memories checked: 1 fresh, 2 stale, 1 expired, 1 unverified"),
        (("stale-one",), 1, "1 memories checked: 1 stale"),
        (("--", "fresh-one", "old"), 0, "2 memories checked: 1 fresh, 1 expired"),
        (("draft", "never"), 1, "2 memories checked: 1 stale, 1 unverified"),
    ],
)
def test_check_summary_and_exit(
    checked: Path, args: tuple[str, ...], code: int, summary: str
) -> None:
    got, out, _ = main_in_a_process(checked, "check", *args)
    assert (got, out.splitlines()[-1]) == (code, summary)


@pytest.mark.parametrize(("args", "ids"), [(("--json",), 5), (("fresh-one", "--json"), 1)])
def test_check_json(checked: Path, args: tuple[str, ...], ids: int) -> None:
    out = main_in_a_process(checked, "check", *args)[1]
    assert len(json.loads(out)) == ids


def test_check_of_an_unknown_memory_is_a_user_error(checked: Path) -> None:
    code, out, err = main_in_a_process(checked, "check", "no-such-memory")
    assert (code, out, len(err.splitlines())) == (2, "", 1)
    assert err.startswith("memkit: ") and "no-such-memory" in err


def test_check_fails_for_stale_and_invalid_memories(checked: Path) -> None:
    code, out, err = main_in_a_process(checked, "check")
    assert code == 1 and "stale-one: stale\n  a.py::other: body since " in out
    assert "draft: stale (draft: does not fail the check)" in out
    assert err.startswith("memkit: .memory/broken.md:")  # named, and the check fails
    assert err.endswith("memkit: 1 invalid memory file(s) (fix them, then `memkit validate`)\n")
    assert main_in_a_process(checked, "check", "fresh-one") == (
        0,
        "1 memories checked: 1 fresh\n",
        "",
    )
    assert main_in_a_process(checked, "check", "old")[0] == 0  # expired: a note by default
    (checked / ".memory" / "config.toml").write_text('[check]\nfail_on = ["expired"]\n')
    assert main_in_a_process(checked, "check", "old")[0] == 1  # `fail_on` read
