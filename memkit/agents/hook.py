"""`memkit-hook EVENT`: the Claude Code hooks' entry point, light enough for every tool call.

Claude Code runs a hook as a new process on every tool call, prompt and session
start, so this module imports only the standard library and the light handlers of
memkit.agents.fasthook (which read the point-of-action index); Stop, SessionEnd and
a SessionStart that must read the store go to the full handlers (memkit.agents.claude).
Whatever happens, the exit code is 0 and stderr holds at most one line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from memkit.agents import EVENTS


def run(event: str, raw: bytes) -> tuple[str, str]:
    """(stdout, stderr) of one hook call, as memkit.agents.claude.handle gives them."""
    from memkit.agents import fasthook
    from memkit.agents.payload import HookInputError, one_line, parse_payload

    if event in fasthook.HANDLERS or event == "session-start":
        try:
            payload = parse_payload(raw)
            if event == "post-tool-use":
                out, said = fasthook.post_tool_use(payload)
                if out or not said:
                    return out, ""
                return "", f"memkit hook {event}: {one_line(said)}"
            if event in fasthook.HANDLERS:
                return fasthook.HANDLERS[event](payload), ""
            got = fasthook.session_start(payload)
            if got is not None:
                return got, ""
        except HookInputError as e:
            return "", f"memkit hook {event}: {one_line(str(e))}"
        except Exception as e:
            return "", f"memkit hook {event}: {one_line(str(e) or type(e).__name__)}"
    from memkit.agents.claude import handle
    from memkit.clock import today

    return handle(event, raw, today)


def main(argv: list[str] | None = None) -> int:
    """`memkit-hook EVENT` (or `python -m memkit.agents.hook EVENT`)."""
    return serve(argv, run)


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


if __name__ == "__main__":
    sys.exit(main())
