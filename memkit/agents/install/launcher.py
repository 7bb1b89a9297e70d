"""The command memkit writes into agents' settings: a launcher that finds memkit at run time.

A committed settings file runs on every teammate's machine, so the command looks for
memkit in the project's virtualenv, then on PATH, and without it says so once and exits 0.
"""

from __future__ import annotations

from memkit.install import ANYWHERE

# Marks a launcher as memkit's (uninstall removes it, install does not add it twice).
MARK = ": memkit-launcher"
MCP_NAME = "memkit"  # memkit's server, in every agent's file
# The project folder, as each agent names it when it runs a hook or starts a server.
# Plain `$VAR` only: agents expand `${VAR}` in .mcp.json themselves.
_ROOT = 'r=$CLAUDE_PROJECT_DIR; [ -n "$r" ] || r=$MEMKIT_ROOT; [ -n "$r" ] || r=$PWD'


def launcher(program: str, *args: str) -> str:
    """A POSIX sh command running memkit's `program` (memkit-hook, memkit) with `args`.
    It looks in the project's .venv/bin and venv/bin, then on PATH. Without memkit it
    says so once and exits 0, so an agent without memkit is never blocked: a hook
    prints a `systemMessage` once per session (the session id read from the payload),
    the server one line on stderr once per client process."""
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
    script = (
        f"{MARK}; {_ROOT}; "
        f'for p in "$r/.venv/bin/{program}" "$r/venv/bin/{program}"; do '
        f'[ -x "$p" ] && exec "$p" "$@"; done; '
        f'command -v {program} >/dev/null 2>&1 && exec {program} "$@"; '
        f'm=$TMPDIR; [ -n "$m" ] || m=/tmp; m="$m/memkit-missing-$(id -u)-{key}"; '
        f'[ -e "$m" ] || {{ : > "$m"; {say}; }}; exit 0'
    )
    return f"sh -c '{script}' {program} {' '.join(args)}".rstrip()


def script(program: str) -> str:
    """The script part of `launcher(program)` (what goes after `sh -c`)."""
    return launcher(program).split("'")[1]


MCP_ENTRY = {"command": "sh", "args": ["-c", script("memkit"), "memkit", "mcp"]}
