"""Unknown fields, invalid files in `check` and `compile --check`, and removing links."""

from __future__ import annotations

from pathlib import Path

from memkit.store import Store
from tests.conftest import Invoke, commit_files, git, write_memory

TYPO = "---\ntitle: T\ntpye: gotcha\nx-team: payments\n---\nbody\n"


def test_validate_names_a_misspelt_field(store: Store, run: Invoke) -> None:
    write_memory(store, "typo", TYPO)
    out = run("validate", code=1).output
    assert ".memory/typo.md:3: tpye: unknown field; did you mean type?" in out
    assert "x-team" not in out


def test_a_memory_with_an_unknown_field_is_still_read(store: Store, run: Invoke) -> None:
    write_memory(store, "typo", TYPO)
    assert "typo" in run("list").output
    assert (store.dir / "typo.md").read_text(encoding="utf-8") == TYPO


def test_fields_of_a_newer_memkit_are_accepted(store: Store, run: Invoke) -> None:
    write_memory(store, "new", "---\ntitle: T\nmemkit: 99.0\nowner: ada\n---\nbody\n")
    run("validate")
    write_memory(store, "old", "---\ntitle: T\nmemkit: 0.0.1\nowner: ada\n---\nbody\n")
    assert ".memory/old.md:4: owner: unknown field" in run("validate", code=1).output


def test_check_names_invalid_files_and_fails(repo: Path, store: Store, run: Invoke) -> None:
    write_memory(store, "typo", TYPO)
    write_memory(store, "broken", "---\ntitle: [\n---\nbody\n")
    write_memory(store, "good", "---\ntitle: Good\n---\nbody\n")
    result = run("check", code=1)
    assert "2 memories checked" in result.stdout  # the valid ones are still checked
    assert "memkit: .memory/typo.md:3: tpye: unknown field; did you mean type?" in result.stderr
    assert "memkit: .memory/broken.md:" in result.stderr


def test_compile_check_fails_on_invalid_files(store: Store, run: Invoke) -> None:
    write_memory(store, "good", "---\ntitle: Good\n---\nbody\n")
    run("compile")
    run("compile", "--check")
    write_memory(store, "broken", "---\ntitle: [\n---\nbody\n")
    assert ".memory/broken.md" in run("compile", "--check", code=1).stderr


def test_the_pre_commit_hook_refuses_a_misspelt_field(
    repo: Path, store: Store, run: Invoke
) -> None:
    import os
    import subprocess
    import sys

    run("hooks", "install")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init", "--no-verify")
    write_memory(store, "typo", TYPO)
    git(repo, "add", "-A")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["git", "commit", "-qm", "typo"], cwd=repo, capture_output=True, text=True, env=env
    )
    assert done.returncode != 0
    assert "tpye: unknown field; did you mean type?" in done.stdout + done.stderr


def test_remove_a_link_to_a_deleted_file(repo: Path, store: Store, run: Invoke) -> None:
    commit_files(repo, {"src/a.py": "def f():\n    pass\n", "src/b.py": "def g():\n    pass\n"})
    run("add", "M", "-b", "b", "--link", "src/a.py::f", "--link", "src/b.py::g")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    before = (store.dir / "m.md").read_text(encoding="utf-8")
    git(repo, "rm", "-q", "src/a.py")
    git(repo, "commit", "-qm", "gone")
    out = run("check", code=1).output
    assert "(`memkit link m --remove src/a.py::f`)" in out
    assert "memkit link m --remove src/a.py::f" in run("verify", "m", code=1).stderr
    run("link", "m", "--remove", "src/a.py::f")  # the advice works
    after = (store.dir / "m.md").read_text(encoding="utf-8")
    kept = [x for x in before.splitlines(keepends=True) if "src/a.py::f" not in x]
    assert after == "".join(kept)
    run("check")
    run("verify", "m")


def test_remove_a_link_the_memory_does_not_have(store: Store, run: Invoke) -> None:
    run("add", "M", "-b", "b")
    out = run("link", "m", "--remove", "src/x.py", code=2).output
    assert "no link 'src/x.py'" in out
