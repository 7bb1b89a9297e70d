"""Team stores an outsider built to hurt: trees reused under many names, deep folders,
large blobs. Written with pygit2 straight into a bare repository (a few objects each)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

MEMORY = b"---\ntitle: Team rule %d\ntype: convention\n---\n\nBody %d.\n"
TREE, BLOB = 0o040000, 0o100644  # git's file modes (pygit2.enums.FileMode)


def _pygit2() -> Any:
    # Imported when first used, never at collection: libgit2 reads HOME for git's global
    # config as it starts, before the isolated environment of each test is set.
    import pygit2

    return pygit2


def bare(path: Path) -> Any:
    return _pygit2().init_repository(str(path), bare=True, initial_head="main")


def tree(repo: Any, entries: dict[str, tuple[Any, int]]) -> Any:
    tb = repo.TreeBuilder()
    for name, (oid, mode) in sorted(entries.items()):
        tb.insert(name, oid, mode)
    return tb.write()


def memory(repo: Any, n: int = 0) -> Any:
    return repo.create_blob(MEMORY % (n, n))


def commit(repo: Any, memory_folder: Any, message: str = "store") -> str:
    """Commit a root tree with `memory_folder` as .memory; move main to it."""
    root = tree(repo, {".memory": (memory_folder, TREE)})
    sig = _pygit2().Signature("Team", "team@example.com", 1_700_000_000, 0)
    parents = [] if repo.head_is_unborn else [repo.head.target]
    return str(repo.create_commit("refs/heads/main", sig, sig, message, root, parents))


def bomb(repo: Any, levels: int, fan: int, files: int, blob: Any) -> Any:
    """`fan` folders on each of `levels` levels over `files` files: fan**levels * files
    paths from levels + 1 tree objects."""
    oid = tree(repo, {f"f{i}.md": (blob, BLOB) for i in range(files)})
    for _ in range(levels):
        oid = tree(repo, {f"d{i}": (oid, TREE) for i in range(fan)})
    return oid


def garble(repo: Any, oid: Any) -> None:
    """Damage a loose object past its header: its type and size still read, its content
    does not (so a test sees whether memkit read it)."""
    path = Path(repo.path) / "objects" / str(oid)[:2] / str(oid)[2:]
    data = path.read_bytes()
    os.chmod(path, 0o644)
    path.write_bytes(data[:200] + b"\xff" * (len(data) - 200))


def bare_open(path: Path) -> Any:
    return _pygit2().Repository(str(path))
