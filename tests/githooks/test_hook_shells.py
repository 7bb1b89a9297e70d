"""The hook script (hook.sh, precheck.awk) under the shells and tools other systems have:
dash (Debian's and Ubuntu's /bin/sh), BusyBox's sh, awk and find (Alpine), mawk. Each
decides as bash with GNU tools does; a find without -cnewer (BusyBox's) hands every
commit to Python rather than guess. Each skips, saying which, when it is not installed
(`apt-get install dash busybox mawk`)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import git
from test_precheck import (  # the fixtures and helpers of the script's own test
    AWK,
    LINKS,
    NAMES,
    OUTPUTS,
    index_file,
    logged_python,
    plant,
    project,
    settled_and_dated,
    starts,
)

from memkit.githooks import install as hooks
from memkit.githooks.index import relevant

pytestmark = pytest.mark.posix

BUSYBOX = shutil.which("busybox")
SHELLS = {"bash": ["bash"], "dash": ["dash"], "busybox sh": ["busybox", "sh"]}
AWKS = {
    "mawk": ["mawk"],
    "nawk": ["nawk"],
    "gawk": ["gawk", "--posix"],
    "busybox awk": ["busybox", "awk"],
}


__all__ = ["project"]  # the fixture (two memories and a README), used by name


def _installed(argv: list[str]) -> None:
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed (`apt-get install {argv[0]}` as root)")


def _tools(tmp_path: Path, kind: str) -> dict[str, str]:
    """The environment for the script: the system's awk and find, or BusyBox's first."""
    env = dict(os.environ)
    if kind == "busybox":
        _installed(["busybox"])
        assert BUSYBOX is not None
        bin_dir = tmp_path / "busybox-bin"
        bin_dir.mkdir()
        for tool in ("awk", "find"):
            (bin_dir / tool).symlink_to(BUSYBOX)  # BusyBox runs the tool it is called as
        env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    return env


def _decisions(project: Path, tmp_path: Path, shell: list[str], env: dict[str, str]) -> list[str]:
    """What the script does in four commits, as the Python starts it logs: nothing
    relevant staged, a linked file staged, a memory changed, no index."""
    python, log = logged_python(tmp_path, run=False)
    hooks.install(project, python=str(python))
    script = str(project / ".git" / "hooks" / "pre-commit")
    plant(project)
    git(project, "add", "README")
    settled_and_dated(project)
    said = []

    def run() -> None:
        done = subprocess.run([*shell, script], cwd=project, env=env, capture_output=True)
        assert (done.returncode, done.stderr) == (0, b""), done.stderr
        said.append(",".join(starts(log)) or "-")
        log.unlink(missing_ok=True)

    run()
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    git(project, "add", "src/app.py")
    run()
    git(project, "reset", "-q", "src/app.py")
    (project / ".memory" / "three.md").write_text("---\ntitle: T\n---\n\n3\n", "utf-8")
    run()
    index_file(project).unlink()
    run()
    return said


BASH = ["-", "start ", "start stale", "start stale"]  # bash with GNU find and awk


@pytest.mark.parametrize("tools", ["system", "busybox"])
@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_the_script_decides_as_with_bash(
    project: Path,
    tmp_path: Path,
    shell: str,
    tools: str,
) -> None:
    _installed(SHELLS[shell])
    env = _tools(tmp_path, tools)
    said = _decisions(project, tmp_path, SHELLS[shell], env)
    if tools == "busybox":
        # no -cnewer in BusyBox's find: the script cannot tell, so Python decides
        assert said == ["start ", "start ", "start ", "start stale"]
    else:
        assert said == BASH


@pytest.mark.parametrize("awk", sorted(AWKS))
def test_each_awk_judges_as_the_fast_path(
    project: Path,
    awk: str,
) -> None:
    _installed(AWKS[awk])
    plant(project)
    pick = random.Random(11)
    cases = [[n] for n in NAMES] + [sorted(pick.sample(NAMES, 3)) for _ in range(40)]
    for names in cases:
        text = "".join(f"{n}\n" for n in names) + "\n"
        done = subprocess.run(
            [*AWKS[awk], "-f", str(AWK), str(index_file(project))],
            input=text.encode("utf-8"),
            capture_output=True,
            env={**os.environ, "LC_ALL": "C"},
        )
        assert (done.returncode, done.stderr) == (
            1 if relevant(names, LINKS, OUTPUTS) else 0,
            b"",
        ), names
