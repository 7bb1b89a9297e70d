"""The hook script's own check (memkit/githooks/hook.sh, precheck.awk): the awk judge
agrees with the Python fast path name by name, the index is dated for the script only
when that can be trusted, any change under .memory/ sends the commit back to Python,
a real `git commit` with nothing to do never starts Python, and the script and its
awk program are plain POSIX files that `sh -n` and shellcheck read as they are."""

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

from memkit.githooks import fastpath
from memkit.githooks import index as hook_index
from memkit.githooks import install as hooks
from memkit.githooks.index import INDEX_HEADER, INDEX_NAME, memory_walk, relevant
from memkit.store import Store

HERE = Path(hooks.__file__).parent
AWK = HERE / "precheck.awk"
SCRIPT = HERE / "hook.sh"
SETTLE = 2.1  # seconds: the index is dated only for memory files older than two seconds

needs_awk = pytest.mark.skipif(
    shutil.which("awk") is None or os.name == "nt", reason="the script's check needs awk"
)
needs_find = pytest.mark.skipif(
    os.name == "nt"
    or subprocess.run(
        ["find", ".", "-maxdepth", "0", "-cnewer", "."], capture_output=True
    ).returncode
    != 0,
    reason="the script's check needs a find with -cnewer (GNU, BSD, macOS)",
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


def index_file(root: Path) -> Path:
    return root / ".git" / "memkit" / INDEX_NAME


def plant(root: Path, links: list[str] = LINKS, outputs: list[str] = OUTPUTS) -> None:
    """An index saying what memories link to and what compile writes."""
    lines = ["m 1 2 .memory/one.md", *(f"l {x}" for x in links), *(f"o {x}" for x in outputs)]
    index_file(root).parent.mkdir(parents=True, exist_ok=True)
    index_file(root).write_text(INDEX_HEADER + "".join(f"{x}\n" for x in lines), "utf-8")


def judge(root: Path, names: list[str], *, git_ok: bool = True) -> int:
    """The awk judge's exit code for `names` staged, fed as the script feeds it."""
    text = "".join(f"{n}\n" for n in names) + ("\n" if git_ok else "")
    done = subprocess.run(
        ["awk", "-f", str(AWK), str(index_file(root))],
        input=text.encode("utf-8", "surrogateescape"),
        capture_output=True,
        env={**os.environ, "LC_ALL": "C"},
    )
    assert done.stderr == b""
    return done.returncode


@needs_awk
def test_the_judge_agrees_with_the_fast_path_name_by_name(project: Path) -> None:
    plant(project)
    for name in NAMES:
        expected = 1 if relevant([name], LINKS, OUTPUTS) else 0
        assert judge(project, [name]) == expected, name
    pick = random.Random(7)
    for _ in range(150):
        names = sorted(pick.sample(NAMES, pick.randint(1, 4)))
        assert judge(project, names) == (1 if relevant(names, LINKS, OUTPUTS) else 0), names


@needs_awk
def test_what_the_judge_cannot_tell_goes_to_python(project: Path) -> None:
    plant(project)
    assert judge(project, []) == 0  # nothing staged: nothing to do
    assert judge(project, ['"tab\\there"']) == 1  # a name git quoted
    assert judge(project, ["README"], git_ok=False) == 1  # git failed: no end of names
    index_file(project).write_text("memkit hook index 3\nl src/app.py\n", "utf-8")
    assert judge(project, ["README"]) == 2  # an index this version does not write
    index_file(project).write_text("", "utf-8")
    assert judge(project, ["README"]) == 2
    index_file(project).unlink()
    assert judge(project, ["README"]) == 2
    assert judge(project, []) == 0


def test_the_judge_and_the_index_agree_on_the_header() -> None:
    text = AWK.read_text("utf-8")
    assert f'line == "{INDEX_HEADER.strip()}"' in text
    assert "'" not in text  # it sits between single quotes in the installed script


def logged_python(tmp_path: Path, run: bool = True) -> tuple[Path, Path]:
    """A `python` for the hook script that notes each start (and MEMKIT_HOOK_FAST), then
    runs this Python (or, with `run` False, ends there)."""
    log = tmp_path / "python-starts"
    wrapper = tmp_path / "python"
    then = f'exec "{sys.executable}" "$@"' if run else "exit 0"
    wrapper.write_text(f'#!/bin/sh\necho "start ${{MEMKIT_HOOK_FAST-}}" >> "{log}"\n{then}\n')
    wrapper.chmod(0o755)
    return wrapper, log


def starts(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def settled_and_dated(project: Path) -> None:
    """The index dated now, every memory file older: as `vouch` leaves it two seconds
    after the last change (without the wait)."""
    time.sleep(0.05)  # past the clock tick of the last change
    now = time.time_ns()
    os.utime(index_file(project), ns=(now, now))
    time.sleep(0.05)  # a change from here on has a later change time


@needs_awk
@needs_find
@pytest.mark.parametrize(
    "change",
    ["same size", "chmod", "add", "remove", "rename", "hidden", "folder", "templates"],
)
def test_any_change_under_memory_sends_the_script_to_python(
    project: Path, tmp_path: Path, change: str
) -> None:
    python, log = logged_python(tmp_path, run=False)
    hooks.install(project, python=str(python))
    plant(project)
    git(project, "add", "README")
    script = project / ".git" / "hooks" / "pre-commit"
    settled_and_dated(project)
    assert subprocess.run([script], cwd=project).returncode == 0
    assert starts(log) == []
    mdir = project / ".memory"
    one = mdir / "one.md"
    if change == "same size":
        one.write_text(one.read_text("utf-8").replace("One.", "Eno."), "utf-8")
        os.utime(one, ns=(10**9, 10**9))  # a modification time set back changes no ctime
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
    subprocess.run([script], cwd=project, check=True)
    assert starts(log) == ["start stale"]  # Python decides, and dates the index anew


@needs_awk
@needs_find
def test_the_script_asks_python_for_what_it_cannot_tell(project: Path, tmp_path: Path) -> None:
    python, log = logged_python(tmp_path, run=False)
    hooks.install(project, python=str(python))
    script = project / ".git" / "hooks" / "pre-commit"
    git(project, "add", "README")
    subprocess.run([script], cwd=project, check=True)  # no index: Python makes one
    plant(project)  # written now: dated 1970 by memkit, now here
    settled_and_dated(project)
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    git(project, "add", "src/app.py")
    subprocess.run([script], cwd=project, check=True)  # a linked file: Python checks it
    subprocess.run([script], cwd=project, check=True, env={**os.environ, "MEMKIT_CACHE_DIR": "x"})
    assert starts(log) == ["start stale", "start ", "start "]


@needs_awk
def test_a_find_without_cnewer_hands_over_to_python_quietly(project: Path, tmp_path: Path) -> None:
    python, log = logged_python(tmp_path, run=False)
    hooks.install(project, python=str(python))
    plant(project)
    git(project, "add", "README")
    settled_and_dated(project)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "find").write_text('#!/bin/sh\necho "find: -cnewer: unknown primary" >&2\nexit 1\n')
    (fake / "find").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    script = project / ".git" / "hooks" / "pre-commit"
    done = subprocess.run([script], cwd=project, env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert starts(log) == ["start "]  # Python decides; nothing it could date would help


def test_a_new_index_is_not_trusted_before_a_hook_run_dates_it(project: Path) -> None:
    stamps, _ = memory_walk(str(project))
    opener = hook_index.Opener(str(project))
    hook_index.read_index(str(project), stamps, opener)
    assert index_file(project).stat().st_mtime_ns == 0
    assert opener.inode == index_file(project).stat().st_ino


def test_the_index_is_dated_only_once_memory_files_settle(project: Path) -> None:
    root = str(project)
    stamps, tree = memory_walk(root)
    opener = hook_index.Opener(root)
    hook_index.read_index(root, stamps, opener)
    assert not hook_index.vouch(root, time.time_ns(), tree, opener.inode)  # just written
    late = time.time_ns() + 10 * 10**9  # as if every file were old
    assert not hook_index.vouch(root, late, None, opener.inode)  # the listing failed
    assert not hook_index.vouch(root, late, tree, 0)  # no index of this run's
    assert not hook_index.vouch(root, late, tree, opener.inode + 1)  # another file there
    assert index_file(project).stat().st_mtime_ns == 0
    assert hook_index.vouch(root, late, tree, opener.inode)
    assert index_file(project).stat().st_mtime_ns == late - 2 * 10**9


def test_the_word_from_the_script_is_taken_out_of_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(fastpath.FAST_ENV, "stale")
    assert fastpath.asked()
    assert fastpath.FAST_ENV not in os.environ  # compile's key counts MEMKIT_* variables
    monkeypatch.setenv(fastpath.FAST_ENV, "other")
    assert not fastpath.asked()
    assert not fastpath.asked()


def test_dated_only_where_the_script_reads(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    late = time.time_ns() + 10 * 10**9
    monkeypatch.setattr(time, "time_ns", lambda: late)  # every file old
    git(project, "add", "README")
    monkeypatch.setenv("MEMKIT_CACHE_DIR", str(tmp_path / "cache"))
    assert fastpath.staged_work(str(project), record=True) is None
    monkeypatch.delenv("MEMKIT_CACHE_DIR")
    assert fastpath.staged_work(str(project)) is None
    assert index_file(project).stat().st_mtime_ns == 0  # only when asked
    assert fastpath.staged_work(str(project), record=True) is None
    assert index_file(project).stat().st_mtime_ns == late - 2 * 10**9
    moved = tmp_path / "elsewhere"
    (project / ".memory").rename(moved)
    (project / ".memory").symlink_to(moved)
    assert fastpath._begin(str(project)) is None


def commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change", *args], cwd=repo, capture_output=True, text=True
    )


@needs_awk
@needs_find
@pytest.mark.slow  # waits twice for the memory files to settle
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
    time.sleep(SETTLE)  # memory files as old as a real store's

    def change(path: str, text: str) -> None:
        (project / path).write_text(text, encoding="utf-8")
        git(project, "add", path)

    change("README", "1\n")
    assert commit(project).returncode == 0
    assert len(starts(log)) == 1  # no index yet: Python decides, and dates one
    assert index_file(project).stat().st_mtime_ns > 0
    change("README", "2\n")
    done = commit(project)
    assert (done.returncode, done.stdout, done.stderr, len(starts(log))) == (0, "", "", 1)
    change("src/app.py", "x = 2\n")  # linked: Python checks it
    assert commit(project).returncode == 0
    assert len(starts(log)) == 2
    # a memory now links README (not staged): it changed, so Python decides, and the
    # commit of README is one memkit looks at
    (project / ".memory" / "one.md").write_text(
        "---\ntitle: One\ntype: note\nlinks:\n- src/app.py\n- README\n---\n\nOne.\n", "utf-8"
    )
    change("README", "3\n")
    assert commit(project).returncode == 0
    assert len(starts(log)) == 3
    assert "l README\n" in index_file(project).read_text("utf-8")
    change("AGENTS.md", "mine\n")  # a file compile may write: Python looks
    assert commit(project).returncode == 0
    assert len(starts(log)) == 4
    # once the edit has settled, the script asks for the index to be dated, then ends alone
    (project / ".memory" / "one.md").write_text(
        "---\ntitle: One\ntype: note\nlinks:\n- src/app.py\n---\n\nOne.\n", "utf-8"
    )
    time.sleep(SETTLE)
    change("README", "4\n")
    assert (commit(project).returncode, len(starts(log))) == (0, 5)
    change("README", "5\n")
    assert (commit(project).returncode, len(starts(log))) == (0, 5)
    (project / "README").write_text("6\n", encoding="utf-8")  # `commit -a`: git's own index
    (project / "src" / "app.py").write_text("x = 6\n", encoding="utf-8")
    assert (commit(project, "README").returncode, len(starts(log))) == (0, 5)
    assert (commit(project, "-a").returncode, len(starts(log))) == (0, 6)


@pytest.mark.parametrize("kind", ["template", "installed"])
def test_the_script_is_plain_sh(project: Path, kind: str) -> None:
    if kind == "installed":
        hooks.install(project, python="/opt/my python/bin/python")
        script = project / ".git" / "hooks" / "pre-commit"
    else:
        script = SCRIPT
    assert subprocess.run(["sh", "-n", str(script)]).returncode == 0
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (`make shellcheck` installs it as root)")
    done = subprocess.run(["shellcheck", "-s", "sh", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


@needs_awk
@pytest.mark.skipif(
    subprocess.run(["find", ".", "-maxdepth", "0", "-printf", ""]).returncode != 0,
    reason="the 0.2 script's check needs GNU find",
)
def test_the_script_memkit_0_2_installed_hands_over_to_python(
    project: Path, tmp_path: Path
) -> None:
    """0.2's script (pre-commit-0.2.sh) reads a record of its own, `hooks-fast`, which this
    version never writes: it asks Python every time, and Python answers as always."""
    python, log = logged_python(tmp_path)
    old = (Path(__file__).parent / "pre-commit-0.2.sh").read_text("utf-8")
    script = project / ".git" / "hooks" / "pre-commit"
    script.write_text(old.replace("@PYTHON@", str(python)), "utf-8")
    script.chmod(0o755)
    git(project, "add", "README")
    assert commit(project).returncode == 0
    (project / "README").write_text("again\n", encoding="utf-8")
    git(project, "add", "README")
    assert commit(project).returncode == 0
    assert starts(log) == ["start stale", "start stale"]
    assert not (project / ".git" / "memkit" / "hooks-fast").exists()
    # a record 0.2 left behind that does not match: Python decides
    record = project / ".git" / "memkit" / "hooks-fast"
    record.write_text("memkit hook fast 2\ns 1.0 1 1 \nx nothing\n", "utf-8")
    git(project, "add", ".memory/one.md")  # the checks run: validate, compile
    done = commit(project)
    assert done.returncode == 1 and done.stderr.startswith("memkit: regenerated "), done.stderr
    assert starts(log)[2:] == ["start stale"]
