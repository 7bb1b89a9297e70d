"""The pre-commit hook and `memkit ci` judge the same change the same way.

Each row makes one change in a project with memkit's hook installed (`[hooks] strict`,
so a stale memory stops the commit as it fails ci), asks `memkit ci --base HEAD` about
the work tree, then tries `git commit`; both must pass, or both must stop. ci runs
first: the hook regenerates compiled files in place. ci runs in this process (the CLI
the command runs); the hook is the installed one, run by a real `git commit`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memkit.cli import cli
from memkit.githooks import install as hooks
from memkit.store import Store, init
from tests.conftest import copy_repo, git, isolated, new_repo, write_memory
from tests.githooks.committing import commit

CONFIG = '[compile]\ntargets = ["agents"]\nnested_agents = true\n\n[hooks]\nstrict = true\n'
SCOPED = "---\ntitle: Pkg rule\npaths: [pkg/**]\n---\n\nUse tabs in pkg.\n"
TOKEN = "ghp_" + "a" * 36


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    """The project every row starts from, made once (four git processes, three memkit
    commands in this process)."""
    with isolated(tmp_path_factory), pytest.MonkeyPatch.context() as monkeypatch:
        repo = new_repo(tmp_path_factory, empty_git_dir)
        init(repo)
        store = Store(repo)
        (store.dir / "config.toml").write_text(CONFIG, "utf-8")
        (repo / "pkg").mkdir()
        (repo / "pkg" / "conf.py").write_text('import os\n\nKEY = os.environ["API_KEY"]\n')
        (repo / "pkg" / "calc.py").write_text("def total(xs):\n    return sum(xs)\n")
        (repo / "README").write_text("hello\n")
        write_memory(store, "pkg-rule", SCOPED)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "code")
        monkeypatch.chdir(repo)
        monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")
        for args in (
            ("add", "API key from env", "--link", "env:API_KEY", "-b", "From API_KEY."),
            ("add", "Total sums", "--link", "pkg/calc.py::total", "--path", "pkg/**", "-b", "Sum."),
            ("compile",),
        ):
            done = CliRunner().invoke(cli, list(args), catch_exceptions=False)
            assert done.exit_code == 0, done.output
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "memories")
        hooks.install(repo)
    return repo


@pytest.fixture
def project(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")
    root = copy_repo(built, tmp_path)
    monkeypatch.chdir(root)
    return root


def _ci(root: Path) -> Result:
    """`memkit ci --base HEAD` in `root` (this process's folder), as the command runs it."""
    assert Path.cwd() == root
    return CliRunner().invoke(cli, ["ci", "--base", "HEAD"], catch_exceptions=False)


def _edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        text = (root / path).read_text()
        assert old in text
        (root / path).write_text(text.replace(old, new))

    return change


def _write(path: str, text: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)

    return change


def _bad_name(root: Path) -> None:
    (root / ".memory" / os.fsdecode(b"\xffx.md")).write_text("---\ntitle: X\n---\nx\n")


CHANGES: dict[str, tuple[Callable[[Path], None], bool]] = {  # change, whether both stop it
    "unrelated file": (_write("README", "hello again\n"), False),
    "nested AGENTS.md edited inside the markers": (
        _edit("pkg/AGENTS.md", "Use tabs in pkg.", "Use spaces."), True),
    "root AGENTS.md edited inside the markers": (
        _edit("AGENTS.md", "From API_KEY.", "From nowhere."), True),
    "the read behind an env: link removed": (
        _write("pkg/conf.py", 'KEY = "hard-coded"\n'), True),
    "a linked function's body changed": (
        _edit("pkg/calc.py", "return sum(xs)", "return max(xs)"), True),
    "an invalid memory added": (_write(".memory/broken.md", "---\ntitle: [\n---\nx\n"), True),
    "a memory with a secret added": (
        _write(".memory/leak.md", f"---\ntitle: Leak\npaths: [pkg/**]\n---\n{TOKEN}\n"), True),
    "a memory name that is not UTF-8": (_bad_name, True),
    "a linked file deleted": (lambda root: (root / "pkg" / "calc.py").unlink(), True),
    "the config broken": (_write(".memory/config.toml", "[compile\n"), True),
    "a memory superseded by a missing one": (
        _write(".memory/new.md", "---\ntitle: New\npaths: [pkg/**]\nsupersedes: [gone]\n---\nx\n"),
        True),
}  # fmt: skip


# A real commit each: `make fast` takes these rows (a pass, and a stop for a compiled file,
# a stale link and an invalid memory); `make test` takes every row.
QUICK = {"unrelated file", "root AGENTS.md edited inside the markers",
         "a linked function's body changed", "an invalid memory added"}  # fmt: skip


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=() if n in QUICK else pytest.mark.slow) for n in CHANGES]
)
def test_the_hook_and_ci_agree(project: Path, name: str) -> None:
    change, stops = CHANGES[name]
    change(project)
    ci = _ci(project)
    assert "Traceback" not in ci.stderr
    git(project, "add", "-A")
    hook = commit(project)
    assert "Traceback" not in hook.stderr
    verdicts = {"ci": ci.exit_code != 0, "hook": hook.returncode != 0}
    assert verdicts == {"ci": stops, "hook": stops}, (ci.output, hook.stderr)
