"""Ids, links, globs and files that try to leave the repository: refused, with the reason."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memkit.store import Store
from tests.conftest import Invoke, write_memory

OK = "---\ntitle: ok\n---\nbody\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory next to the repository, holding a file memkit must never touch."""
    d = tmp_path / "outside"
    d.mkdir()
    (d / "secret.md").write_text("---\ntitle: not yours\n---\nprivate\n", encoding="utf-8")
    return d


def _snapshot(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))}


@pytest.mark.parametrize(
    ("option", "value", "reason"),
    [
        ("--link", "../secret.py", "link '../secret.py' escapes the repository ('..')"),
        ("--link", "src/../../x.py::f", "link 'src/../../x.py' escapes the repository ('..')"),
        ("--link", "/etc/passwd", "link '/etc/passwd' is absolute"),
        ("--link", "~/notes.py", "link '~/notes.py' is absolute"),
        ("--link", "C:/win.py", "link 'C:/win.py' is absolute"),
        ("--link", "src\\..\\x.py", "link 'src\\\\..\\\\x.py' uses backslashes"),
        ("--path", "../**/*.py", "path glob '../**/*.py' escapes the repository ('..')"),
        ("--path", "/etc/*", "path glob '/etc/*' is absolute"),
        ("--path", "src/\x1b[31m*.py", "contains control characters"),
    ],
)
def test_add_refuses_paths_leaving_the_repository(
    store: Store, run: Invoke, option: str, value: str, reason: str
) -> None:
    result = run("add", "Escape", "-b", "x", option, value, code=2)
    assert reason in result.stderr
    assert result.stderr.count("\n") == 1
    assert store.files() == []


@pytest.mark.parametrize("mid", ["../x", "../../etc/passwd", "/etc/passwd", "a/../../b", "."])
@pytest.mark.parametrize("command", ["show", "edit", "rm"])
def test_ids_with_paths_are_not_found(
    store: Store, run: Invoke, outside: Path, command: str, mid: str
) -> None:
    write_memory(store, "ok", OK)
    before = _snapshot(outside)
    result = run(command, mid, code=2)
    assert result.stderr.startswith("memkit: ")
    assert result.stderr.count("\n") == 1
    assert _snapshot(outside) == before


def test_add_refuses_an_id_with_a_path(store: Store, run: Invoke) -> None:
    result = run("add", "Escape", "-b", "x", "--id", "../../escape", code=2)
    assert result.stderr == (
        "memkit: --id '../../escape' is not a valid id: use lowercase letters, digits and "
        "dashes, at most 64 characters (e.g. 'escape')\n"
    )


def test_discarding_an_edit_never_deletes_outside(store: Store, run: Invoke, outside: Path) -> None:
    rel = os.path.relpath(outside / "secret", store.cache_dir / "edit")
    result = run("edit", rel, "--discard", code=2)
    assert result.stderr == (
        f"memkit: {rel!r} is not a memory id (lowercase letters, digits and dashes); "
        "see `memkit list`\n"
    )
    assert (outside / "secret.md").exists()


def test_symlinked_memory_file_is_never_read(store: Store, run: Invoke, outside: Path) -> None:
    write_memory(store, "ok", OK)
    (store.dir / "leak.md").symlink_to(outside / "secret.md")
    assert run("list").stdout.split()[4:] == ["ok", "note", "active", "ok"]
    for command in ("show", "edit"):
        result = run(command, "leak", code=2)
        assert result.stderr == (
            "memkit: .memory/leak.md is a symbolic link; memkit does not follow links in "
            ".memory/ (one could point outside the repository): replace it with the file "
            "itself\n"
        )
    result = run("validate", code=1)
    assert result.stdout == (
        ".memory/leak.md:1: file: is a symbolic link; memkit does not follow links in "
        ".memory/ (one could point outside the repository): replace it with the file itself\n"
    )
    assert "private" not in run("list", "--json").stdout


def test_symlinked_folder_is_not_walked(store: Store, run: Invoke, outside: Path) -> None:
    (store.dir / "team").symlink_to(outside, target_is_directory=True)
    assert run("list", "--json").stdout == "[]\n"
    assert run("validate").stdout == "0 memories, all valid\n"


def test_a_linked_memory_cache_folder_is_never_used(
    store: Store, run: Invoke, outside: Path
) -> None:
    """.memory/.cache/ (where old versions kept derived data) can come from a pull request."""
    write_memory(store, "ok", OK)
    (outside / "ok.md").write_text("not a draft of yours\n", encoding="utf-8")
    (store.dir / ".cache").symlink_to(outside, target_is_directory=True)
    before = _snapshot(outside)
    run("list")
    run("validate")
    run("search", "fine")
    assert run("edit", "ok", "--discard").stdout == "no kept edit for 'ok'\n"
    assert _snapshot(outside) == before


def test_store_directory_linked_outside_is_refused(repo: Path, run: Invoke, outside: Path) -> None:
    (repo / ".memory").symlink_to(outside, target_is_directory=True)
    result = run("add", "New", "-b", "x", code=2)
    assert result.stderr == (
        f"memkit: {repo / '.memory'} is a symbolic link to {outside}, outside {repo}; memkit "
        "reads and writes only inside the repository: make .memory/ a real directory\n"
    )
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_store_directory_linked_inside_is_fine(repo: Path, run: Invoke) -> None:
    (repo / "docs" / "memory").mkdir(parents=True)
    (repo / ".memory").symlink_to(repo / "docs" / "memory", target_is_directory=True)
    assert run("add", "Inside", "-b", "x").stdout == "inside\n"
    assert (repo / "docs" / "memory" / "inside.md").is_file()


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Upper Case", "file name 'Upper Case' is not a valid id"),
        ("-dash", "file name '-dash' is not a valid id"),
        ("ünïcode", "file name 'ünïcode' is not a valid id"),
        ("semi;colon", "file name 'semi;colon' is not a valid id"),
        ("new\nline", "file name 'new\\nline' is not a valid id"),
        ("x" * 80, f"file name {'x' * 80!r} is not a valid id"),
    ],
)
def test_odd_file_names_are_one_line_problems(
    store: Store, run: Invoke, name: str, problem: str
) -> None:
    write_memory(store, "ok", OK)
    (store.dir / f"{name}.md").write_text(OK, encoding="utf-8")
    result = run("validate", code=1)
    assert result.stdout.count("\n") == 1
    assert problem in result.stdout
    assert run("list").stdout.split()[4:] == ["ok", "note", "active", "ok"]


def test_case_only_collision_gets_a_new_id(store: Store, run: Invoke) -> None:
    # On macOS and Windows "Deploy.md" and "deploy.md" are one file: never write both.
    (store.dir / "Deploy.md").write_text(OK, encoding="utf-8")
    assert run("add", "Deploy", "-b", "x").stdout == "deploy-2\n"
    result = run("add", "Deploy", "-b", "x", "--id", "deploy", code=2)
    assert result.stderr == (
        "memkit: a memory with id 'deploy' already exists; choose another --id\n"
    )
    assert sorted(p.name for p in store.dir.glob("*.md")) == ["Deploy.md", "deploy-2.md"]


def test_same_id_in_two_folders_is_reported(store: Store, run: Invoke) -> None:
    write_memory(store, "dup", OK)
    write_memory(store, "dup", OK, folder="team")
    assert run("validate", code=1).stdout == (
        ".memory/team/dup.md:1: id: duplicate id 'dup': .memory/dup.md has the same file "
        "name; rename one of them\n"
    )


def test_nothing_is_written_outside_the_repository(
    store: Store, run: Invoke, outside: Path, tmp_path: Path
) -> None:
    before = _snapshot(outside)
    (store.root / "src").mkdir()
    (store.root / "src" / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    run("add", "One", "--body", "text", "--link", "src/a.py::f", "--path", "src/**")
    run("list")
    run("validate")
    run("rm", "one")
    assert _snapshot(outside) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside", "repo"]


def test_link_through_a_symlink_out_of_the_repository_is_refused(
    store: Store, run: Invoke, outside: Path
) -> None:
    (outside / "creds.py").write_text("def token():\n    return 1\n", encoding="utf-8")
    (store.root / "src").mkdir()
    (store.root / "src" / "creds.py").symlink_to(outside / "creds.py")
    (store.root / "vendor").symlink_to(outside, target_is_directory=True)
    for link in ("src/creds.py::token", "vendor/creds.py::token", "vendor/creds.py"):
        result = run("add", "Leak", "-b", "x", "--link", link, code=2)
        target = outside / "creds.py"
        assert result.stderr == (
            f"memkit: link {link!r}: {link.split('::')[0]} is a symbolic link to {target}, "
            f"outside {store.root}; memkit reads only inside the repository: link the real "
            "file instead\n"
        )
    # A memory that already links there (from a pull request) reads it as missing.
    write_memory(store, "leak", "---\ntitle: Leak\nlinks: ['vendor/creds.py::token']\n---\nx\n")
    result = run("check", "leak", "--json", code=1)
    assert '"removed"' in result.stdout or '"unverified"' in result.stdout


def test_compile_never_reads_or_writes_through_a_symlink_out(
    store: Store, run: Invoke, outside: Path
) -> None:
    write_memory(store, "rule", "---\ntitle: Rule\n---\nbody\n")
    (store.root / "CLAUDE.md").symlink_to(outside / "secret.md")
    before = _snapshot(outside)
    result = run("compile", code=2)
    assert result.stderr == (
        f"memkit: CLAUDE.md leads to {outside / 'secret.md'}, outside the repository "
        f"{store.root}, through a symbolic link; memkit reads and writes only inside the "
        "repository: replace the link with the file itself\n"
    )
    assert _snapshot(outside) == before
    assert not (store.root / "AGENTS.md").exists()  # refused before anything was written


def test_compile_never_writes_a_nested_file_through_a_linked_folder(
    store: Store, run: Invoke, outside: Path
) -> None:
    (store.root / "vendor").symlink_to(outside, target_is_directory=True)
    write_memory(store, "v", "---\ntitle: Vendor rule\npaths: ['vendor/**']\n---\nbody\n")
    before = _snapshot(outside)
    run("compile")
    assert _snapshot(outside) == before
