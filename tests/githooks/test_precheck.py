"""The hook script's own check (memkit.githooks.precheck): its awk judge agrees with the
Python fast path name by name, the record is written only when it can be trusted, any
change under .memory/ sends the commit back to Python, and a real `git commit` with
nothing to do never starts Python."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import git, write_memory

from memkit.githooks import fastpath, precheck
from memkit.githooks import install as hooks
from memkit.githooks.index import memory_walk, relevant
from memkit.store import Store

pytestmark = pytest.mark.skipif(
    shutil.which("awk") is None or sys.platform == "darwin" or os.name == "nt",
    reason="the script's check needs awk and GNU find",
)

LINKS = ["src/app.py", "lib/", "docs/guide.md", "ünï/cødé.py", "a b/c.py", "x/y"]
OUTPUTS = ["AGENTS.md", ".cursor/rules/memkit*", "CLAUDE.md"]
NAMES = [
    *LINKS,
    "lib/x.py",
    "lib/sub/y.py",
    "libx/z.py",
    "li",
    "lib",
    "src/app.py.bak",
    "src/app",
    "src",
    "docs/guide.mdx",
    "x/y/z",
    "x/yz",
    ".memory/a.md",
    ".memory/deep/b.md",
    ".memoryx/b",
    "AGENTS.md",
    "AGENTS.mdx",
    "sub/AGENTS.md",
    ".cursor/rules/memkit-a.mdc",
    ".cursor/rules/memkit/deep.mdc",
    ".cursor/rules/memki",
    ".cursor/rulesmemkit",
    "README",
    "a b/d.py",
    "ünï/other.py",
]


@pytest.fixture
def project(repo: Path, store: Store) -> Path:
    write_memory(store, "one", "---\ntitle: One\ntype: note\n---\n\nOne.\n")
    write_memory(store, "two", "---\ntitle: Two\ntype: note\n---\n\nTwo.\n", folder="deep")
    (repo / "README").write_text("hello\n", encoding="utf-8")
    return repo


def record_now(root: Path, links: list[str] = LINKS, outputs: list[str] = OUTPUTS) -> bool:
    """precheck.record as the fast path calls it, with files just written counted as
    settled (a real record waits MARGIN_NS after the last change)."""
    started = time.time_ns() + precheck.MARGIN_NS + 1_000_000_000
    _, tree = memory_walk(str(root))
    return precheck.record(str(root), started, tree, links, outputs)


def listing(root: Path) -> str:
    out = subprocess.run(
        ["find", ".memory/", "-printf", precheck.FIND_FORMAT],
        cwd=root,
        capture_output=True,
        check=True,
        env={**os.environ, "LC_ALL": "C"},
    )
    return out.stdout.decode("utf-8", "surrogateescape")


def judge(root: Path, names: list[str], *, git_ok: bool = True, find_ok: bool = True) -> int:
    """The awk judge's exit code for `names` staged, on what the script feeds it."""
    text = "".join(f"{n}\n" for n in names)
    if git_ok:
        text += "\n" + listing(root) + ("/\n" if find_ok else "")
    record = root / ".git" / "memkit" / precheck.NAME
    done = subprocess.run(
        ["awk", precheck.AWK, str(record), "-"],
        input=text.encode("utf-8", "surrogateescape"),
        capture_output=True,
        env={**os.environ, "LC_ALL": "C"},
    )
    assert done.stderr == b""
    return done.returncode


def test_the_judge_agrees_with_the_fast_path_name_by_name(project: Path) -> None:
    assert record_now(project)
    for name in NAMES:
        expected = 1 if relevant([name], LINKS, OUTPUTS) else 0
        assert judge(project, [name]) == expected, name
    pick = random.Random(7)
    for _ in range(150):
        names = sorted(pick.sample(NAMES, pick.randint(1, 4)))
        assert judge(project, names) == (1 if relevant(names, LINKS, OUTPUTS) else 0), names


def test_what_the_judge_cannot_tell_goes_to_python(project: Path) -> None:
    assert record_now(project)
    assert judge(project, []) == 0  # nothing staged: nothing to do
    assert judge(project, ['"tab\\there"']) == 1  # a name git quoted
    assert judge(project, ["README"], git_ok=False) == 1  # git failed: no end of names
    assert judge(project, ["README"], find_ok=False) == 2  # find failed: listing unknown
    (project / ".git" / "memkit" / precheck.NAME).write_text("memkit hook fast 0\n", "utf-8")
    assert judge(project, ["README"]) == 2  # a record this version does not write


@pytest.mark.parametrize(
    "change",
    [
        "same size",
        "chmod",
        "add",
        "remove",
        "rename",
        "hidden",
        "folder",
        "templates",
    ],
)
def test_any_change_under_memory_makes_the_record_stale(project: Path, change: str) -> None:
    assert record_now(project)
    assert judge(project, ["README"]) == 0
    time.sleep(0.05)  # past the clock tick of the listing: a change gets a new change time
    mdir = project / ".memory"
    one = mdir / "one.md"
    if change == "same size":
        one.write_text(one.read_text("utf-8").replace("One.", "Eno."), "utf-8")
    elif change == "chmod":
        one.chmod(0o600)
    elif change == "add":
        (mdir / "three.md").write_text("---\ntitle: Three\ntype: note\n---\n\n3\n", "utf-8")
    elif change == "remove":
        (mdir / "deep" / "two.md").unlink()
    elif change == "rename":
        one.rename(mdir / "deep" / "one.md")
    elif change == "hidden":
        (mdir / ".one.md.swp").write_text("x", "utf-8")
    elif change == "folder":
        (mdir / "new").mkdir()
    else:
        (mdir / "templates").mkdir(exist_ok=True)
        (mdir / "templates" / "agents.md.j2").write_text("x", "utf-8")
    assert judge(project, ["README"]) == 2
    assert judge(project, ["src/app.py"]) == 1  # relevant either way


def test_no_record_while_memory_files_settle(project: Path) -> None:
    _, tree = memory_walk(str(project))
    assert not precheck.record(str(project), time.time_ns(), tree, LINKS, OUTPUTS)
    assert not (project / ".git" / "memkit" / precheck.NAME).exists()
    # an unreadable listing, a name that cannot be one line, no find: no record either
    late = time.time_ns() + 10 * precheck.MARGIN_NS
    assert not precheck.record(str(project), late, None, LINKS, OUTPUTS)
    assert not precheck.record(str(project), late, tree, ["bad\nname"], OUTPUTS)
    assert record_now(project)


def test_no_record_when_an_entry_changed_after_the_walk(project: Path) -> None:
    _, tree = memory_walk(str(project))  # the walk saw the files settled ...
    time.sleep(0.1)
    (project / ".memory" / "one.md").write_text("changed\n", "utf-8")  # ... find will not
    started = time.time_ns() + precheck.MARGIN_NS - 50_000_000
    assert not precheck.record(str(project), started, tree, LINKS, OUTPUTS)
    assert precheck.record(str(project), started + 100_000_000, tree, LINKS, OUTPUTS)


def test_no_find_no_record(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(project / "nowhere"))
    assert not record_now(project)
    assert not (project / ".git" / "memkit" / precheck.NAME).exists()


def test_records_only_where_the_script_reads(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert precheck.begin(str(project)) is not None
    monkeypatch.setenv("MEMKIT_CACHE_DIR", str(tmp_path / "cache"))
    assert precheck.begin(str(project)) is None
    monkeypatch.delenv("MEMKIT_CACHE_DIR")
    moved = tmp_path / "elsewhere"
    (project / ".memory").rename(moved)
    (project / ".memory").symlink_to(moved)
    assert precheck.begin(str(project)) is None


def test_the_word_from_the_script_is_taken_out_of_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(precheck.ENV, "stale")
    assert precheck.asked()
    assert precheck.ENV not in os.environ  # compile's key counts MEMKIT_* variables
    monkeypatch.setenv(precheck.ENV, "other")
    assert not precheck.asked()
    assert not precheck.asked()


def test_the_fast_path_records_what_its_index_says(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = project / "src"
    src.mkdir()
    (src / "app.py").write_text("x = 1\n", encoding="utf-8")
    (project / ".memory" / "one.md").write_text(
        "---\ntitle: One\ntype: note\nlinks:\n- src/app.py\n---\n\nOne.\n", "utf-8"
    )
    git(project, "add", "README")
    opener = fastpath.Opener(str(project))
    assert fastpath.staged_work(str(project), opener) is None
    assert not (project / ".git" / "memkit" / precheck.NAME).exists()  # only when asked
    settled = time.time_ns() + 2 * precheck.MARGIN_NS  # files just written count as old
    monkeypatch.setattr(precheck, "begin", lambda root: settled)
    assert fastpath.staged_work(str(project), opener, record=True) is None
    lines = (project / ".git" / "memkit" / precheck.NAME).read_text("utf-8").splitlines()
    assert lines[0] == precheck.HEADER
    for line in (
        "x src/app.py",
        "d src/app.py",
        "x AGENTS.md",
        "p .memory/",
        "p .cursor/rules/memkit",
    ):
        assert line in lines
    assert judge(project, ["README"]) == 0
    assert judge(project, ["src/app.py"]) == 1


def logged_python(tmp_path: Path) -> tuple[Path, Path]:
    """A `python` for the hook script that notes each start, then runs this Python."""
    log = tmp_path / "python-starts"
    wrapper = tmp_path / "python"
    wrapper.write_text(f'#!/bin/sh\necho start >> "{log}"\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    return wrapper, log


def starts(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change", *args], cwd=repo, capture_output=True, text=True
    )


@pytest.mark.slow  # waits twice for the memory files to settle (precheck.MARGIN_NS)
def test_a_commit_with_nothing_to_do_never_starts_python(project: Path, tmp_path: Path) -> None:
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    (project / ".memory" / "one.md").write_text(
        "---\ntitle: One\ntype: note\nlinks:\n- src/app.py\n---\n\nOne.\n", "utf-8"
    )
    (project / ".memory" / "config.toml").write_text("[compile]\ntargets = []\n", "utf-8")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "start")
    python, log = logged_python(tmp_path)
    hooks.install(project, python=str(python))
    time.sleep(precheck.MARGIN_NS / 1e9 + 0.1)  # memory files as old as a real store's

    def change(path: str, text: str) -> None:
        (project / path).write_text(text, encoding="utf-8")
        git(project, "add", path)

    change("README", "1\n")
    assert commit(project).returncode == 0
    assert starts(log) == 1  # no record yet: Python decides, and writes one
    assert (project / ".git" / "memkit" / precheck.NAME).is_file()
    change("README", "2\n")
    done = commit(project)
    assert (done.returncode, done.stdout, done.stderr, starts(log)) == (0, "", "", 1)
    change("src/app.py", "x = 2\n")  # linked: Python checks it
    assert commit(project).returncode == 0
    assert starts(log) == 2
    # a memory now links README (not staged): the listing changed, so Python decides,
    # and the commit of README is one memkit looks at
    (project / ".memory" / "one.md").write_text(
        "---\ntitle: One\ntype: note\nlinks:\n- src/app.py\n- README\n---\n\nOne.\n", "utf-8"
    )
    change("README", "3\n")
    assert commit(project).returncode == 0
    assert starts(log) == 3
    assert "l README\n" in (project / ".git" / "memkit" / "hooks-index").read_text("utf-8")
    change("AGENTS.md", "mine\n")  # a file compile may write: Python looks
    assert commit(project).returncode == 0
    assert starts(log) == 4
    # once the edit has settled, the script asks for a new record, then ends alone
    (project / ".memory" / "one.md").write_text(
        "---\ntitle: One\ntype: note\nlinks:\n- src/app.py\n---\n\nOne.\n", "utf-8"
    )
    time.sleep(precheck.MARGIN_NS / 1e9 + 0.1)
    change("README", "4\n")
    assert (commit(project).returncode, starts(log)) == (0, 5)
    change("README", "5\n")
    assert (commit(project).returncode, starts(log)) == (0, 5)
    (project / "README").write_text("6\n", encoding="utf-8")  # `commit -a`: git's own index
    (project / "src" / "app.py").write_text("x = 6\n", encoding="utf-8")
    assert (commit(project, "README").returncode, starts(log)) == (0, 5)
    assert (commit(project, "-a").returncode, starts(log)) == (0, 6)


def test_the_installed_script_is_plain_sh(project: Path) -> None:
    hooks.install(project)
    script = project / ".git" / "hooks" / "pre-commit"
    assert subprocess.run(["sh", "-n", str(script)]).returncode == 0
    assert "'" not in precheck.AWK  # it sits between single quotes in the script
