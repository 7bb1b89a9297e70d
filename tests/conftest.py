"""Shared fixtures: real git repositories in tmp_path, an isolated environment, a CLI runner."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from memkit.cli import cli
from memkit.store import Store, init

# Test modules that need POSIX throughout: shell scripts as hooks or editors, fork,
# signals, flock, FIFOs, symbolic links and permission bits. They are marked `posix`
# here, in one place, as a test marked by hand is (pytestmark = pytest.mark.posix).
POSIX_MODULES = frozenset(
    [
        "agents/test_claude.py",
        "agents/test_harvest.py",
        "agents/test_import_layouts.py",
        "agents/test_installers.py",
        "agents/test_register.py",
        "audit/test_audit.py",
        "compile/test_current.py",
        "compile/test_linked_outputs.py",
        "compile/test_targets.py",
        "compile/test_tree.py",
        "githooks/test_fastpath.py",
        "githooks/test_index.py",
        "githooks/test_install.py",
        "githooks/test_lean.py",
        "githooks/test_precheck.py",
        "staleness/anchors/test_anchor_links.py",
        "store/test_store.py",
        "test_atomicwrite.py",
        "test_crash.py",
        "test_fsutil_writes.py",
        "test_hostile.py",
        "test_paths_safety.py",
        "test_threats.py",
        "test_upgrade.py",
        "test_walk.py",
        "test_write_links.py",
    ]
)
TESTS = Path(__file__).parent

# `make fast` runs the property tests with `--hypothesis-profile quick`: a quarter of the
# examples each (`examples` scales the counts tests set themselves); `make test` runs all.
settings.register_profile("quick", max_examples=25)
HYPOTHESIS_DEFAULT_EXAMPLES = 100


def examples(count: int) -> int:
    """`count` examples under hypothesis' default profile, scaled as the loaded profile
    scales its default (a quarter under `quick`), never fewer than ten."""
    scaled = count * settings.default.max_examples // HYPOTHESIS_DEFAULT_EXAMPLES
    return max(min(count, 10), scaled)


def sampled(
    cases: Sequence[Any], every: int, *, ids: Callable[[Any], str] | None = None
) -> list[Any]:
    """`cases` for parametrize with all but every `every`-th (the first, and so on) marked
    slow: `make fast` runs a sample of variants of one behaviour, `make test` runs them all.
    A case is one value, or a tuple of values where parametrize names several."""
    return [
        pytest.param(
            *(case if isinstance(case, tuple) else (case,)),
            marks=() if n % every == 0 else (pytest.mark.slow,),
            id=None if ids is None else ids(case),
        )
        for n, case in enumerate(cases)
    ]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of POSIX_MODULES `posix`; on Windows, skip every `posix` test."""
    skip = pytest.mark.skip(reason="needs POSIX (marked posix); this is Windows")
    for item in items:
        if item.path.relative_to(TESTS).as_posix() in POSIX_MODULES:
            item.add_marker(pytest.mark.posix)
        if os.name == "nt" and item.get_closest_marker("posix"):
            item.add_marker(skip)


def isolate(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Point HOME, XDG and git's global config at `home`; drop memkit, identity and editor
    variables."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    for name in list(os.environ):
        if name.startswith(("MEMKIT_", "GIT_AUTHOR", "GIT_COMMITTER")) or name in (
            "EDITOR",
            "VISUAL",
        ):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never read or write the machine's own git config, editor or memkit settings."""
    isolate(monkeypatch, tmp_path_factory.mktemp("home"))


@contextmanager
def isolated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`isolated_env` for a module- or session-scoped fixture (the autouse one is per test)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate(monkeypatch, tmp_path_factory.mktemp("home"))
        yield


def git(repo: Path, *args: str, **env: str) -> str:
    """Run real git in `repo` and return its stdout."""
    out = subprocess.run(
        ["git", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    return out.stdout


@pytest.fixture(scope="session")
def empty_git_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The .git of a new repository with a local identity, made once by real git: `repo`
    copies it (four git processes a test added up to a minute of the suite)."""
    root = tmp_path_factory.mktemp("git-template")
    home = tmp_path_factory.mktemp("git-template-home")
    env = {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    git(root, "init", "-q", "-b", "main", **env)
    git(root, "config", "user.name", "Ada Lovelace", **env)
    git(root, "config", "user.email", "ada@example.com", **env)
    git(root, "config", "commit.gpgsign", "false", **env)
    return root / ".git"


@pytest.fixture
def repo(tmp_path: Path, empty_git_dir: Path) -> Path:
    """An empty git repository with a local identity."""
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copytree(empty_git_dir, root / ".git", symlinks=True)
    return root


def new_repo(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    """`repo` for a module- or session-scoped fixture: a template a test copies with
    `copy_repo` (building a project with git and memkit processes once, not per test)."""
    root = tmp_path_factory.mktemp("template") / "repo"
    root.mkdir()
    shutil.copytree(empty_git_dir, root / ".git", symlinks=True)
    return root


def copy_repo(template: Path, tmp_path: Path) -> Path:
    """A copy of the work tree and .git at `template` as tmp_path/repo, times kept (so
    memkit's caches in .git/memkit stay as warm as in the template)."""
    root = tmp_path / "repo"
    shutil.copytree(template, root, symlinks=True)
    return root


def copy_into(template: Path, repo: Path) -> Path:
    """`copy_repo` into the folder `repo` fixture made (its contents replaced, the folder
    kept: a test's `run` may already be in it), so `store` and `run` have the copy."""
    for entry in repo.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    shutil.copytree(template, repo, symlinks=True, dirs_exist_ok=True)
    return repo


@pytest.fixture
def store(repo: Path) -> Store:
    """An initialised store at the root of `repo`."""
    init(repo)
    return Store(repo)


def write_files(root: Path, files: dict[str, str]) -> None:
    """Write each {relative path: text} under `root`, creating folders."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def commit_files(repo: Path, files: dict[str, str], message: str = "project") -> Path:
    """write_files, then commit everything in `repo`; returns `repo`."""
    write_files(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return repo


def write_memory(store: Store, mid: str, text: str, *, folder: str = "") -> Path:
    path = store.dir / folder / f"{mid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


Invoke = Callable[..., Result]


@contextmanager
def in_project(repo: Path, today: str = "2026-11-22", **env: str) -> Iterator[None]:
    """This process in `repo` with the date pinned (and `env` set), as a hook process started
    there would be (for calling a hook's handler in process)."""
    here = os.getcwd()
    values = {"MEMKIT_TODAY": today, **env}
    saved = {name: os.environ.get(name) for name in values}
    os.chdir(repo)
    os.environ.update(values)
    try:
        yield
    finally:
        os.chdir(here)
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def claude_hook(
    root: Path,
    event: str,
    payload: dict[str, Any],
    *,
    process: bool = False,
    module: str = "memkit.agents.claude",
    **env: str,
) -> str:
    """A Claude Code hook's context text for `payload`: its handler
    (memkit.agents.claude.hook.handle) in this process, in `root` with the date pinned
    (and `env` set), as the command calls it; `process=True` runs `python -m MODULE EVENT`
    itself (memkit.agents.hook is what the memkit-hook script runs). Nothing on stderr."""
    import json

    raw = json.dumps(payload)
    if process:
        done = subprocess.run(
            [sys.executable, "-m", module, event],
            input=raw,
            capture_output=True,
            text=True,
            cwd=root,
            env={**os.environ, "MEMKIT_TODAY": "2026-11-22", **env},
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        said, err = done.stdout, done.stderr
    else:
        from memkit.agents.claude.hook import handle

        with in_project(root, **env):
            said, err = handle(event, raw.encode("utf-8"))
    assert err == "", err
    if not said.strip():
        return ""
    out = json.loads(said)["hookSpecificOutput"]
    assert out["hookEventName"] == payload.get("hook_event_name", out["hookEventName"])
    assert len(out["additionalContext"]) <= 10_000
    return str(out["additionalContext"])


def invoke(*args: str, code: int = 0, input: str | None = None) -> Result:
    """Invoke the CLI in this process's folder; assert the exit code (default 0), show
    output on failure (`run`, and a module-scoped fixture's own runner)."""
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == code, (
        f"memkit {' '.join(args)} exited {result.exit_code}, expected {code}\n"
        f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    )
    return result


@pytest.fixture
def run(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Invoke:
    """Invoke the CLI in `repo`; assert the exit code (default 0), show output on failure."""
    monkeypatch.chdir(repo)
    return invoke


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """memkit's wheel, built once per test session from this checkout."""
    out = tmp_path_factory.mktemp("wheel")
    root = Path(__file__).resolve().parent.parent
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(out),
            str(root),
        ],
        check=True,
        capture_output=True,
    )
    [built] = out.glob("*.whl")
    return built


def npm_packages(*specs: str) -> Path:
    """A folder whose node_modules holds the npm packages `specs` (`name@version`),
    installed once into a cache shared by runs and workers (a temporary folder renamed
    into place, so two workers never see half an install). Skips, saying why, without
    node and npm or without the registry."""
    import tempfile

    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip(f"{' '.join(specs)} need node and npm, and they are not on PATH")
    cache = Path(tempfile.gettempdir()) / "memkit-npm"
    home = cache / "+".join(s.replace("@", "-").replace("/", "_") for s in specs)
    if (home / "node_modules").is_dir():
        return home
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=cache))
    cmd = ["npm", "install", "--prefix", str(work), "--no-audit", "--no-fund", "--no-save",
           "--fetch-retries=0", "--fetch-timeout=30000", *specs]  # fmt: skip
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        done = None
    if done is None or done.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        said = [
            x
            for x in (done.stderr if done else "timed out").splitlines()
            if "log of this run" not in x
        ] or ["no output"]
        why = next((x for x in said if " code " in x or "ERR" in x), said[0])
        pytest.skip(f"npm install {' '.join(specs)} failed (registry unreachable?): {why}")
    try:
        work.rename(home)
    except OSError:  # another worker installed them first
        shutil.rmtree(work, ignore_errors=True)
    return home
