"""memkit's command line: the table of commands, and `main`.

Commands live in memkit/commands/ and load lazily, so `memkit --help` imports none of
the heavy libraries. The click group (memkit.commands.group, also `memkit.cli.cli`)
hands any exception a command raises to memkit.errors.report, the one mapping of
errors to exit codes and messages: 0 ok, 1 a check found something, 2 user error
(any MemkitError), 3 a bug. click itself is imported only once a command line is
parsed (`memkit.cli.cli`, `main`), never by `import memkit.cli`.
"""

from __future__ import annotations

import sys
from typing import Any

from memkit.commands import COMMANDS
from memkit.errors import EXIT_OK, stdout_closed

__all__ = ["COMMANDS", "main"]


def main(args: list[str] | None = None, prog_name: str | None = None) -> None:
    """`memkit ARGS`. A reader that closes the output early (`memkit list | head -1`) ends
    it quietly with exit 0, whichever command was writing: never a traceback."""
    from memkit.commands.group import cli

    try:
        cli.main(args=sys.argv[1:] if args is None else list(args), prog_name=prog_name or "memkit")
    except BrokenPipeError:
        stdout_closed()
        raise SystemExit(EXIT_OK) from None
    except SystemExit as e:
        # click ends a closed pipe it caught itself (`memkit --help | head -1`) with exit 1,
        # after putting a PacifyFlushWrapper on stdout: that is a closed pipe too
        if e.code == 1 and type(sys.stdout).__name__.endswith("PacifyFlushWrapper"):
            stdout_closed()
            raise SystemExit(EXIT_OK) from None
        raise


def __getattr__(name: str) -> Any:
    if name in ("cli", "MemkitGroup"):  # the click group, imported on first use
        from memkit.commands import group

        return getattr(group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
