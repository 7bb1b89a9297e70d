"""Upgrading from memkit 0.1: what its installers wrote keeps working with this version.

The texts below are what 0.1 wrote (memkit/hooks.py and memkit/agent_install.py at
commit 412a94c): the pre-commit hook script, .claude/settings.json, .mcp.json and
.cursor/mcp.json. Real `git commit`s run the old hook; the commands the old settings
name run the current Claude Code handlers and MCP server; reinstalling upgrades the hook.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import Invoke, git, write_memory

from memkit.store import Store

BIN = Path(sys.executable).parent  # where `memkit` and `memkit-hook` are installed
SID = "0d1e2f3a-aaaa-bbbb-cccc-0123456789ab"

# memkit 0.1's pre-commit hook, as memkit/hooks.py wrote it (_SCRIPT, with _CODE in it).
SCRIPT_0_1 = """\
#!/bin/sh
{marker}: installed by `memkit hooks install`, removed by `memkit hooks uninstall`.
# It is rewritten on reinstall: put your own checks in {chained}, which runs first.
chained="$(dirname "$0")/{chained}"
if [ -x "$chained" ]; then
    "$chained" "$@" || exit $?
fi
python={python}
if [ -x "$python" ]; then
    exec "$python" -c '{code}' pre-commit --root {root}
elif command -v memkit >/dev/null 2>&1; then
    exec memkit --root {root} hooks run pre-commit
fi
echo "memkit: pre-commit hook skipped: memkit is not installed ($python is gone);" \\
    "reinstall it and run \\`memkit hooks install\\`, or \\`memkit hooks uninstall\\`" >&2
exit 0
"""
CODE_0_1 = """import sys
try:
    from memkit.hookrun import main
except ImportError:
    print("memkit: pre-commit hook skipped: memkit is not installed for", sys.executable,
          file=sys.stderr)
    sys.exit(0)
sys.exit(main(sys.argv[1:]))"""

# What memkit 0.1's install_claude wrote to .claude/settings.json, and install_mcp to
# .mcp.json and .cursor/mcp.json.
SETTINGS_0_1 = """\
{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {
            "type": "command",
            "command": "memkit-hook session-start",
            "timeout": 30
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Read|Edit|MultiEdit|Write|NotebookEdit|Grep|Glob|Bash",
        "hooks": [
          {
            "type": "command",
            "command": "memkit-hook post-tool-use",
            "timeout": 10
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "memkit-hook stop",
            "timeout": 30
          }
        ]
      }
    ],
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "memkit-hook session-end",
            "timeout": 30
          }
        ]
      }
    ]
  }
}
"""
MCP_0_1 = """\
{
  "mcpServers": {
    "memkit": {
      "command": "memkit",
      "args": [
        "mcp"
      ]
    }
  }
}
"""

LINKED = "---\ntitle: Totals are rounded once\nlinks:\n- src/app.py::total\n---\n\nRound once.\n"
APP = "def total(xs):\n    return round(sum(xs), 2)\n"


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **extra}


def commit(repo: Path) -> subprocess.CompletedProcess[str]:
    """A real `git commit`; git shows the hook's output on stderr."""
    argv = ["git", "commit", "-q", "-m", "change"]
    return subprocess.run(argv, cwd=repo, capture_output=True, text=True, env=env())


@pytest.fixture
def project(repo: Path, store: Store) -> Path:
    """A project as memkit 0.1 left it: its hook, its Claude Code settings, its MCP files."""
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text(APP, encoding="utf-8")
    (repo / "README").write_text("hello\n", encoding="utf-8")
    mem = write_memory(store, "totals-rounded-once", LINKED)
    (repo / ".memory" / "config.toml").write_text("[compile]\ntargets = []\n", "utf-8")
    hour_ago = time.time() - 3600
    os.utime(mem, (hour_ago, hour_ago))
    (repo / ".claude").mkdir()
    (repo / ".cursor").mkdir()
    (repo / ".claude" / "settings.json").write_text(SETTINGS_0_1, encoding="utf-8")
    (repo / ".mcp.json").write_text(MCP_0_1, encoding="utf-8")
    (repo / ".cursor" / "mcp.json").write_text(MCP_0_1, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    install_0_1_hook(repo, sys.executable)
    return repo


def install_0_1_hook(repo: Path, python: str) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    text = SCRIPT_0_1.format(
        marker="# memkit-managed hook",
        chained="pre-commit.before-memkit",
        code=CODE_0_1,
        python=shlex.quote(python),
        root=".",
    )
    hook.write_text(text, encoding="utf-8")
    hook.chmod(0o755)


@pytest.mark.parametrize("python", [sys.executable, "/gone/bin/python"], ids=["hookrun", "PATH"])
def test_the_0_1_pre_commit_hook_still_checks_commits(project: Path, python: str) -> None:
    """0.1's hook runs memkit.hookrun, or `memkit hooks run pre-commit` when its Python is gone.

    Run with `python -c`, it has the work tree first on the import path: each run says
    to reinstall it (tests/test_threats.py)."""
    from memkit.githooks.fastpath import OLD_HOOK

    warn = OLD_HOOK + "\n" if python == sys.executable else ""
    install_0_1_hook(project, python)
    (project / "README").write_text("hello again\n", encoding="utf-8")
    git(project, "add", "README")
    done = commit(project)  # nothing for memkit to do
    assert (done.returncode, done.stdout, done.stderr) == (0, "", warn)
    bad = project / ".memory" / "bad.md"
    bad.write_text("---\ntitle: Bad\ntype: opinion\n---\n\ntext\n", encoding="utf-8")
    git(project, "add", "-A")
    done = commit(project)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == warn + (
        ".memory/bad.md:3: type: unknown value 'opinion'; use one of: decision, convention, "
        "gotcha, procedure, episode, preference, note\n"
        "memkit: 1 problem(s) in 1 file(s)\n"
    )
    git(project, "rm", "-q", "--cached", ".memory/bad.md")
    bad.unlink()
    (project / "src" / "app.py").write_text(APP.replace("round(sum(xs), 2)", "sum(xs)"), "utf-8")
    git(project, "add", "src/app.py")
    done = commit(project)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == warn + (
        "memkit: this commit changes code that 1 memory describes:\n"
        "  totals-rounded-once: Totals are rounded once (.memory/totals-rounded-once.md)\n"
        "    src/app.py::total: body changed\n"
        "    -> still true? `memkit verify totals-rounded-once`; "
        "if not, `memkit edit totals-rounded-once`\n"
    )


def claude_hook(repo: Path, command: str, payload: dict[str, Any]) -> tuple[str, str]:
    """Run a hook command from the settings as Claude Code does: a shell, JSON on stdin."""
    done = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload),
        cwd=repo,
        capture_output=True,
        text=True,
        env=env(MEMKIT_TODAY="2026-11-22"),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def commands(settings: dict[str, Any]) -> dict[str, str]:
    return {event: groups[0]["hooks"][0]["command"] for event, groups in settings["hooks"].items()}


# The console script 0.1 installed ran memkit.agent_hooks:main; `memkit hook` came before it.
SPELLINGS = [
    "memkit-hook {}",
    f"{shlex.quote(sys.executable)} -c 'import sys; from memkit.agent_hooks import main; "
    "sys.exit(main())' {}",
    "memkit hook {}",
]


@pytest.mark.parametrize("spelling", SPELLINGS, ids=["memkit-hook", "agent_hooks", "memkit hook"])
def test_the_0_1_claude_settings_still_run_the_handlers(project: Path, spelling: str) -> None:
    settings = json.loads((project / ".claude" / "settings.json").read_text("utf-8"))
    run = {
        event: spelling.format(command.removeprefix("memkit-hook "))
        for event, command in commands(settings).items()
    }
    base = {"session_id": SID, "cwd": str(project)}
    edit = {"file_path": str(project / "src" / "app.py"), "new_string": "return sum(xs)"}
    for tool, tool_input in (("Read", {"file_path": "README"}), ("Edit", edit)):
        payload = {**base, "hook_event_name": "PostToolUse"}
        payload.update(tool_name=tool, tool_input=tool_input)
        assert claude_hook(project, run["PostToolUse"], payload) == ("", "")
    out, err = claude_hook(project, run["SessionStart"], {**base, "source": "compact"})
    assert err == ""
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "## Totals are rounded once" in context
    draft = ".memory/session-2026-11-22-0d1e2f3a.md"
    note = f"memkit saved a draft of what this session did: {draft} (`memkit approve`)"
    assert claude_hook(project, run["Stop"], {**base, "hook_event_name": "Stop"}) == (
        json.dumps({"systemMessage": note}) + "\n",
        f"memkit hook stop: saved {draft} (draft)\n",
    )
    end = {**base, "hook_event_name": "SessionEnd"}
    assert claude_hook(project, run["SessionEnd"], end) == (
        "",
        f"memkit hook session-end: {draft} is up to date\n",
    )
    assert Store(project).get("session-2026-11-22-0d1e2f3a").status == "draft"


@pytest.mark.slow  # a real MCP server
def test_the_0_1_mcp_entry_still_serves(project: Path) -> None:
    pytest.importorskip("mcp")
    import anyio
    from mcp import Client, StdioServerParameters

    entry = json.loads((project / ".mcp.json").read_text("utf-8"))["mcpServers"]["memkit"]
    params = StdioServerParameters(
        command=str(BIN / entry["command"]),
        args=entry["args"],
        cwd=str(project),
        env={"HOME": os.environ["HOME"], "MEMKIT_TODAY": "2026-11-22"},
    )
    found: list[str] = []

    async def main() -> None:
        async with Client(params, mode="legacy") as client:
            result = await client.call_tool("get_memory", {"id": "totals-rounded-once"})
            found.append(json.loads(result.content[0].text)["title"])

    anyio.run(main)
    assert found == ["Totals are rounded once"]


def test_reinstalling_upgrades_the_hook_and_the_agent_entries(project: Path, run: Invoke) -> None:
    """0.1 wrote bare `memkit-hook` / `memkit mcp` entries, which fail for a teammate
    without memkit on PATH: reinstalling turns them into launchers, once."""
    from memkit.agents.install.register import MCP_ENTRY, launcher

    hook = project / ".git" / "hooks" / "pre-commit"
    merge = project / ".git" / "hooks" / "pre-merge-commit"  # new since 0.1
    assert run("hooks", "install", "--mcp", "--claude").stdout == (
        f"updated {hook}\ninstalled {merge}\nupdated .mcp.json\nupdated .cursor/mcp.json\n"
        "updated .claude/settings.json\n"
    )
    assert "from memkit.githooks.fastpath import main" in hook.read_text("utf-8")
    settings = json.loads((project / ".claude" / "settings.json").read_text("utf-8"))
    assert commands(settings)["Stop"] == launcher("memkit-hook", "stop")
    assert json.loads((project / ".mcp.json").read_text("utf-8"))["mcpServers"]["memkit"] == (
        MCP_ENTRY
    )
    assert run("hooks", "install", "--mcp", "--claude").stdout == "memkit hooks already installed\n"
    assert run("hooks", "uninstall", "--claude").stdout == (
        f"removed {hook}\nremoved {merge}\nremoved .claude/settings.json\n"
    )
