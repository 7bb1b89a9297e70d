"""`memkit hooks install --agent NAME`: memkit's MCP server in each agent's own project file."""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from memkit.agents.install import more_agents as installers
from memkit.agents.install.more_agents import AGENTS, NAMES
from memkit.errors import MemkitError
from memkit.store import Store
from tests.conftest import Invoke

# What a person already had in each file: it must survive install and uninstall.
EXISTING: dict[str, str] = {
    "vscode": '{\n    "inputs": [],\n    "servers": {\n        "db": {\n            '
    '"type": "stdio",\n            "command": "db-mcp"\n        }\n    }\n}\n',
    "gemini": '{\n  "theme": "GitHub",\n  "mcpServers": {\n    "db": {\n      "command": "db-mcp"'
    "\n    }\n  }\n}\n",
    "codex": '# my settings\nmodel = "o3"\n\n[mcp_servers.db]\ncommand = "db-mcp"\n'
    'args = ["--port", "5432"]\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    "kiro": '{\n  "mcpServers": {\n    "db": {\n      "command": "db-mcp",\n      "disabled": false'
    "\n    }\n  }\n}\n",
    "amazonq": '{\n  "mcpServers": {\n    "db": {\n      "command": "db-mcp"\n    }\n  }\n}\n',
    "roo": '{\n  "mcpServers": {\n    "db": {\n      "command": "db-mcp"\n    }\n  }\n}\n',
    "zed": '{\n  "tab_size": 4,\n  "context_servers": {\n    "db": {\n      "command": "db-mcp"'
    "\n    }\n  }\n}\n",
    "opencode": '{\n  "$schema": "https://opencode.ai/config.json",\n  "model": "x/y"\n}\n',
}


def parsed(root: Path, name: str) -> dict[str, Any]:
    text = (root / AGENTS[name].file).read_text("utf-8")
    return tomllib.loads(text) if AGENTS[name].toml else json.loads(text)


def servers(root: Path, name: str) -> dict[str, Any]:
    data = parsed(root, name)
    value = data[AGENTS[name].key]
    assert isinstance(value, dict)
    return value


def seed(root: Path) -> dict[str, bytes]:
    for name, text in EXISTING.items():
        path = root / AGENTS[name].file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return {n: (root / AGENTS[n].file).read_bytes() for n in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_install_merges_and_uninstall_restores(store: Store, name: str) -> None:
    before = seed(store.root)
    rel = AGENTS[name].file
    assert installers.install(store.root, [name]) == [f"updated {rel}"]
    assert servers(store.root, name)["memkit"] == AGENTS[name].entry()
    old = (json.loads if not AGENTS[name].toml else tomllib.loads)(EXISTING[name])
    for key, value in old.items():  # everything the person had is still there
        if key != AGENTS[name].key:
            assert parsed(store.root, name)[key] == value
    for server, value in old.get(AGENTS[name].key, {}).items():
        assert servers(store.root, name)[server] == value
    assert installers.install(store.root, [name]) == []  # idempotent
    assert installers.uninstall(store.root, [name]) == [f"updated {rel}"]
    assert (store.root / rel).read_bytes() == before[name]  # byte for byte
    assert installers.uninstall(store.root, [name]) == []


@pytest.mark.parametrize("name", NAMES)
def test_created_from_nothing_and_removed_again(store: Store, name: str) -> None:
    rel = AGENTS[name].file
    assert installers.install(store.root, [name], dry_run=True) == [f"would create {rel}"]
    assert not (store.root / rel).exists()
    assert installers.install(store.root, [name]) == [f"created {rel}"]
    assert list(servers(store.root, name)) == ["memkit"]
    assert installers.uninstall(store.root, [name]) == [f"removed {rel}"]
    assert not (store.root / rel).exists()


def test_a_server_a_person_changed_is_kept(store: Store) -> None:
    path = store.root / ".roo" / "mcp.json"
    path.parent.mkdir()
    mine = '{"mcpServers": {"memkit": {"command": "/opt/memkit/bin/memkit", "args": ["mcp"]}}}'
    path.write_text(mine)
    assert installers.install(store.root, ["roo"]) == []
    assert installers.uninstall(store.root, ["roo"]) == []
    assert path.read_text() == mine
    codex = store.root / ".codex" / "config.toml"
    codex.parent.mkdir()
    codex.write_text('mcp_servers.memkit.command = "memkit"\n')  # dotted keys: a person's
    assert installers.install(store.root, ["codex"]) == []


def test_json_with_comments_is_never_rewritten(store: Store) -> None:
    path = store.root / ".zed" / "settings.json"
    path.parent.mkdir()
    path.write_text('{\n  // my font\n  "buffer_font_size": 15\n}\n')
    with pytest.raises(MemkitError, match=r"\.zed/settings\.json has comments") as e:
        installers.install(store.root, ["zed", "kiro"])
    assert '"context_servers": {\n    "memkit": {' in str(e.value)
    assert not (store.root / ".kiro").exists()  # nothing written when one file is refused


def test_bad_files_are_refused_before_anything_is_written(store: Store) -> None:
    (store.root / ".codex").mkdir()
    (store.root / ".codex" / "config.toml").write_text("[broken\n")
    with pytest.raises(MemkitError, match=r"\.codex/config\.toml is not valid TOML"):
        installers.install(store.root, ["vscode", "codex"])
    assert not (store.root / ".vscode").exists()


def test_a_link_out_of_the_repository_is_refused(store: Store, tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("{}")
    (store.root / ".kiro" / "settings").mkdir(parents=True)
    (store.root / ".kiro" / "settings" / "mcp.json").symlink_to(outside)
    with pytest.raises(MemkitError, match="outside the repository"):
        installers.install(store.root, ["kiro"])
    assert outside.read_text() == "{}"


def _argv(root: Path, name: str) -> tuple[list[str], dict[str, str]]:
    entry = servers(root, name)["memkit"]
    if name == "opencode":
        return list(entry["command"]), {}
    env = {k: v.replace("${workspaceFolder}", str(root)) for k, v in entry.get("env", {}).items()}
    return [entry["command"], *entry["args"]], env


@pytest.mark.parametrize("name", NAMES)
def test_the_written_command_runs_memkit_or_exits_quietly(
    store: Store, name: str, tmp_path: Path
) -> None:
    installers.install(store.root, [name])
    argv, extra = _argv(store.root, name)
    base = {"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path), "HOME": os.environ["HOME"]}
    # Variables named like the launcher's own: agents that expand $NAME must not break it.
    env = {**base, **extra, "r": "/nowhere", "p": "/nowhere", "m": "/nowhere"}
    missing = subprocess.run(argv, cwd=store.root, env=env, capture_output=True, text=True)
    assert missing.returncode == 0
    assert missing.stdout == ""
    assert "memkit is not installed for this project" in missing.stderr
    fake = store.root / ".venv" / "bin" / "memkit"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\necho "memkit $*"\n')
    fake.chmod(0o755)
    found = subprocess.run(argv, cwd=store.root, env=env, capture_output=True, text=True)
    assert found.stdout == "memkit mcp\n"


def test_cli(store: Store, run: Invoke) -> None:
    out = run("hooks", "install", "--agent", "gemini", "--agent", "codex", "--dry-run").output
    assert out == "would create .gemini/settings.json\nwould create .codex/config.toml\n"
    assert not (store.root / ".gemini").exists()
    out = run("hooks", "install", "--mcp", "--claude", "--dry-run").output
    assert out.splitlines() == [
        "would create .mcp.json",
        "would create .cursor/mcp.json",
        "would create .claude/settings.json",
    ]
    assert "add --mcp, --claude or --agent" in run("hooks", "install", "--dry-run", code=2).output
    out = run("hooks", "install", "--agent", "all").output
    assert out.splitlines()[2:] == [f"created {AGENTS[n].file}" for n in NAMES]
    out = run("hooks", "uninstall", "--agent", "vscode").output
    assert out.splitlines()[-1] == "removed .vscode/mcp.json"


def test_uninstall_dry_run(store: Store, run: Invoke) -> None:
    run("hooks", "install", "--mcp", "--agent", "zed")
    out = run("hooks", "uninstall", "--mcp", "--agent", "zed", "--dry-run").output
    assert out.splitlines() == [
        "would remove .mcp.json",
        "would remove .cursor/mcp.json",
        "would remove .zed/settings.json",
    ]
    assert (store.root / ".zed" / "settings.json").exists()
    assert (store.root / ".mcp.json").exists()
