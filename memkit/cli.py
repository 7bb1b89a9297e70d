"""memkit's command line: the table of commands, and `main`.

Commands live in memkit/commands/ and load lazily, so `memkit --help` imports none of
the heavy libraries. The click group (memkit.commands.group, also `memkit.cli.cli`)
hands any exception a command raises to memkit.errors.report, the one mapping of
errors to exit codes and messages: 0 ok, 1 a check found something, 2 user error
(any MemkitError), 3 a bug. A plain `memkit search`, `memkit context --file`,
`memkit check` or `memkit verify` (the options they know, nothing else) runs without
importing click at all (memkit.commands.fast): importing click costs more than the work.
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
    try:
        _run(sys.argv[1:] if args is None else list(args), prog_name)
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


def _run(argv: list[str], prog_name: str | None) -> None:
    if argv[:1] in (["search"], ["context"], ["check"], ["verify"]):
        from memkit.commands import fast

        code = getattr(fast, argv[0])(argv[1:])  # fast.search, .context, .check, .verify
        if code is not None:
            raise SystemExit(code)
    from memkit.commands.group import cli

    cli.main(args=argv, prog_name=prog_name or "memkit")


def __getattr__(name: str) -> Any:
    if name in ("cli", "MemkitGroup"):  # the click group, imported on first use
        from memkit.commands import group

        return getattr(group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
