"""Several real memkit processes on one store at once: nothing lost, no duplicate id, no crash.

The long version is benchmarks/stress.py (8 workers plus the MCP server); this runs a
short one and a few targeted races.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memkit.store import Store
from tests.conftest import git

ROOT = Path(__file__).resolve().parents[2]


def _start(root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "memkit", *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "MEMKIT_ROOT": str(root), "MEMKIT_TODAY": "2026-03-01", **env},
    )


def _finish(procs: list[subprocess.Popen[str]]) -> list[tuple[int, str, str]]:
    return [(p.wait(timeout=120), *p.communicate()) for p in procs]


@pytest.mark.slow  # eight memkit processes racing
def test_parallel_adds_of_one_title_get_distinct_ids(store: Store) -> None:
    procs = [_start(store.root, "add", "Same title", "--body", f"body {i}") for i in range(8)]
    results = _finish(procs)
    assert [r[0] for r in results] == [0] * 8, [r[2] for r in results]
    ids = sorted(r[1].strip() for r in results)
    assert ids == sorted(["same-title", *(f"same-title-{n}" for n in range(2, 9))])
    bodies = sorted(store.get(mid).text for mid in ids)
    assert bodies == [f"body {i}" for i in range(8)]


@pytest.mark.slow  # six memkit processes racing to commit
def test_parallel_commits_all_land(store: Store) -> None:
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "init")
    procs = [_start(store.root, "add", f"Note {i}", "-b", "x", "--commit") for i in range(6)]
    results = _finish(procs)
    assert [r[0] for r in results] == [0] * 6, [r[2] for r in results]
    log = git(store.root, "log", "--format=%s").splitlines()
    assert sorted(log[:-1]) == [f"memkit: add note-{i}: Note {i}" for i in range(6)]
    assert git(store.root, "status", "--porcelain") == ""


def _editor(tmp_path: Path, code: str) -> str:
    script = tmp_path / "editor.py"
    script.write_text(
        "import os, pathlib, sys, time\np = pathlib.Path(sys.argv[1])\n" + code, encoding="utf-8"
    )
    return f"{sys.executable} {script}"


@pytest.mark.slow  # three memkit processes with an editor that waits
def test_parallel_edits_of_one_memory_both_land(store: Store, tmp_path: Path) -> None:
    (store.dir / "shared.md").write_text("---\ntitle: Shared\n---\nstart\n", encoding="utf-8")
    editor = _editor(
        tmp_path,
        "time.sleep(0.3)\np.write_text(p.read_text() + os.environ['TOKEN'] + '\\n')\n",
    )
    procs = [_start(store.root, "edit", "shared", EDITOR=editor, TOKEN=f"t{i}") for i in range(3)]
    results = _finish(procs)
    assert [r[0] for r in results] == [0] * 3, [r[2] for r in results]
    text = store.get("shared").text.splitlines()
    assert text[0] == "start" and sorted(text[1:]) == ["t0", "t1", "t2"]


def test_edit_refuses_to_overwrite_a_change_made_meanwhile(store: Store, tmp_path: Path) -> None:
    path = store.dir / "target.md"
    path.write_text("---\ntitle: Target\n---\noriginal\n", encoding="utf-8")
    editor = _editor(
        tmp_path,
        "target = pathlib.Path(os.environ['MEMKIT_ROOT']) / '.memory' / 'target.md'\n"
        "if 'original' in target.read_text():\n"
        "    target.write_text(target.read_text().replace('original', 'theirs'))\n"
        "p.write_text(p.read_text().replace('original', 'mine'))\n",
    )
    (code, out, err) = _finish([_start(store.root, "edit", "target", EDITOR=editor)])[0]
    assert code == 2
    assert err == (
        "memkit: .memory/target.md changed while you were editing it, and both changed body, "
        "so nothing was saved (your edit is kept in .git/memkit/edit/target.md: `memkit edit "
        "target` reopens it, `memkit edit target --discard` drops it); compare that field with "
        "the file, make your edit say what they should, then reopen it\n"
    )
    assert store.get("target").text == "theirs"
    # Reopened and closed unchanged: never saved over the newer file.
    (code, out, err) = _finish([_start(store.root, "edit", "target", EDITOR="true")])[0]
    assert code == 2 and "both changed body" in err
    assert store.get("target").text == "theirs"
    # Reopened and merged by hand: saved.
    editor = _editor(tmp_path, "p.write_text(p.read_text().replace('mine', 'mine+theirs'))\n")
    (code, out, err) = _finish([_start(store.root, "edit", "target", EDITOR=editor)])[0]
    assert (code, out) == (0, "saved .memory/target.md (resumed your earlier edit)\n"), err
    assert store.get("target").text == "mine+theirs"


@pytest.mark.slow  # benchmarks/stress.py for six seconds: four workers of real processes
def test_short_stress_run_loses_nothing(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("stress", ROOT / "benchmarks" / "stress.py")
    assert spec and spec.loader
    stress = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stress)
    result = stress.run(tmp_path / "repo", workers=4, seconds=6, mcp=False)
    assert result["errors"] == []
    assert result["lost"] == []
    assert result["operations"] >= 4


def test_edit_of_a_memory_removed_meanwhile_keeps_the_edit(store: Store, tmp_path: Path) -> None:
    """`memkit rm` by another process while the editor is open: a one-line error, the
    memory stays removed, and the edit is kept for the person who typed it."""
    (store.dir / "victim.md").write_text("---\ntitle: Victim\n---\nstart\n", encoding="utf-8")
    editor = _editor(
        tmp_path,
        "import subprocess\n"
        "subprocess.run([sys.executable, '-m', 'memkit', 'rm', 'victim'], check=True)\n"
        "p.write_text(p.read_text() + 'typed while it went\\n')\n",
    )
    (code, out, err) = _finish([_start(store.root, "edit", "victim", EDITOR=editor)])[0]
    assert (code, out) == (2, "removed .memory/victim.md\n"), err
    assert err.startswith("memkit: .memory/victim.md was removed while you were editing it")
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "memkit edit victim --discard" in err
    assert not (store.dir / "victim.md").exists()  # not brought back
    kept = store.private_dir() / "edit" / "victim.md"
    assert "typed while it went" in kept.read_text(encoding="utf-8")
    # The next edit says where the kept edit is rather than only "no memory".
    (code, out, err) = _finish([_start(store.root, "edit", "victim", EDITOR="true")])[0]
    assert code == 2 and len(err.splitlines()) == 1
    assert f"your edit of it is kept in {store.display(kept)}" in err
    (code, out, err) = _finish([_start(store.root, "edit", "victim", "--discard")])[0]
    assert code == 0 and not kept.exists()
