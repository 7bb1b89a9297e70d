"""What the pre-commit checks (memkit.githooks.checks) find, given what a commit stages."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke, git, write_memory

from memkit.errors import ConfigError
from memkit.githooks import checks, fastpath
from memkit.store import Store


def staged(repo: Path) -> list[str]:
    return fastpath.staged_names(str(repo))


def problems(store: Store) -> list[str]:
    return [str(p) for p in checks.invalid_memories(store, staged(store.root))]


@pytest.fixture
def base(repo: Path, store: Store) -> Store:
    write_memory(store, "old", "---\ntitle: Old\n---\n\nold\n")
    write_memory(store, "broken", "---\ntitle: Broken\nstatus: maybe\n---\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    return store


def test_only_staged_memories_are_checked(base: Store) -> None:
    assert problems(base) == []  # broken.md is committed already: not this commit's doing
    write_memory(base, "new", "---\ntitle: New\nsupersedes: [gone]\n---\n\nghp_" + "a" * 36 + "\n")
    git(base.root, "add", ".memory/new.md")
    assert problems(base) == [
        ".memory/new.md:3: supersedes: no memory with id 'gone' in the store",
        ".memory/new.md:6: secret: looks like a GitHub token; remove it (a store committed to "
        "git keeps it forever), or mark a fake example with `memkit: allow-secret` on that line",
    ]


def test_duplicate_id_is_reported_whichever_file_is_staged(base: Store) -> None:
    write_memory(base, "old", "---\ntitle: Also old\n---\n", folder="a")
    git(base.root, "add", ".memory/a/old.md")
    assert problems(base) == [
        ".memory/old.md:1: id: duplicate id 'old': .memory/a/old.md has the same file name; "
        "rename one of them"
    ]


def test_deleting_a_referenced_memory_checks_the_whole_store(base: Store) -> None:
    write_memory(base, "newer", "---\ntitle: Newer\nsupersedes: [old]\n---\n")
    git(base.root, "add", "-A")
    git(base.root, "commit", "-q", "-m", "newer")
    git(base.root, "rm", "-q", ".memory/old.md")
    assert ".memory/newer.md:3: supersedes: no memory with id 'old' in the store" in problems(base)


def test_a_staged_config_is_loaded(base: Store) -> None:
    (base.dir / "config.toml").write_text("[compile\n", encoding="utf-8")
    git(base.root, "add", ".memory/config.toml")
    with pytest.raises(ConfigError, match="invalid TOML"):
        problems(base)


def test_run_validate_and_pre_commit(run: Invoke, base: Store) -> None:
    assert run("hooks", "run", "pre-commit").stdout == ""
    out = run("hooks", "run", "validate", code=1)
    assert out.stdout == (
        ".memory/broken.md:3: status: unknown value 'maybe'; use one of: active, draft, "
        "archived, superseded\n"
    )
    assert out.stderr == "memkit: 1 problem(s) in 1 file(s)\n"
    assert run("hooks", "run", "stale", "--strict").stdout == ""
