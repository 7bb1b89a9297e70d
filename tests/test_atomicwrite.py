"""memkit.atomicwrite.atomic_write: the file replaced whole, its mode kept, no temp file left,
and an import light enough for the pre-commit hook's lean route."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memkit import atomicwrite


def test_a_file_is_created_or_replaced_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    atomicwrite.atomic_write(tmp_path / "new" / "a.txt", b"one")  # a Path; the folder made
    assert (tmp_path / "new" / "a.txt").read_bytes() == b"one"
    assert (tmp_path / "new" / "a.txt").stat().st_mode & 0o777 == 0o644
    script = tmp_path / "run.sh"
    script.write_bytes(b"old")
    script.chmod(0o750)
    atomicwrite.atomic_write(str(script), b"new", fsync=False)  # a str: its mode kept
    assert (script.read_bytes(), script.stat().st_mode & 0o777) == (b"new", 0o750)
    monkeypatch.chdir(tmp_path)
    atomicwrite.atomic_write("plain.txt", b"here", mode=0o600)  # relative to the current folder
    assert (tmp_path / "plain.txt").read_bytes() == b"here"
    assert (tmp_path / "plain.txt").stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "plain.txt", "run.sh"]


def test_a_failed_replace_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "inside").write_bytes(b"x")
    with pytest.raises(OSError):
        atomicwrite.atomic_write(folder, b"data")  # a non-empty folder cannot be replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    assert (folder / "inside").read_bytes() == b"x"


def test_importing_it_loads_neither_pathlib_nor_contextlib() -> None:
    code = (
        "import sys\nbefore = set(sys.modules)\nimport memkit.atomicwrite\n"
        "print(sorted({'pathlib', 'contextlib', 'tempfile'} & (set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"
