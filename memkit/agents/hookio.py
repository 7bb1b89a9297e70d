"""The input and output of a Claude Code hook process: one payload on stdin, what the
handler gives on stdout and stderr, exit 0 whatever happens (a closed pipe included)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from memkit.agents import EVENTS


def serve(argv: list[str] | None, handler: Callable[[str, bytes], tuple[str, str]]) -> int:
    """Read the payload, run `handler(event, payload)`, print what it gives. Exit 0 always,
    even when the reader closes stdout or stderr before the hook is done writing."""
    args = sys.argv[1:] if argv is None else argv
    try:
        if len(args) != 1 or args[0] not in EVENTS:
            print(f"usage: memkit-hook {{{','.join(EVENTS)}}}", file=sys.stderr, flush=True)
            return 0
        out, err = handler(args[0], sys.stdin.buffer.read())
        if out:
            print(out, flush=True)
        if err:
            print(err, file=sys.stderr, flush=True)
    except BrokenPipeError:
        from memkit.errors import stdout_closed

        stdout_closed()
    return 0
