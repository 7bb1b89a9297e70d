"""`memkit-hook EVENT`: the Claude Code hooks' entry point, light enough for every tool call.

Claude Code runs a hook as a new process on every tool call, prompt and session
start, so this module imports only the standard library and the light handlers of
memkit.agents.hook_handlers (which read the point-of-action index); Stop and SessionEnd
go to memkit.agents.claude.
Whatever happens, the exit code is 0 and stderr holds at most one line.
"""

from __future__ import annotations

import sys

from memkit.agents.hookio import serve


def run(event: str, raw: bytes) -> tuple[str, str]:
    """(stdout, stderr) of one hook call, as memkit.agents.claude.handle gives them."""
    from memkit.agents import hook_handlers
    from memkit.agents.payload import HookInputError, one_line, parse_payload

    if event in hook_handlers.HANDLERS:
        try:
            payload = parse_payload(raw)
            if event == "post-tool-use":
                out, said = hook_handlers.post_tool_use(payload)
                if out or not said:
                    return out, ""
                return "", f"memkit hook {event}: {one_line(said)}"
            return hook_handlers.HANDLERS[event](payload), ""
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


if __name__ == "__main__":
    sys.exit(main())
