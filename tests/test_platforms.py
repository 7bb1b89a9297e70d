"""memkit where there is no fcntl and no os.fork, as on Windows.

The `windows_like` fixture makes `import fcntl` fail, removes os.fork, puts a stand-in
for Windows' `msvcrt` in sys.modules and reloads memkit.fsutil as if on Windows, so the
store lock takes its msvcrt.locking branch. The stand-in gives msvcrt.locking's
behaviour (one holder per open file, EACCES when taken, dropped when the holder dies)
with the real flock underneath, captured before fcntl is hidden. Helper processes run
the same set-up (SHIM) first.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memkit.store import Store

posix = pytest.mark.posix  # the stand-in for msvcrt is built on flock

SHIM = '''
import importlib, os, sys, types

def windows_like():
    """Hide fcntl and os.fork, stand in for msvcrt, reload memkit.fsutil as on Windows;
    returns the stand-in (its `calls` counts the locks taken) and an undo function."""
    import fcntl as real
    import memkit.fsutil

    shim = types.ModuleType("msvcrt")
    shim.LK_UNLCK, shim.LK_LOCK, shim.LK_NBLCK, shim.LK_RLCK, shim.LK_NBRLCK = range(5)
    shim.calls = []

    def locking(fd, mode, nbytes):
        shim.calls.append(mode)
        if mode == shim.LK_UNLCK:
            real.flock(fd, real.LOCK_UN)
            return
        try:
            real.flock(fd, real.LOCK_EX | real.LOCK_NB)
        except BlockingIOError:
            raise OSError(13, "Permission denied") from None  # msvcrt's EACCES

    shim.locking = locking
    saved = {name: sys.modules.get(name) for name in ("fcntl", "msvcrt")}
    fork = os.__dict__.pop("fork", None)
    sys.modules["fcntl"] = None  # `import fcntl` raises ImportError
    sys.modules["msvcrt"] = shim
    platform, sys.platform = sys.platform, "win32"
    try:
        importlib.reload(memkit.fsutil)
    finally:
        sys.platform = platform

    def undo():
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        if fork is not None:
            os.fork = fork
        importlib.reload(memkit.fsutil)

    return shim, undo
'''


@pytest.fixture
def windows_like() -> Iterator[Any]:
    """This process as on Windows (see the module docstring); the msvcrt stand-in."""
    space: dict[str, Any] = {}
    exec(SHIM, space)
    shim, undo = space["windows_like"]()
    try:
        yield shim
    finally:
        undo()


def _fcntl_hidden() -> bool:
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return True
    return False


@posix
def test_the_fixture_hides_fcntl_and_fork(windows_like: Any) -> None:
    assert _fcntl_hidden()
    assert not hasattr(os, "fork")


def _holder(tmp_path: Path, lock: Path) -> subprocess.Popen[str]:
    """A process that takes `lock` with memkit's file_lock as on Windows, says "held",
    and keeps it until a line arrives on its stdin."""
    script = tmp_path / "holder.py"
    script.write_text(
        SHIM
        + f"""
import pathlib
shim, _ = windows_like()
assert not hasattr(os, "fork")
try:
    import fcntl
    raise SystemExit("fcntl was importable")
except ImportError:
    pass
from memkit.fsutil import file_lock
with file_lock(pathlib.Path({str(lock)!r})):
    assert shim.calls, "the lock did not go through msvcrt.locking"
    print("held", flush=True)
    sys.stdin.readline()
print("released", flush=True)
""",
        encoding="utf-8",
    )
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "held\n"
    return proc


def _taken(shim: Any, lock: Path) -> bool:
    """Whether another open file holds `lock`: one non-blocking try, as memkit makes it."""
    fd = os.open(lock, os.O_RDWR)
    try:
        try:
            shim.locking(fd, shim.LK_NBLCK, 1)
        except OSError as e:
            assert e.errno == errno.EACCES
            return True
        shim.locking(fd, shim.LK_UNLCK, 1)
        return False
    finally:
        os.close(fd)


@posix
@pytest.mark.slow
def test_two_holders_exclude_each_other(windows_like: Any, tmp_path: Path) -> None:
    from memkit.fsutil import file_lock

    lock = tmp_path / "store.lock"
    holder = _holder(tmp_path, lock)
    try:
        assert _taken(windows_like, lock)
        got = threading.Event()

        def wait_for_it() -> None:
            with file_lock(lock):
                got.set()

        waiter = threading.Thread(target=wait_for_it)
        waiter.start()
        assert not got.is_set()  # the holder still has it
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.stdout.readline() == "released\n"
        waiter.join(timeout=120)
        assert got.is_set()
    finally:
        holder.kill()
        holder.wait()
    with file_lock(lock):  # in this process now: the other open file is refused
        assert _taken(windows_like, lock)
    assert not _taken(windows_like, lock)


@posix
@pytest.mark.slow
def test_a_killed_holder_releases_the_lock(windows_like: Any, tmp_path: Path) -> None:
    from memkit.fsutil import file_lock

    lock = tmp_path / "store.lock"
    holder = _holder(tmp_path, lock)
    assert _taken(windows_like, lock)
    holder.kill()
    holder.wait()
    assert not _taken(windows_like, lock)
    with file_lock(lock):
        pass


@posix
def test_shared_holders_are_exclusive_where_msvcrt_locks(windows_like: Any, tmp_path: Path) -> None:
    from memkit.fsutil import file_lock

    lock = tmp_path / "index.lock"
    with file_lock(lock, shared=True):
        assert _taken(windows_like, lock)


@posix
def test_a_store_write_and_a_compile(
    windows_like: Any, store: Store, run: Callable[..., object]
) -> None:
    calls = len(windows_like.calls)
    run("add", "Use the pool", "--body", "Take a connection from the pool.", "--commit")
    run("compile")
    assert "Take a connection from the pool." in (store.root / "AGENTS.md").read_text("utf-8")
    run("compile", "--check")
    run("search", "pool")
    assert len(windows_like.calls) > calls
    assert _fcntl_hidden() and not hasattr(os, "fork")


@posix
def test_the_lock_is_flock_again_after_the_fixture(tmp_path: Path) -> None:
    import fcntl

    from memkit.fsutil import file_lock

    assert "msvcrt" not in sys.modules and hasattr(os, "fork")
    lock = tmp_path / "store.lock"
    with file_lock(lock):
        fd = os.open(lock, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)


def test_the_workflow_runs_every_platform_and_the_oldest_python() -> None:
    import tomllib

    import yaml

    root = Path(__file__).resolve().parents[1]
    flow = yaml.safe_load((root / ".github" / "workflows" / "tests.yml").read_text("utf-8"))
    matrix = flow["jobs"]["test"]["strategy"]["matrix"]
    assert {o.split("-")[0] for o in matrix["os"]} == {"ubuntu", "macos", "windows"}
    project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
    assert f">={matrix['python'][0]}" == project["project"]["requires-python"]
    markers = project["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("posix:") for m in markers)
    lint = " ".join(step.get("run", "") for step in flow["jobs"]["lint"]["steps"])
    assert "--platform win32" in lint and "--platform darwin" in lint


def test_the_cache_lives_in_localappdata_on_windows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from memkit.cachedir import user_cache_home

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "win32")
    assert user_cache_home() == str(tmp_path)
    monkeypatch.setenv("LOCALAPPDATA", "relative")
    assert user_cache_home() == os.path.join(os.path.expanduser("~"), ".cache")


def test_add_refuses_a_device_name_as_id_and_slugs_around_one(
    store: Store, run: Callable[..., Any]
) -> None:
    refused = run("add", "Console", "--body", "b", "--id", "nul", code=2)
    assert refused.stderr.count("\n") == 1 and "--id" in refused.stderr
    assert "'nul-memory'" in refused.stderr and "Traceback" not in refused.stderr
    assert "Windows reserves" in refused.stderr
    assert not (store.dir / "nul.md").exists()
    assert run("add", "Aux", "--body", "b").stdout.strip() == "aux-memory"
    assert (store.dir / "aux-memory.md").is_file()
