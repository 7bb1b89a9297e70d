"""SIGKILL real memkit processes at many points: every file is old or new, never partial.

A small launcher counts the calls memkit's own code makes into builtins and libraries
(writes, fsyncs, renames, links, git object writes...) and kills its own process with
SIGKILL at the Nth one. One clean run lists the calls; the test then kills a fresh run
at each I/O call (and every 300th call) and checks the store afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import memkit
from memkit import memory as mm
from memkit.store import Store
from tests.conftest import git

pytestmark = pytest.mark.slow

PKG = str(Path(memkit.__file__).parent)
LAUNCHER = r"""
import os, signal, sys
n = int(os.environ.get("CRASH_AT", "0")); pkg = os.environ["CRASH_PKG"]
log = os.environ.get("CRASH_LOG")
names = []
def prof(frame, event, arg):
    if event == "c_call":
        if not frame.f_code.co_filename.startswith(pkg):
            return
        names.append(getattr(arg, "__name__", "?"))
    elif event == "call":
        back = frame.f_back
        if back is None or not back.f_code.co_filename.startswith(pkg):
            return
        if frame.f_code.co_filename.startswith(pkg):
            return
        names.append(frame.f_code.co_name)
    else:
        return
    if len(names) == n:
        os.kill(os.getpid(), signal.SIGKILL)
sys.setprofile(prof)
from memkit.cli import main
try:
    main(sys.argv[1:])
finally:
    sys.setprofile(None)
    if log:
        with open(log, "w") as f:
            f.write("\n".join(names))
"""
IO = {
    "mkstemp", "fdopen", "write", "flush", "fsync", "chmod", "link", "unlink", "replace",
    "open", "close", "mkdir", "copyfile", "flock", "scandir", "edit", "create_blob_fromdisk",
    "write_tree", "create_commit", "read", "read_tree", "rename", "rmtree", "atomic_write",
    "create_new", "write_bytes", "write_text",
}  # fmt: skip
STRIDE = 300
TODAY = "2026-03-01"


class Crasher:
    def __init__(self, root: Path, tmp: Path) -> None:
        self.root = root
        self.script = tmp / "launcher.py"
        self.script.write_text(LAUNCHER, encoding="utf-8")
        self.log = tmp / "calls.txt"

    def run(self, args: list[str], at: int = 0, **env: str) -> subprocess.CompletedProcess[str]:
        full_env = {
            **os.environ,
            "CRASH_PKG": PKG,
            "CRASH_AT": str(at),
            "MEMKIT_ROOT": str(self.root),
            "MEMKIT_TODAY": TODAY,
            **env,
        }
        if not at:
            full_env["CRASH_LOG"] = str(self.log)
        return subprocess.run(
            [sys.executable, str(self.script), *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            env=full_env,
            timeout=60,
        )

    def points(self, args: list[str], **env: str) -> list[int]:
        """Run once to completion; the call numbers worth killing at."""
        result = self.run(args, **env)
        assert result.returncode == 0, result.stderr
        names = self.log.read_text(encoding="utf-8").splitlines()
        return [i for i, name in enumerate(names, 1) if name in IO or i % STRIDE == 0]


def _memory_files(store: Store) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(store.dir.rglob("*.md"))}


def _assert_store_healthy(store: Store) -> None:
    """Every memory parses, a fresh load and a rebuilt cache agree, git is usable."""
    for path in store.files():
        mm.parse(path.read_bytes(), mid=path.stem, path=store.rel(path))
    first = store.load()
    assert first.problems == ()
    for junk in (store.cache_dir / "parsed.db",):
        junk.unlink(missing_ok=True)
    assert store.load() == first
    git(store.root, "status", "--porcelain")


def _crash_each(
    store: Store,
    tmp_path: Path,
    args: list[str],
    reset: Callable[[], None],
    check: Callable[[], None],
    clean: Callable[[], None] | None = None,
    **env: str,
) -> int:
    crasher = Crasher(store.root, tmp_path)
    reset()
    crasher.run(args, **env)  # warm the caches, so the counted run is like the killed ones
    reset()
    points = crasher.points(args, **env)
    assert points
    if clean:
        clean()  # look at what a run that is not killed wrote
    killed = 0
    for at in points:
        reset()
        result = crasher.run(args, at=at, **env)
        killed += result.returncode == -9
        check()
        _assert_store_healthy(store)
    # Call counts vary a little between runs (caches warm up): most points must still hit.
    assert killed >= max(1, len(points) // 3)
    return killed


@pytest.fixture
def base(store: Store) -> Store:
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "init")
    return store


def test_kill_during_add(base: Store, tmp_path: Path) -> None:
    store = base
    body = "Deploys go through the blue/green switch.\n" * 40
    expected = b""

    def clean() -> None:
        nonlocal expected
        expected = (store.dir / "blue-green.md").read_bytes()
        assert body.encode() in expected

    def reset() -> None:
        (store.dir / "blue-green.md").unlink(missing_ok=True)
        git(store.root, "reset", "-q", "--hard", "HEAD")

    def check() -> None:
        files = _memory_files(store)
        assert set(files) <= {"blue-green.md"}
        assert files.get("blue-green.md", expected) == expected

    args = ["add", "Blue green", "--body", body]
    _crash_each(store, tmp_path, args, reset, check, clean)


def test_kill_during_add_with_commit(base: Store, tmp_path: Path) -> None:
    store = base
    head = git(store.root, "rev-parse", "HEAD").strip()

    def reset() -> None:
        (store.dir / "note.md").unlink(missing_ok=True)
        git(store.root, "reset", "-q", "--hard", head)
        (store.root / ".git" / "index.lock").unlink(missing_ok=True)

    def check() -> None:
        assert set(_memory_files(store)) <= {"note.md"}
        log = git(store.root, "log", "--format=%s").splitlines()
        assert log in (["init"], ["memkit: add note: Note", "init"])
        if len(log) == 2:  # a commit that exists holds the complete file
            committed = git(store.root, "show", "HEAD:.memory/note.md")
            assert committed.encode() == (store.dir / "note.md").read_bytes()
        # git is never left wedged: committing again works
        subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "probe"], cwd=store.root)
        assert "probe" in git(store.root, "log", "-1", "--format=%s")

    _crash_each(store, tmp_path, ["add", "Note", "--body", "text", "--commit"], reset, check)


def test_kill_during_edit(base: Store, tmp_path: Path) -> None:
    store = base
    old = b"---\ntitle: Retry policy\ntags: [jobs]\n---\nRetry three times.\n"
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys, pathlib\np = pathlib.Path(sys.argv[1])\n"
        "p.write_bytes(p.read_bytes().replace(b'three', b'five'))\n",
        encoding="utf-8",
    )
    new = b"---\ntitle: Retry policy\ntags: [jobs]\nupdated: 2026-03-01\n---\nRetry five times.\n"
    draft = store.cache_dir / "edit" / "retry.md"

    def reset() -> None:
        (store.dir / "retry.md").write_bytes(old)
        draft.unlink(missing_ok=True)

    def check() -> None:
        now = (store.dir / "retry.md").read_bytes()
        assert now in (old, new)
        if now == old and draft.exists():  # the edit survived the crash: resume saves it
            assert draft.read_bytes() in (old, old.replace(b"three", b"five"))
            result = Crasher(store.root, tmp_path).run(["edit", "retry"], EDITOR="true")
            assert result.returncode == 0, result.stderr
            assert (store.dir / "retry.md").read_bytes() in (old, new)

    env = {"EDITOR": f"{sys.executable} {editor}"}
    _crash_each(store, tmp_path, ["edit", "retry"], reset, check, **env)


def test_kill_during_rm(base: Store, tmp_path: Path) -> None:
    store = base
    text = b"---\ntitle: Gone soon\n---\nbye\n"

    def reset() -> None:
        (store.dir / "gone.md").write_bytes(text)

    def check() -> None:
        assert _memory_files(store) in ({}, {"gone.md": text})

    _crash_each(store, tmp_path, ["rm", "gone"], reset, check)


def test_kill_during_cache_rebuild(base: Store, tmp_path: Path) -> None:
    store = base
    for i in range(4):
        (store.dir / f"m{i}.md").write_bytes(b"---\ntitle: m%d\n---\nx\n" % i)
        os.utime(store.dir / f"m{i}.md", ns=(10**18, 10**18))  # old enough to be cached

    def reset() -> None:
        (store.cache_dir / "parsed.db").unlink(missing_ok=True)

    def check() -> None:
        assert len(_memory_files(store)) == 4

    _crash_each(store, tmp_path, ["validate"], reset, check)


def test_kill_during_compile(base: Store, tmp_path: Path) -> None:
    store = base
    for i in range(3):
        (store.dir / f"rule-{i}.md").write_text(
            f"---\ntitle: Rule {i}\ntype: convention\n---\nDo thing {i}.\n", encoding="utf-8"
        )
    (store.root / "AGENTS.md").write_text("# Mine\n\nKeep this.\n", encoding="utf-8")
    outputs = ("AGENTS.md", "CLAUDE.md", ".github/instructions/memkit.instructions.md")
    expected: dict[str, bytes] = {}

    def reset() -> None:
        (store.root / "AGENTS.md").write_text("# Mine\n\nKeep this.\n", encoding="utf-8")
        for rel in outputs[1:]:
            (store.root / rel).unlink(missing_ok=True)

    def clean() -> None:
        expected.update({rel: (store.root / rel).read_bytes() for rel in outputs})

    def check() -> None:
        agents = (store.root / "AGENTS.md").read_bytes()
        assert agents in (b"# Mine\n\nKeep this.\n", expected["AGENTS.md"])
        for rel in outputs[1:]:
            path = store.root / rel
            assert not path.exists() or path.read_bytes() == expected[rel]

    _crash_each(store, tmp_path, ["compile"], reset, check, clean)


def test_kill_during_verify_and_revert(base: Store, tmp_path: Path) -> None:
    store = base
    (store.root / "app.py").write_text("def handler():\n    return 1\n", encoding="utf-8")
    old = b"---\ntitle: Handler\nlinks:\n- app.py::handler\n---\nReturns one.\n"
    (store.dir / "handler.md").write_bytes(old)
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "handler")
    new = b""

    def reset() -> None:
        (store.dir / "handler.md").write_bytes(old)

    def clean() -> None:
        nonlocal new
        new = (store.dir / "handler.md").read_bytes()
        assert new != old

    def check() -> None:
        assert (store.dir / "handler.md").read_bytes() in (old, new)

    _crash_each(store, tmp_path, ["verify", "handler"], reset, check, clean)
    # revert puts HEAD's version back over a verified copy
    verified = new

    def reset_revert() -> None:
        (store.dir / "handler.md").write_bytes(verified)

    def check_revert() -> None:
        assert (store.dir / "handler.md").read_bytes() in (old, verified)

    _crash_each(store, tmp_path, ["revert", "handler"], reset_revert, check_revert)
