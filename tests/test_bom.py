"""A file that starts with a byte-order mark (as files written on Windows often do): memkit
reads it as if the mark were not there, and a file it rewrites keeps the mark."""

from __future__ import annotations

import json

import pytest
from conftest import Invoke, write_files

from memkit.agents.install import more_agents as installers
from memkit.store import Store

BOM = b"\xef\xbb\xbf"


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def test_adopted_file_with_a_bom_compiles_and_keeps_it(run: Invoke, store: Store) -> None:
    agents = store.root / "AGENTS.md"
    agents.write_bytes(BOM + b"## Build\n\nRun `make` before pushing.\n\n## Style\n\nTabs.\n")
    run("import", "--adopt", ".")
    assert agents.read_bytes().startswith(BOM + b"<!-- memkit:begin -->\n")
    run("compile")
    text = agents.read_bytes()
    assert text.startswith(BOM + b"<!-- memkit:begin -->\n")
    assert b"Run `make` before pushing." in text
    assert text.count(BOM) == 1
    run("compile", "--check")


def test_markers_after_a_bom_are_found(run: Invoke, store: Store) -> None:
    write_files(store.root, {".memory/tabs.md": "---\ntitle: Tabs\ntype: convention\n---\nTabs.\n"})
    agents = store.root / "AGENTS.md"
    agents.write_bytes(BOM + b"<!-- memkit:begin -->\nold\n<!-- memkit:end -->\nMine.\n")
    run("compile")
    text = agents.read_bytes()
    assert text.startswith(BOM + b"<!-- memkit:begin -->\n") and text.endswith(b"\nMine.\n")
    assert b"old" not in text and b"Tabs." in text


def test_config_with_a_bom_is_read(run: Invoke, store: Store) -> None:
    config = store.root / ".memory/config.toml"
    config.write_bytes(BOM + b'[compile]\ntargets = ["agents"]\n')
    write_files(store.root, {".memory/tabs.md": "---\ntitle: Tabs\ntype: convention\n---\nTabs.\n"})
    out = run("compile")
    assert "AGENTS.md" in out.stdout and not (store.root / "CLAUDE.md").exists()


def test_memory_with_a_bom_keeps_it_when_rewritten(run: Invoke, store: Store) -> None:
    write_files(store.root, {"x.py": "X = 1\n"})
    path = store.root / ".memory/tabs.md"
    path.write_bytes(BOM + b"---\ntitle: Tabs\ntype: convention\n---\nTabs.\n")
    run("link", "tabs", "x.py")
    assert path.read_bytes().startswith(BOM + b"---\n")
    assert "x.py" in store.get("tabs").links


def test_agent_settings_with_a_bom_are_read_and_keep_it(store: Store) -> None:
    vscode = store.root / ".vscode/mcp.json"
    vscode.parent.mkdir()
    vscode.write_bytes(BOM + b'{"servers": {}}\n')
    codex = store.root / ".codex/config.toml"
    codex.parent.mkdir()
    codex.write_bytes(BOM + b'model = "o3"\n')
    assert installers.install(store.root, ["vscode", "codex"]) == [
        "updated .vscode/mcp.json",
        "updated .codex/config.toml",
    ]
    assert vscode.read_bytes().startswith(BOM + b"{")
    assert codex.read_bytes().startswith(BOM + b'model = "o3"\n')
    claude = store.root / ".mcp.json"
    claude.write_bytes(BOM + b'{"mcpServers": {}}\n')
    installers.install(store.root, installers.MCP_FILES)
    assert claude.read_bytes().startswith(BOM + b"{")
    assert "memkit" in json.loads(claude.read_bytes()[3:])["mcpServers"]


def test_dependencies_of_a_manifest_with_a_bom(run: Invoke, store: Store) -> None:
    write_files(store.root, {"package.json": '\ufeff{"dependencies": {"react": "^18.2.0"}}\n'})
    write_files(store.root, {".memory/ui.md": "---\ntitle: UI\ntype: convention\n---\nReact.\n"})
    out = run("link", "ui", "dep:react")
    assert "dep:react" in out.stdout
