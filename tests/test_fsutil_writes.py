"""fsutil.atomic_write_many: what lands on disk, its permissions, and no temp left over."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memkit import fsutil


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*.tmp"))


def test_writes_every_file_with_its_bytes(tmp_path: Path) -> None:
    files = [(tmp_path / f"m{i}.md", f"text {i}\n".encode()) for i in range(5)]
    (tmp_path / "m0.md").write_bytes(b"old")
    fsutil.atomic_write_many(files)
    assert [p.read_bytes() for p, _ in files] == [data for _, data in files]
    assert _leftovers(tmp_path) == []


def test_keeps_the_permissions_of_each_target(tmp_path: Path) -> None:
    private, script, new = tmp_path / "a.md", tmp_path / "b.md", tmp_path / "c.md"
    private.write_bytes(b"a")
    private.chmod(0o600)
    script.write_bytes(b"b")
    script.chmod(0o755)
    old = os.umask(0o077)  # the umask must not narrow a kept mode
    try:
        fsutil.atomic_write_many([(private, b"A"), (script, b"B"), (new, b"C")])
    finally:
        os.umask(old)
    assert private.stat().st_mode & 0o7777 == 0o600
    assert script.stat().st_mode & 0o7777 == 0o755
    assert new.stat().st_mode & 0o7777 == 0o644


def test_a_symbolic_link_is_replaced_by_the_file_with_its_target_mode(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_bytes(b"real")
    real.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    fsutil.atomic_write_many([(link, b"new")])
    assert not link.is_symlink() and link.read_bytes() == b"new"
    assert link.stat().st_mode & 0o7777 == 0o640
    assert real.read_bytes() == b"real"


def test_creates_missing_folders_and_survives_a_leftover_temp_name(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "deeper" / "x.md"
    fsutil.atomic_write_many([(target, b"1")])
    # the same path twice in one batch: the second temp name is taken, another is used
    fsutil.atomic_write_many([(target, b"2"), (target, b"3")])
    assert target.read_bytes() == b"3"
    assert _leftovers(tmp_path) == []


def test_a_failure_removes_every_temp_and_leaves_targets_alone(tmp_path: Path) -> None:
    good = tmp_path / "good.md"
    good.write_bytes(b"before")
    folder = tmp_path / "taken"
    (folder / "inner").mkdir(parents=True)  # a non-empty folder cannot be replaced
    with pytest.raises(OSError):
        fsutil.atomic_write_many([(folder, b"x"), (good, b"after")])
    assert good.read_bytes() == b"before"
    assert _leftovers(tmp_path) == []


def test_nothing_to_write_touches_nothing(tmp_path: Path) -> None:
    fsutil.atomic_write_many([])
    assert list(tmp_path.iterdir()) == []


def test_without_a_batch_folder_temps_go_beside_their_targets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_mkdir = os.mkdir

    def refuse(path: str, mode: int = 0o777) -> None:
        if str(path).endswith(".tmp"):
            raise PermissionError(path)
        real_mkdir(path, mode)

    monkeypatch.setattr(os, "mkdir", refuse)
    target = tmp_path / "x.md"
    (tmp_path / ".x.md.tmp").write_bytes(b"left by a crash")
    fsutil.atomic_write_many([(target, b"new"), (tmp_path / "y.md", b"y")])
    assert target.read_bytes() == b"new" and (tmp_path / "y.md").read_bytes() == b"y"
    assert _leftovers(tmp_path) == [".x.md.tmp"]  # not ours to remove
