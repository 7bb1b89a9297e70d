"""Registering memkit with agents (memkit.agents.install.register): .mcp.json, .cursor/mcp.json and
the Claude Code hooks in .claude/settings.json."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Invoke, write_memory

from memkit.agents.install.more_agents import MCP_FILES, install, uninstall
from memkit.agents.install.register import MCP_ENTRY, install_claude, launcher, uninstall_claude
from memkit.errors import UnsafePathError
from memkit.store import Store

EVENTS = ["PostToolUse", "PreToolUse", "SessionEnd", "SessionStart", "Stop", "UserPromptSubmit"]


def test_install_mcp_merges_and_is_idempotent(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"db": {"command": "pg-mcp"}}}\n')
    assert install(tmp_path, MCP_FILES) == ["updated .mcp.json", "created .cursor/mcp.json"]
    assert install(tmp_path, MCP_FILES) == []
    assert json.loads((tmp_path / ".mcp.json").read_text()) == {
        "mcpServers": {
            "db": {"command": "pg-mcp"},
            "memkit": MCP_ENTRY,
        }
    }
    assert uninstall(tmp_path, MCP_FILES) == ["updated .mcp.json", "removed .cursor/mcp.json"]
    assert json.loads((tmp_path / ".mcp.json").read_text()) == {
        "mcpServers": {"db": {"command": "pg-mcp"}}
    }
    assert uninstall(tmp_path, MCP_FILES) == []


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
        "hooks": [
            {"type": "command", "command": launcher("memkit-hook", "post-tool-use"), "timeout": 10}
        ],
    }
    assert data["hooks"]["SessionStart"] == [
        {
            "matcher": "startup|resume|clear|compact|fork",
            "hooks": [
                {
                    "type": "command",
                    "command": launcher("memkit-hook", "session-start"),
                    "timeout": 30,
                }
            ],
        }
    ]
    assert data["hooks"]["PreToolUse"][0]["matcher"] == "Edit|MultiEdit|Write|NotebookEdit"
    assert sorted(data["hooks"]) == EVENTS
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
        install(tmp_path, MCP_FILES)
    assert (tmp_path / ".mcp.json").read_text() == "{oops"


def test_hook_matcher_names_the_recorded_tools() -> None:
    from memkit.agents.claude.payload import TOOLS
    from memkit.agents.install.register import TOOL_MATCHER

    assert "|".join(TOOLS) == TOOL_MATCHER


def test_hooks_install_mcp_and_claude(run: Invoke, store: Store) -> None:
    pytest.importorskip("memkit.commands.githooks")
    out = run("hooks", "install", "--mcp", "--claude").stdout
    for line in ("created .mcp.json", "created .cursor/mcp.json", "created .claude/settings.json"):
        assert line in out
    again = run("hooks", "install", "--mcp", "--claude").stdout
    assert ".mcp.json" not in again and "settings.json" not in again
    settings = json.loads((store.root / ".claude" / "settings.json").read_text())
    assert sorted(settings["hooks"]) == EVENTS
    out = run("hooks", "uninstall", "--mcp", "--claude").stdout
    for line in ("removed .mcp.json", "removed .cursor/mcp.json", "removed .claude/settings.json"):
        assert line in out


def test_entries_of_earlier_versions_become_launchers(tmp_path: Path) -> None:
    """A bare `memkit-hook` / `memkit mcp` fails for a teammate without memkit on PATH."""
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    old = {"hooks": [{"type": "command", "command": "memkit-hook stop", "timeout": 30}]}
    settings.write_text(json.dumps({"hooks": {"Stop": [old]}}))
    (tmp_path / ".mcp.json").write_text(
        '{"mcpServers": {"memkit": {"command": "memkit", "args": ["mcp"]}}}'
    )
    mine = {"command": "/opt/memkit/bin/memkit", "args": ["mcp"]}
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "mcp.json").write_text(json.dumps({"mcpServers": {"memkit": mine}}))
    assert install_claude(tmp_path) == ["updated .claude/settings.json"]
    assert install(tmp_path, MCP_FILES) == ["updated .mcp.json"]  # a person's own entry is kept
    stop = json.loads(settings.read_text())["hooks"]["Stop"]
    assert [h["command"] for g in stop for h in g["hooks"]] == [launcher("memkit-hook", "stop")]
    assert json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["memkit"] == MCP_ENTRY
    cursor = json.loads((tmp_path / ".cursor" / "mcp.json").read_text())
    assert cursor["mcpServers"]["memkit"] == mine


def _run_launcher(
    project: Path, command: str, payload: str, path: str
) -> subprocess.CompletedProcess[str]:
    env = {"PATH": path, "HOME": os.environ["HOME"], "TMPDIR": str(project.parent / "tmp"),
           "CLAUDE_PROJECT_DIR": str(project), "MEMKIT_TODAY": "2026-11-22"}  # fmt: skip
    (project.parent / "tmp").mkdir(exist_ok=True)
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=payload,
        capture_output=True,
        text=True,
        cwd=project.parent,
        env=env,
        timeout=60,
    )


def test_launcher_finds_the_project_virtualenv_with_a_minimal_path(store: Store) -> None:
    """Claude Code runs the command through a shell, from anywhere, with the PATH it has:
    memkit is found in the project's .venv/ even when it is not on PATH."""
    venv_bin = store.root / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "memkit-hook").symlink_to(Path(sys.executable).parent / "memkit-hook")
    write_memory(store, "utc", "---\ntitle: Use UTC\n---\nAlways.\n")
    payload = json.dumps(
        {
            "session_id": "s1",
            "cwd": str(store.root),
            "source": "startup",
            "hook_event_name": "SessionStart",
        }
    )
    done = _run_launcher(
        store.root, launcher("memkit-hook", "session-start"), payload, "/usr/bin:/bin"
    )
    assert done.returncode == 0, done.stderr
    assert "## Use UTC" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_launcher_without_memkit_says_so_once_per_session(store: Store) -> None:
    payload = json.dumps(
        {
            "session_id": "abc-1",
            "cwd": str(store.root),
            "tool_name": "Read",
            "tool_input": {"file_path": "x"},
        }
    )
    command = launcher("memkit-hook", "post-tool-use")
    outs = [_run_launcher(store.root, command, payload, "/usr/bin:/bin") for _ in range(3)]
    assert [o.returncode for o in outs] == [0, 0, 0]
    assert json.loads(outs[0].stdout) == {
        "systemMessage": "memkit is not installed for this project, so its agent hooks do nothing;"
        " to install it: pip install . in a clone of the memkit repository (see its README)."
    }
    assert [o.stdout for o in outs[1:]] == ["", ""] and {o.stderr for o in outs} == {""}
    other = _run_launcher(store.root, command, payload.replace("abc-1", "abc-2"), "/usr/bin:/bin")
    assert other.stdout.startswith('{"systemMessage"')
    argv = [MCP_ENTRY["command"], *MCP_ENTRY["args"]]
    server = _run_launcher(store.root, shlex.join(argv), "", "/usr/bin:/bin")
    assert server.returncode == 0 and server.stdout == ""
    assert "memkit is not installed for this project" in server.stderr
    assert server.stderr.count("\n") == 1 and "pip install . in a clone" in server.stderr
    assert "pip install memkit" not in server.stderr  # an unrelated project on the index


@pytest.mark.parametrize("name", [".mcp.json", ".claude/settings.json"])
def test_install_never_writes_through_a_link_out(store: Store, tmp_path: Path, name: str) -> None:
    """A settings file that is a symbolic link out of the repository is refused, not
    written through (a cloned repository must not make `hooks install` write elsewhere)."""
    outside = tmp_path / "outside.json"
    outside.write_text("{}\n")
    link = store.root / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)
    with pytest.raises(UnsafePathError, match="outside the repository"):
        install(store.root, MCP_FILES) if name == ".mcp.json" else install_claude(store.root)
    assert outside.read_text() == "{}\n" and link.is_symlink()


def test_install_never_reads_through_a_folder_linked_into_git(store: Store) -> None:
    (store.root / ".claude").symlink_to(store.root / ".git")
    with pytest.raises(UnsafePathError, match=r"into \.git/"):
        install_claude(store.root)
    assert not (store.root / ".git" / "settings.json").exists()
