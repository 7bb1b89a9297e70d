"""Registering memkit with agents (memkit.agents.register): .mcp.json, .cursor/mcp.json and
the Claude Code hooks in .claude/settings.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Invoke

from memkit.agents.register import install_claude, install_mcp, uninstall_claude, uninstall_mcp
from memkit.store import Store


def test_install_mcp_merges_and_is_idempotent(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"db": {"command": "pg-mcp"}}}\n')
    assert install_mcp(tmp_path) == ["updated .mcp.json", "created .cursor/mcp.json"]
    assert install_mcp(tmp_path) == []
    assert json.loads((tmp_path / ".mcp.json").read_text()) == {
        "mcpServers": {
            "db": {"command": "pg-mcp"},
            "memkit": {"command": "memkit", "args": ["mcp"]},
        }
    }
    assert uninstall_mcp(tmp_path) == ["updated .mcp.json", "removed .cursor/mcp.json"]
    assert json.loads((tmp_path / ".mcp.json").read_text()) == {
        "mcpServers": {"db": {"command": "pg-mcp"}}
    }
    assert uninstall_mcp(tmp_path) == []


def test_install_claude_keeps_other_settings(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}
    settings.write_text(json.dumps({"model": "opus", "hooks": {"PostToolUse": [theirs]}}))
    assert install_claude(tmp_path) == ["updated .claude/settings.json"]
    assert install_claude(tmp_path) == []
    data = json.loads(settings.read_text())
    assert data["model"] == "opus"
    assert data["hooks"]["PostToolUse"][0] == theirs
    assert data["hooks"]["PostToolUse"][1] == {
        "matcher": "Read|Edit|MultiEdit|Write|NotebookEdit|Grep|Glob|Bash",
        "hooks": [{"type": "command", "command": "memkit-hook post-tool-use", "timeout": 10}],
    }
    assert data["hooks"]["SessionStart"] == [
        {
            "matcher": "startup|resume|clear|compact",
            "hooks": [{"type": "command", "command": "memkit-hook session-start", "timeout": 30}],
        }
    ]
    assert sorted(data["hooks"]) == ["PostToolUse", "SessionEnd", "SessionStart", "Stop"]
    assert uninstall_claude(tmp_path) == ["updated .claude/settings.json"]
    assert json.loads(settings.read_text()) == {"model": "opus", "hooks": {"PostToolUse": [theirs]}}
    assert uninstall_claude(tmp_path) == []


def test_uninstall_claude_removes_entries_of_earlier_versions(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    old = {"hooks": [{"type": "command", "command": "memkit hook stop", "timeout": 30}]}
    settings.write_text(json.dumps({"hooks": {"Stop": [old]}}))
    assert uninstall_claude(tmp_path) == ["removed .claude/settings.json"]


def test_install_refuses_broken_json(tmp_path: Path) -> None:
    from memkit.errors import MemkitError

    (tmp_path / ".mcp.json").write_text("{oops")
    with pytest.raises(MemkitError, match=r"^\.mcp\.json is not valid JSON \(.*\); fix it"):
        install_mcp(tmp_path)
    assert (tmp_path / ".mcp.json").read_text() == "{oops"


def test_hook_matcher_names_the_recorded_tools() -> None:
    from memkit.agents.claude import TOOLS
    from memkit.agents.register import TOOL_MATCHER

    assert "|".join(TOOLS) == TOOL_MATCHER


def test_hooks_install_mcp_and_claude(run: Invoke, store: Store) -> None:
    pytest.importorskip("memkit.commands.githooks")
    out = run("hooks", "install", "--mcp", "--claude").stdout
    for line in ("created .mcp.json", "created .cursor/mcp.json", "created .claude/settings.json"):
        assert line in out
    again = run("hooks", "install", "--mcp", "--claude").stdout
    assert ".mcp.json" not in again and "settings.json" not in again
    settings = json.loads((store.root / ".claude" / "settings.json").read_text())
    assert sorted(settings["hooks"]) == ["PostToolUse", "SessionEnd", "SessionStart", "Stop"]
    out = run("hooks", "uninstall", "--mcp", "--claude").stdout
    for line in ("removed .mcp.json", "removed .cursor/mcp.json", "removed .claude/settings.json"):
        assert line in out
