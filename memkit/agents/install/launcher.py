"""The command memkit writes into agents' settings: a launcher that finds memkit at run time.

A committed settings file runs on every teammate's machine, Linux, macOS or Windows alike,
so the command looks for memkit in the project's virtualenv (`bin/PROGRAM`, or Windows'
`Scripts/PROGRAM.exe`), then on PATH, and without it says so once and exits 0.

Hooks are shell commands: Claude Code runs them with `sh -c` on Linux and macOS and with
Git Bash on Windows, so a POSIX `sh -c '...'` one-liner serves all three. An MCP server
is spawned without a shell, and on Windows `sh` is not on PATH (Git for Windows puts only
its `cmd` folder there by default) while `git` is: the server command is `git` running the
same script as a shell alias, which Git for Windows runs with its own `sh` and tools
(sources in docs/reliability.md, Platforms).
"""

from __future__ import annotations

from memkit.install import ANYWHERE

# Marks a launcher as memkit's (uninstall removes it, install does not add it twice).
MARK = ": memkit-launcher"
MCP_NAME = "memkit"  # memkit's server, in every agent's file
# The project folder, as each agent names it when it runs a hook or starts a server.
# Plain `$VAR` only: agents expand `${VAR}` in .mcp.json themselves.
_ROOT = 'r=$CLAUDE_PROJECT_DIR; [ -n "$r" ] || r=$MEMKIT_ROOT; [ -n "$r" ] || r=$PWD'
_VENVS = (".venv", "venv")  # the project's virtualenvs, searched in this order


def launcher(program: str, *args: str) -> str:
    """A POSIX sh command running memkit's `program` (memkit-hook, memkit) with `args`.
    It looks in the project's .venv/bin and venv/bin, then .venv/Scripts and venv/Scripts
    (PROGRAM.exe: a virtualenv made on Windows, where Git Bash runs this), then on PATH.
    Without memkit it says so once and exits 0, so an agent without memkit is never
    blocked: a hook prints a `systemMessage` once per session (the session id read from
    the payload), the server one line on stderr once per parent process (`$PPID`)."""
    notice = (
        "memkit is not installed for this project, so its agent hooks do nothing; "
        f"to install it: {ANYWHERE}"
    )
    if program == "memkit-hook":
        key = (
            "$(head -c 4096 | sed -n "
            '"s/.*\\"session_id\\" *: *\\"\\([^\\"]*\\)\\".*/\\1/p" '
            "| tr -cd A-Za-z0-9_-)"
        )
        say = f'echo "{{\\"systemMessage\\": \\"{notice}.\\"}}"'
    else:
        key, say = "$PPID", f'echo "{notice}." >&2'
    places = (
        " ".join(f'"$r/{v}/bin/{program}"' for v in _VENVS)
        + " "
        + " ".join(f'"$r/{v}/Scripts/{program}.exe"' for v in _VENVS)
    )
    script = (
        f"{MARK}; {_ROOT}; "
        f"for p in {places}; do "
        f'[ -x "$p" ] && exec "$p" "$@"; done; '
        f'command -v {program} >/dev/null 2>&1 && exec {program} "$@"; '
        f'm=$TMPDIR; [ -n "$m" ] || m=/tmp; m="$m/memkit-missing-$(id -u)-{key}"; '
        f'[ -e "$m" ] || {{ : > "$m"; {say}; }}; exit 0'
    )
    return f"sh -c '{script}' {program} {' '.join(args)}".rstrip()


def script(program: str) -> str:
    """The script part of `launcher(program)` (what goes after `sh -c`)."""
    return launcher(program).split("'")[1]


# The server's entry: `git -c alias.NAME='!FUNCTION' NAME mcp` runs the script with the
# shell git uses for aliases (Git for Windows' own `sh`, with its tools on PATH), where an
# agent spawning `sh` itself would find none on a Windows PATH. Git runs a shell alias as
# `sh -c 'ALIAS "$@"' ALIAS ARGS...` from the repository's top folder: the script is a
# function, so `"$@"` are its arguments.
_ALIAS = "memkit-mcp-launcher"
MCP_ENTRY = {
    "command": "git",
    "args": [
        "-c",
        f"alias.{_ALIAS}=!memkit_mcp() {{ {script('memkit')}; }}; memkit_mcp",
        _ALIAS,
        "mcp",
    ],
}
