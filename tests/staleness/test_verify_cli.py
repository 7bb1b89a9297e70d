"""`memkit verify` as the installed command runs it (memkit.cli.main, in a process)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memkit.store import Store
from tests.conftest import git
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


def _memkit(root: Path, *args: str) -> tuple[int, str, str, str]:
    """Exit code, output, errors and `git status` of the command run in a copy of `root`."""
    copy = root.parent / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, symlinks=True)
    code = "import sys\nfrom memkit.cli import main\nmain(sys.argv[1:])"
    env = {"PATH": "/usr/bin:/bin", "MEMKIT_TODAY": "2026-11-22", "HOME": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=copy, capture_output=True, text=True, env=env
    )
    status = git(copy, "status", "--porcelain") + git(copy, "diff")
    return done.returncode, done.stdout, done.stderr, status


@pytest.mark.parametrize(
    ("args", "code", "written", "unchanged"),
    [
        (("--all",), 1, ["changed-one", "never"], []),
        (("--all", "--follow"), 1, ["changed-one", "moved-one", "never"], []),
        (("fresh-one",), 0, [], ["fresh-one"]),
        (("fresh-one", "changed-one", "bad"), 1, ["changed-one"], ["fresh-one"]),
        (("--follow", "moved-one"), 0, ["moved-one"], []),
        (("moved-one",), 1, [], []),
        (("--", "never"), 0, ["never"], []),
        (("no-such-memory",), 2, [], []),
        (("broken",), 2, [], []),
    ],
)
def test_verify_writes_what_it_says(
    verifiable: Path, args: tuple[str, ...], code: int, written: list[str], unchanged: list[str]
) -> None:
    got, out, _, status = _memkit(verifiable, "verify", *args)
    head = git(verifiable, "rev-parse", "HEAD")[:12]
    assert (got, out.splitlines()) == (
        code,
        [f"verified {m} at {head}" for m in written]
        + [f"{m}: fingerprints unchanged, file left as it is" for m in unchanged],
    )
    modified = [line[3:] for line in status.splitlines() if line.startswith(" M ")]
    assert modified == [f".memory/{m}.md" for m in written]


def test_verify_reports_and_writes(verifiable: Path) -> None:
    code, out, err, status = _memkit(verifiable, "verify", "--all")
    assert code == 1
    assert out.splitlines() == [
        f"verified {m} at {git(verifiable, 'rev-parse', 'HEAD')[:12]}"
        for m in ("changed-one", "never")
    ]
    assert ".memory/bad.md:4: link 'a.py::nothing': a.py defines no symbol" in err
    assert "its code moved to b.py::mover: pass --follow" in err and "broken" in err
    assert err.endswith(
        "memkit: 2 link(s) could not be verified; 1 invalid memory file(s) "
        "(see `memkit validate`)\n"
    )
    assert " M .memory/never.md" in status and ".memory/fresh-one.md" not in status


def test_verify_of_nothing_is_a_user_error(verifiable: Path) -> None:
    line = "memkit: name the memories to verify (memkit verify ID...) or pass --all\n"
    assert _memkit(verifiable, "verify") == (2, "", line, "")
    assert _memkit(verifiable, "verify", "--all", "fresh-one") == (2, "", line, "")
