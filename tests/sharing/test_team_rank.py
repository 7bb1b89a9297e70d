"""A shared store's memory never outranks the project's own: its pin and priority are
capped, so a budget cut shortens the store's memories before the project's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from memkit.cli import cli
from memkit.store import init
from tests.conftest import git
from tests.sharing import hostile

pytestmark = pytest.mark.slow

LOUD = b"---\ntitle: Team rule above all\ntype: convention\npin: true\npriority: 100\n---\n\n"
OWN = "---\ntitle: Our own rule stands\ntype: convention\n---\n\n"


def _memkit(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--root", str(root), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def test_a_pinned_store_memory_does_not_push_the_project_out(tmp_path: Path) -> None:
    bare = tmp_path / "team.git"
    repo = hostile.bare(bare)
    loud = repo.create_blob(LOUD + b"Team words. " * 150 + b"\n")
    hostile.commit(repo, hostile.tree(repo, {"team-loud.md": (loud, hostile.BLOB)}))
    root = tmp_path / "p"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    init(root)
    (root / ".memory" / "config.toml").write_text(
        f'[compile]\nbudgets.agents = "2500 bytes"\n\n[stores.team]\nurl = "{bare}"\n', "utf-8"
    )
    own_body = "Own words. " * 150
    (root / ".memory" / "own-rule.md").write_text(OWN + own_body + "\n", "utf-8")
    _memkit(root, "sync")
    _memkit(root, "compile", "-t", "agents")
    text = (root / "AGENTS.md").read_text("utf-8")
    assert own_body.strip() in text
    assert "Team words. " * 150 not in text
    assert text.index("Our own rule stands") < text.index("Team rule above all")
