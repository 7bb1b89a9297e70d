"""The launchers memkit writes (memkit.agents.install.launcher) under the shells and
spawners other systems have: dash (Debian's and Ubuntu's /bin/sh) and BusyBox's sh run
the script as Git Bash runs it on Windows, and find a Windows virtualenv
(`.venv/Scripts/PROGRAM.exe`); the MCP server command starts with `git` alone on PATH, as
on Windows, where `sh` is not there. Each skips, saying which, when a shell is not
installed (`apt-get install dash busybox`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import write_memory

from memkit.agents.install.launcher import MCP_ENTRY, script
from memkit.agents.install.more_agents import AGENTS, MCP_FILES, install
from memkit.store import Store

pytestmark = pytest.mark.posix

SHELLS = {"dash": ["dash"], "busybox sh": ["busybox", "sh"]}
# A stand-in for memkit's program: it prints how it was called and the lines it read
# (with shell builtins only: the PATH of some tests has no `cat`).
FAKE = '#!/bin/sh\nprintf "%s|" "$0" "$@"\nwhile IFS= read -r l; do printf "%s\\n" "$l"; done\n'


def _installed(argv: list[str]) -> None:
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed (`apt-get install {argv[0]}` as root)")


def _fake(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FAKE, encoding="utf-8")
    path.chmod(0o755)
    return path


def _env(tmp_path: Path, path: str, **extra: str) -> dict[str, str]:
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return {"PATH": path, "HOME": str(tmp_path), "TMPDIR": str(tmp_path / "tmp"), **extra}


@pytest.mark.parametrize("venv", [".venv", "venv"])
@pytest.mark.parametrize("program", ["memkit-hook", "memkit"])
@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_the_script_finds_a_windows_virtualenv(
    tmp_path: Path, shell: str, program: str, venv: str
) -> None:
    """A project whose virtualenv was made on Windows has `Scripts/PROGRAM.exe` and no
    `bin/`: the script finds it, passes the arguments and stdin through, prints nothing."""
    _installed(SHELLS[shell])
    project = tmp_path / "project"
    fake = _fake(project / venv / "Scripts" / f"{program}.exe")
    done = subprocess.run(
        [*SHELLS[shell], "-c", script(program), program, "session-start"],
        input='{"session_id": "s1"}\n',
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path, "/usr/bin:/bin", CLAUDE_PROJECT_DIR=str(project)),
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f'{fake}|session-start|{{"session_id": "s1"}}\n'


def _git_only(tmp_path: Path) -> str:
    """A PATH holding `git` (and `id`, which Git for Windows' own PATH has) but no `sh`:
    what a Windows MCP client spawning a server sees."""
    git = shutil.which("git")
    assert git is not None
    bin_dir = tmp_path / "git-only"
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(git)
    (bin_dir / "id").symlink_to(shutil.which("id") or "/usr/bin/id")
    return str(bin_dir)


def _argv(entry: dict[str, Any]) -> list[str]:
    command = entry["command"]
    return list(command) if isinstance(command, list) else [command, *entry["args"]]


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_the_server_starts_without_sh_on_path(tmp_path: Path, name: str) -> None:
    """Every agent's server entry, spawned without a shell from a PATH that has git and
    no `sh`, finds a Windows virtualenv's memkit.exe and runs `memkit mcp` in it."""
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    fake = _fake(project / ".venv" / "Scripts" / "memkit.exe")
    entry = AGENTS[name].entry()
    env = entry.get("env", {})
    extra = {k: v.replace("${workspaceFolder}", str(project)) for k, v in env.items()}
    done = subprocess.run(
        _argv(entry),
        input="request\n",
        capture_output=True,
        text=True,
        cwd=project,
        env=_env(tmp_path, _git_only(tmp_path), **extra),
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"{fake}|mcp|request\n"


def test_the_server_without_memkit_says_so_without_sh_on_path(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    env = _env(tmp_path, _git_only(tmp_path))
    done = subprocess.run(
        _argv(MCP_ENTRY),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.startswith("memkit is not installed for this project")
    assert done.stderr.count("\n") == 1


def test_the_server_entry_is_one_form_for_every_system() -> None:
    """One entry serves a team on Linux, macOS and Windows: no `sh` to find on PATH."""
    entries = [AGENTS[name].entry() for name in sorted(AGENTS)]
    assert {_argv(e)[0] for e in entries} == {"git"}
    assert all("memkit-launcher" in json.dumps(e) for e in entries)
    assert os.sep not in MCP_ENTRY["command"]


def test_install_replaces_the_server_entry_that_needed_sh(tmp_path: Path) -> None:
    """A project installed with the `sh` server entry (which fails on Windows) gets the
    `git` one when install runs again; a person's own server is kept."""
    old = {"command": "sh", "args": ["-c", script("memkit"), "memkit", "mcp"]}
    mine = {"command": "sh", "args": ["-c", "my-server"]}
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"memkit": old, "x": mine}}))
    assert install(tmp_path, MCP_FILES) == ["updated .mcp.json", "created .cursor/mcp.json"]
    servers = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]
    assert servers == {"memkit": MCP_ENTRY, "x": mine}
    assert servers["memkit"]["command"] == "git"


@pytest.mark.slow  # a real MCP server and client
def test_a_real_client_reaches_the_windows_virtualenv_server(store: Store) -> None:
    """An MCP client (the `mcp` package's stdio client, which spawns without a shell)
    starts the server entry with only git on PATH, reaches memkit in
    `.venv/Scripts/memkit.exe` and reads a memory."""
    pytest.importorskip("mcp")
    import anyio
    from mcp import Client, StdioServerParameters

    write_memory(store, "utc", "---\ntitle: Use UTC\n---\nAlways.\n")
    exe = store.root / ".venv" / "Scripts" / "memkit.exe"
    exe.parent.mkdir(parents=True)
    exe.symlink_to(Path(sys.executable).parent / "memkit")
    tmp = store.root.parent
    params = StdioServerParameters(
        command=MCP_ENTRY["command"],
        args=MCP_ENTRY["args"],
        cwd=str(store.root),
        env={**_env(tmp, _git_only(tmp)), "MEMKIT_TODAY": "2026-11-22"},
    )
    found: list[str] = []

    async def main() -> None:
        async with Client(params, mode="legacy") as client:
            result = await client.call_tool("get_memory", {"id": "utc"})
            found.append(json.loads(result.content[0].text)["title"])

    anyio.run(main)
    assert found == ["Use UTC"]
