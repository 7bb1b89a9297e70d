"""One walk of what Claude Code loads at session start (loaded.start_files): preloaded's
answers (the ids SessionStart and the index leave out) and loaded's receipts (what the
compiled files gave) come from the same files. Each test builds one project and pins
both answers."""

from __future__ import annotations

import datetime
import os
import threading
from pathlib import Path

import pytest
from conftest import claude_hook

from memkit import memory as mm
from memkit.agents.claude import loaded, recall
from memkit.agents.claude.indexer import build
from memkit.agents.claude.loaded import at_start
from memkit.agents.claude.preloaded import compiled, compiled_ids
from memkit.store import Store

DAY = datetime.date(2026, 11, 22)


def full(mid: str) -> str:
    return f"<!-- memkit:id={mid} -->\n"


def received(root: Path, cwd: Path | None = None) -> list[str]:
    """The ids of the receipts at session start, in order."""
    return [str(r["id"]) for r in at_start(str(root), str(cwd or root), "t", "startup", "")]


def both(root: Path) -> tuple[list[str], list[str]]:
    return sorted(compiled_ids(root)), received(root)


def test_the_same_files_inside_the_project(repo: Path, tmp_path: Path) -> None:
    """`@../x` staying inside is read; a link out, a FIFO, an import over 4 MiB, `@../x`
    leaving the project and `@~/x` (the user's home, never a folder named `~`) are not."""
    outside = tmp_path / "outside.md"
    outside.write_text(full("out"))
    (repo / "sub").mkdir()
    (repo / "~").mkdir()
    (repo / "CLAUDE.md").write_text(
        full("a") + "@sub/b.md\n@../up.md\n@out.md\n@fifo.md\n@big.md\n@~/home.md\n"
    )
    (repo / "sub" / "b.md").write_text(full("b") + "@../c.md\n")
    (repo / "c.md").write_text(full("c"))
    (repo / "out.md").symlink_to(outside)
    os.mkfifo(repo / "fifo.md")
    (repo / "big.md").write_text(full("big") + "x" * (4 * 1024 * 1024))
    (repo / "~" / "home.md").write_text(full("home"))
    assert both(repo) == (["a", "b", "c"], ["a", "b", "c"])


@pytest.mark.parametrize(
    ("files", "want"),
    [
        ({"CLAUDE.md": "a", ".claude/CLAUDE.md": "c", "AGENTS.md": "g"}, ["a", "c"]),
        ({".claude/CLAUDE.md": "c", "AGENTS.md": "g"}, ["c"]),
        ({"AGENTS.md": "g"}, ["g"]),
    ],
)
def test_the_same_first_files_at_the_root(
    repo: Path, files: dict[str, str], want: list[str]
) -> None:
    for rel, mid in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(full(mid))
    assert both(repo) == (want, want)


def test_undecodable_bytes_are_replaced_and_their_imports_followed(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(full("a") + "@b.md\n")
    (repo / "b.md").write_bytes(b"\xff\n" + full("b").encode() + b"@c.md\n")
    (repo / "c.md").write_text(full("c"))
    assert both(repo) == (["a", "b", "c"], ["a", "b", "c"])
    assert compiled(str(repo))[2] == ["CLAUDE.md", ".claude/CLAUDE.md", "b.md", "c.md"]


def test_an_absolute_import_is_followed_inside_the_project_only(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "out.md").write_text(full("out"))
    (repo / "CLAUDE.md").write_text(f"@{repo.resolve()}/b.md\n@{tmp_path / 'out.md'}\n")
    (repo / "b.md").write_text(full("b"))
    assert both(repo) == (["b"], ["b"])


def test_a_file_in_git_is_never_read(repo: Path) -> None:
    (repo / ".git" / "b.md").write_text(full("b"))
    (repo / "CLAUDE.md").write_text(full("a") + "@.git/b.md\n")
    assert both(repo) == (["a"], ["a"])
    (repo / "CLAUDE.md").unlink()
    (repo / "CLAUDE.md").symlink_to(".git/b.md")
    assert both(repo) == ([], [])


def test_the_shortest_route_decides_whatever_the_start_order(repo: Path) -> None:
    """A file reached at the last depth by one route and at depth 1 by another has its
    imports followed, whichever of CLAUDE.md and .claude/CLAUDE.md holds the short one."""
    (repo / ".claude").mkdir()
    for i in range(1, 5):
        (repo / f"a{i}.md").write_text(f"@a{i + 1}.md\n" if i < 4 else "@x.md\n")
    (repo / "x.md").write_text(full("x") + "@y.md\n")
    (repo / "y.md").write_text(full("y"))
    (repo / "CLAUDE.md").write_text("@a1.md\n")
    (repo / ".claude" / "CLAUDE.md").write_text("@../x.md\n")
    assert both(repo) == (["x", "y"], ["x", "y"])
    (repo / "CLAUDE.md").write_text("@x.md\n")
    (repo / ".claude" / "CLAUDE.md").write_text("@../a1.md\n")
    assert both(repo) == (["x", "y"], ["x", "y"])
    (repo / ".claude" / "CLAUDE.md").unlink()
    (repo / "CLAUDE.md").write_text("@a1.md\n")  # x at the fifth hop: y is the sixth
    assert both(repo) == (["x"], ["x"])


def test_rules_at_any_depth_regular_files_up_to_4_mib(repo: Path) -> None:
    rules = repo / ".claude" / "rules"
    (rules / "sub").mkdir(parents=True)
    (rules / "a.md").write_text(full("a"))
    (rules / "sub" / "b.md").write_text(full("b"))
    (rules / "big.md").write_text(full("big") + "x" * (2 * 1024 * 1024))
    (rules / "huge.md").write_text(full("huge") + "x" * (4 * 1024 * 1024))
    (rules / "bad.md").write_bytes(b"\xff" + full("bad").encode())
    (rules / "dir.md").mkdir()
    os.mkfifo(rules / "fifo.md")
    _, got, files = compiled(str(repo))
    assert sorted(got) == ["a", "b", "bad", "big"]
    names = ["a", "bad", "big", "fifo", "huge"]
    assert files[2:] == [
        ".claude/rules",
        *(f".claude/rules/{n}.md" for n in names),
        ".claude/rules/dir.md",  # a folder: walked
        ".claude/rules/sub",
        ".claude/rules/sub/b.md",
    ]
    assert received(repo) == ["a", "bad", "big", "b"]


def test_folders_below_the_root_are_walked_for_a_session_started_there(repo: Path) -> None:
    (repo / "sub").mkdir()
    (repo / "CLAUDE.md").write_text(full("a"))
    (repo / "sub" / "CLAUDE.md").write_text(full("s"))
    assert sorted(compiled_ids(repo)) == ["a"]
    assert received(repo, repo / "sub") == ["a", "s"]
    assert received(repo) == ["a"]


def test_a_file_swapped_for_a_fifo_never_blocks(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every "is it a regular file" check answers yes, then the path holds a FIFO."""
    os.mkfifo(repo / "CLAUDE.md")
    (repo / ".claude" / "rules").mkdir(parents=True)
    os.mkfifo(repo / ".claude" / "rules" / "r.md")
    monkeypatch.setattr(os.path, "isfile", lambda path: True)
    got: list[object] = []
    walk = threading.Thread(target=lambda: got.extend([both(repo), compiled(str(repo))]))
    walk.daemon = True
    walk.start()
    walk.join(timeout=10)
    assert not walk.is_alive() and got[0] == ([], [])


def test_the_session_start_hook_returns_with_fifos_where_files_are(store: Store) -> None:
    root = store.root
    (root / ".claude" / "rules").mkdir(parents=True)
    os.mkfifo(root / ".claude" / "CLAUDE.md")
    os.mkfifo(root / ".claude" / "rules" / "r.md")
    os.mkfifo(root / "b.md")
    (root / "CLAUDE.md").write_text(full("a") + "@b.md\n")
    payload = {"session_id": "s", "cwd": str(root), "hook_event_name": "SessionStart"}
    assert claude_hook(root, "session-start", {**payload, "source": "startup"}, process=True) == ""


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({"b.md": b"\xff\n" + full("x").encode()}, {"b.md": full("x").encode()}),
        ({}, {"b.md": full("x").encode()}),
        ({".claude/rules/sub/r.md": b"# r\n"}, {".claude/rules/sub/s.md": full("x").encode()}),
    ],
    ids=["undecodable-import-fixed", "missing-import-added", "rule-in-a-subfolder"],
)
def test_the_index_is_not_fresh_after_a_file_it_looked_at_changes(
    store: Store, before: dict[str, bytes], after: dict[str, bytes]
) -> None:
    root = store.root
    store.add(mm.new("Use UTC", "Use UTC everywhere.", mid="x", today=DAY))
    (root / "CLAUDE.md").write_text("@b.md\n")
    for rel, data in before.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    build(store, today=DAY)
    index = recall.open_index(str(root))
    assert index is not None and recall.fresh(index, DAY.isoformat())
    for rel, data in after.items():
        (root / rel).write_bytes(data)
    index = recall.open_index(str(root))
    assert index is not None and not recall.fresh(index, DAY.isoformat())
    assert "x" in compiled(str(root))[0] | compiled(str(root))[1]


def test_reading_checks_the_open_file(repo: Path) -> None:
    top = os.path.realpath(repo)
    os.mkfifo(repo / "f.md")
    (repo / "r.md").write_text("r")
    assert loaded._read_real(os.path.join(top, "f.md"), top) is None
    assert loaded._read_real(os.path.join(top, "r.md"), top) == b"r"
    assert loaded._read_real(os.path.join(top, ".git", "HEAD"), top) is None
