"""The point-of-action index's write side (memkit.agents.claude.indexer): the digest of
the memory files' stamps that SessionStart compares, and the index's bytes."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path

from memkit import memory as mm
from memkit.agents.claude.indexer import digest
from memkit.store import Store

DAY = datetime.date(2026, 11, 22)


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_digest_sees_an_in_place_edit_in_a_nested_folder(tmp_path: Path) -> None:
    _write(tmp_path, ".memory/a.md", "one\n")
    nested = _write(tmp_path, ".memory/team/deep/b.md", "two\n")
    before = digest(str(tmp_path))
    folder = nested.parent.stat()
    st = nested.stat()
    nested.write_text("TWO\n")  # same size, in place
    os.utime(nested, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    os.utime(nested.parent, ns=(folder.st_atime_ns, folder.st_mtime_ns))
    assert digest(str(tmp_path)) != before


def test_the_digest_covers_only_the_memory_files(tmp_path: Path) -> None:
    _write(tmp_path, ".memory/a.md", "one\n")
    before = digest(str(tmp_path))
    _write(tmp_path, ".memory/templates/agents.md", "a template\n")
    _write(tmp_path, ".memory/.cache/x.md", "a cache\n")
    _write(tmp_path, ".memory/notes.txt", "not a memory\n")
    assert digest(str(tmp_path)) == before
    _write(tmp_path, ".memory/team/templates/c.md", "a memory in a nested templates folder\n")
    assert digest(str(tmp_path)) != before


def test_the_digest_does_not_follow_a_linked_folder(tmp_path: Path) -> None:
    _write(tmp_path, ".memory/a.md", "one\n")
    _write(tmp_path, "elsewhere/b.md", "outside\n")
    before = digest(str(tmp_path))
    (tmp_path / ".memory" / "linked").symlink_to(tmp_path / "elsewhere")
    assert digest(str(tmp_path)) == before
    assert digest(str(tmp_path / "missing")) == digest(str(tmp_path / "also-missing"))


def test_the_index_is_the_same_bytes_whatever_the_hash_seed(store: Store) -> None:
    for n in range(20):  # many words a memory: several share a bucket of the index
        title = " ".join(f"kw{n}x{k}" for k in range(40))
        store.add(mm.new(title, "Body.", mid=f"m-{n}", today=DAY, tags=["network", "upload"]))
    code = (
        "import sys, datetime\n"
        "from memkit.store import Store\n"
        "from memkit.agents.claude import indexer\n"
        "day = datetime.date(2026, 11, 22)\n"
        "sys.stdout.buffer.write(indexer.build(Store(sys.argv[1]), today=day))\n"
    )
    built = {
        subprocess.run(
            [sys.executable, "-c", code, str(store.root)],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3", "4")
    }
    assert len(built) == 1 and built.pop()
