"""A team on the real pre-commit framework: the published hooks (run from this
environment, as `repo: local`), a code change that stales a memory, the framework's
convention (fail once, re-stage, pass), and the CI gate agreeing afterwards."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

from tests.scenarios.team import APP, ci, failures, git, memkit, sh, team

pytestmark = pytest.mark.slow
HERE = Path(__file__).resolve().parents[2]
BIN = str(Path(sys.executable).parent)  # where `memkit` and `pre-commit` are installed


def framework_config() -> str:
    published = yaml.safe_load((HERE / ".pre-commit-hooks.yaml").read_text("utf-8"))
    # `language: python` would build a virtualenv from the network: run the same entries
    # from the installed memkit instead.
    local = [{**hook, "language": "unsupported"} for hook in published]
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": local}]}, sort_keys=False)


def test_code_change_fails_once_then_passes(tmp_path: Path) -> None:
    _, ada, _ = team(tmp_path)
    path = BIN + os.pathsep + os.environ["PATH"]
    memkit(ada, "hooks", "uninstall")  # this clone uses the framework instead
    (ada / ".pre-commit-config.yaml").write_text(framework_config(), "utf-8")
    git(ada, "add", ".pre-commit-config.yaml")
    git(ada, "commit", "-q", "-m", "pre-commit")
    sh(ada, "pre-commit", "install", PATH=path)
    git(ada, "checkout", "-q", "-b", "no-rounding")
    (ada / "src" / "app.py").write_text(APP.replace("round(sum(xs), 2)", "sum(xs)"), "utf-8")
    git(ada, "add", "src/app.py")
    first = sh(ada, "git", "commit", "-q", "-m", "no rounding", code=1, PATH=path)
    assert "memkit compile" in first.stderr and "Failed" in first.stderr
    assert "files were modified by this hook" in first.stderr
    assert (
        "memkit: regenerated .github/instructions/memkit.instructions.md, AGENTS.md" in first.stderr
    )
    git(ada, "add", "-A")
    second = sh(ada, "git", "commit", "-q", "-m", "no rounding", PATH=path)
    assert "totals-are-rounded-once" in second.stderr  # memkit-stale names the memory
    memkit(ada, "compile", "--check")
    [fail] = failures(ci(ada, code=1))  # the memory still needs a person: one line why
    assert "totals-are-rounded-once is stale: this change altered src/app.py::total" in fail
