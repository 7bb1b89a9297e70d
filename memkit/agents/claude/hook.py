"""`memkit-hook EVENT`: the Claude Code hooks' entry point, light enough for every tool call.

Claude Code runs a hook as a new process on every tool call, prompt and session start.
`handle` reads the JSON payload and answers: PostToolUse appends to the session's
journal, and it, PreToolUse, UserPromptSubmit and SessionStart give memories through
memkit.agents.claude.handlers, importing only the standard library while the
point-of-action index holds; Stop and SessionEnd turn the journal into one draft
(memkit.agents.claude.drafts). A payload that is not what Claude Code sends gets one line
on stderr; the exit code is 0 whatever happens, and nothing is written.
"""

from __future__ import annotations

import json
import sys

from memkit.agents.claude import EVENTS, handlers
from memkit.agents.claude.payload import one_line, parse_payload

TYPE_CHECKING = False  # on every tool call: not even `typing`
if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable


def handle(
    event: str, raw: bytes | str, clock: Callable[[], dt.date] | None = None
) -> tuple[str, str]:
    """(stdout, stderr) of one hook call. Never raises: the agent must go on regardless.
    stderr is empty or one line, `memkit hook EVENT: why` (control characters escaped).
    `clock` gives today (memkit.clock.today when None)."""
    try:
        payload = parse_payload(raw)
        if event == "post-tool-use":
            out, said = handlers.post_tool_use(payload)
            if out:
                return out, ""
        elif event == "session-start":
            return handlers.session_start(payload, clock().isoformat() if clock else None), ""
        elif event == "pre-tool-use":
            return handlers.pre_tool_use(payload), ""
        elif event == "user-prompt-submit":
            return handlers.user_prompt_submit(payload), ""
        else:
            from memkit.agents.claude.drafts import stop
            from memkit.clock import today

            said = stop(payload, today=(clock or today)(), end=event == "session-end")
            if said.startswith("saved "):  # the first save: tell the person, once
                draft = said.removeprefix("saved ").split(" ")[0]
                note = f"memkit saved a draft of what this session did: {draft} (`memkit approve`)"
                return json.dumps({"systemMessage": note}), f"memkit hook {event}: {said}"
    except Exception as e:
        said = str(e) or type(e).__name__
    return "", f"memkit hook {event}: {one_line(said)}" if said else ""


def main(argv: list[str] | None = None) -> int:
    """`memkit-hook EVENT`: the payload on stdin, what `handle` gives on stdout and stderr.
    Exit 0 always, even when the reader closes stdout or stderr before the hook is done."""
    args = sys.argv[1:] if argv is None else argv
    try:
        if len(args) != 1 or args[0] not in EVENTS:
            print(f"usage: memkit-hook {{{','.join(EVENTS)}}}", file=sys.stderr, flush=True)
            return 0
        out, err = handle(args[0], sys.stdin.buffer.read())
        if out:
            print(out, flush=True)
        if err:
            print(err, file=sys.stderr, flush=True)
    except BrokenPipeError:
        from memkit.errors import stdout_closed

        stdout_closed()
    return 0
