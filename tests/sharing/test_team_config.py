"""Which transports a team store may use, and what a bad url says: one line naming the
config file's line, before anything is fetched."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memkit.cli import cli
from memkit.config import load
from memkit.sharing import team
from memkit.store import init
from tests.conftest import git

BAD = [
    "fd::17",
    "ext::sh -c touch% /tmp/pwned",
    "persistent-https::example.com/acme/memory.git",
    "http://example.com/acme/memory.git",
    "git://example.com/acme/memory.git",
    "ftp://example.com/acme/memory.git",
    "-uhelp",
]
GOOD = [
    "https://github.com/acme/memory.git",
    "ssh://git@github.com/acme/memory.git",
    "git@github.com:acme/memory.git",
    "/srv/git/memory.git",
    "../memory",
    "file:///srv/git/memory.git",
]


def _project(tmp_path: Path, url: str) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    init(root)
    text = f'# shared memories\n[stores.team]\nref = "main"\nurl = "{url}"\n'
    (root / ".memory" / "config.toml").write_text(text, "utf-8")
    return root


@pytest.mark.parametrize("url", BAD)
def test_transports_a_store_does_not_need_are_refused(tmp_path: Path, url: str) -> None:
    root = _project(tmp_path, url)
    for command in ("stores", "list", "sync"):
        result = CliRunner().invoke(cli, ["--root", str(root), command])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1 and "Traceback" not in result.output
        assert "config.toml:4: [stores.team] url" in result.output


@pytest.mark.parametrize("url", GOOD)
def test_transports_a_store_needs_are_taken(tmp_path: Path, url: str) -> None:
    root = _project(tmp_path, url)
    assert [s.url for s in team.sources(load(root))] == [url]
