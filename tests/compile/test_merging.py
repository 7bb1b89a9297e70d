"""Compiled files merge under plain git: independent memory changes touch different lines.

Two branches each add or edit one memory; git's three-way merge of their compiled files
(`git merge-file`, what a hosting service's merge button runs) must succeed and give
exactly what `memkit compile` writes for the merged memories, as long as no budget cuts.
"""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

import pytest
from conftest import Invoke, write_memory

from memkit.compile.plan import build
from memkit.store import Store

TODAY = dt.date(2026, 11, 22)
TYPES = ("decision", "convention", "gotcha")


def text(n: int, extra: str = "") -> str:
    return (
        f"---\ntitle: Memory {n:02d}\ntype: {TYPES[n // 10 % 3]}\n---\n\n"
        f"Line one of memory {n}.\n\nWhy: reason {n}.\n{extra}"
    )


def compiled(store: Store, memories: dict[int, str]) -> dict[str, bytes]:
    """Every output of the default targets for exactly `memories` (number -> file text)."""
    for p in store.dir.glob("m*.md"):
        p.unlink()
    for n, body in memories.items():
        write_memory(store, f"m{n:02d}", body)
    plan = build(store, today=TODAY)
    return {f.path: f.new for f in plan.files if f.new is not None}


def merge(tmp: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[int, bytes]:
    files = []
    for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
        (tmp / name).write_bytes(data)
        files.append(str(tmp / name))
    done = subprocess.run(["git", "merge-file", "-p", *files], capture_output=True)
    return done.returncode, done.stdout


def seed() -> dict[int, str]:
    """13 memories: decisions m02-m08 and m32-m38, conventions m11-m17, gotchas m20-m29."""
    return {n: text(n) for n in range(2, 40, 3)}


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ({"add": 3}, {"add": 9}),  # additions in different places of one type group
        ({"add": 3}, {"add": 13}),  # in different groups
        ({"add": 3}, {"add": 6}),  # with one memory between them
        ({"edit": 5}, {"edit": 8}),  # neighbours in the file, both edited
        ({"edit": 5}, {"add": 6}),  # an edit and an addition right after it
        ({"add": 0}, {"add": 39}),  # at the start and at the end
    ],
)
def test_independent_changes_merge_to_what_compile_writes(
    store: Store, tmp_path: Path, ours: dict[str, int], theirs: dict[str, int]
) -> None:
    def change(memories: dict[int, str], what: dict[str, int]) -> dict[int, str]:
        out = dict(memories)
        if "add" in what:
            out[what["add"]] = text(what["add"])
        if "edit" in what:
            out[what["edit"]] = text(what["edit"], f"\nEdited on a branch ({what}).\n")
        return out

    base = seed()
    a, b = change(base, ours), change(base, theirs)
    both = change(a, theirs)
    files = [compiled(store, m) for m in (base, a, b, both)]
    assert set(files[3]) >= {"AGENTS.md", "CLAUDE.md"}
    for path, want in files[3].items():
        code, got = merge(tmp_path, files[0].get(path, b""), files[1][path], files[2][path])
        assert code == 0, f"{path} conflicted:\n{got.decode()}"
        assert got == want, path


def test_default_budgets_do_not_cut_a_team_sized_store(store: Store) -> None:
    """80 memories: every always-on one reaches AGENTS.md and CLAUDE.md in full."""
    files = compiled(store, {n: text(n) for n in range(80)})
    for path in ("AGENTS.md", "CLAUDE.md"):
        assert files[path].count(b"<!-- memkit:id=") == 80, path
        assert b"## More memories" not in files[path]


def test_what_was_left_out_is_named_without_a_count(store: Store) -> None:
    """Over 40 left out: the ids one a line, then a line that stays the same as more are cut."""
    (store.dir / "config.toml").write_text('[compile]\nbudgets = { agents = "12 lines" }\n')
    store._config = None
    files = compiled(store, {n: text(n) for n in range(60)})
    section = files["AGENTS.md"].decode().split("<!-- memkit:begin -->")[1]
    lines = section.splitlines()
    assert "- and more (`memkit compile --explain AGENT` lists them)" in lines
    assert not any(ch.isdigit() for ch in lines[-2]), lines[-2]
    assert sum(1 for line in lines if line.startswith("- `m")) == 40
    assert "budget (" not in section  # no size that changes with the chain either


def test_compile_settles_a_conflicted_file_and_check_says_so(
    store: Store, run: Invoke, tmp_path: Path
) -> None:
    """Two memories in one gap conflict; `memkit compile` alone settles the file."""
    base = seed()
    files = [compiled(store, m) for m in (base, {**base, 3: text(3)}, {**base, 4: text(4)})]
    code, got = merge(tmp_path, files[0]["AGENTS.md"], files[1]["AGENTS.md"], files[2]["AGENTS.md"])
    assert code == 1 and b"<<<<<<<" in got  # the limit: both land between m02 and m05
    both = compiled(store, {**base, 3: text(3), 4: text(4)})
    (store.root / "AGENTS.md").write_bytes(got)
    result = run("compile", "--check", "-t", "agents", code=1)
    assert result.stderr.endswith(
        "memkit: compiled files are out of date; run `memkit compile` and commit them "
        "(it also settles a merge conflict in them)\n"
    )
    run("compile", "-t", "agents")
    assert (store.root / "AGENTS.md").read_bytes() == both["AGENTS.md"]
