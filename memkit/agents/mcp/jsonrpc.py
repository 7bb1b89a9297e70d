"""The JSON-RPC 2.0 checks memkit's MCP server makes before the SDK sees a line.

The SDK reads a request whose id is an object, a fraction, a boolean or null as a
notification and never answers it, and replies to a request it cannot read with id
null even when the id was plain to see. `screen` decides, for one line of stdin,
whether it goes on to the SDK or gets an error reply, which this module builds as a
plain dict (JSON-RPC 2.0 section 5.1; MCP: an id is a string or an integer, never
null). No MCP import: memkit.agents.mcp.server hands it the SDK's validator.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

from memkit.controls import for_agent

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
Validator = Callable[[Any], Sequence[Mapping[str, Any]]]  # the errors; empty when valid


def reply(code: int, message: str, rid: str | int | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}


def valid_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def screen(line: str, validate: Validator) -> dict[str, Any] | None:
    """None: hand the line to the SDK. {}: ignore it (blank). Otherwise the error reply."""
    if not line.strip():
        return {}
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return reply(PARSE_ERROR, "Parse error: the line is not JSON")
    if not isinstance(obj, dict):
        return reply(INVALID_REQUEST, "Invalid Request: not JSON-RPC 2.0")
    if "id" in obj and not valid_id(obj["id"]):
        what = "null" if obj["id"] is None else type(obj["id"]).__name__
        if isinstance(obj["id"], float):
            what = "a fraction" if not obj["id"].is_integer() else "a number with a fraction part"
        return reply(
            INVALID_REQUEST, f"Invalid Request: id must be a string or an integer, not {what}"
        )
    rid = obj.get("id")
    errors = validate(obj)
    if not errors:
        return None
    if (
        "params" in obj
        and not isinstance(obj["params"], dict)
        and isinstance(obj.get("method"), str)
    ):
        kind = "an array" if isinstance(obj["params"], list) else type(obj["params"]).__name__
        return reply(INVALID_PARAMS, f"Invalid params: params must be an object, not {kind}", rid)
    return reply(INVALID_REQUEST, "Invalid Request: not JSON-RPC 2.0", rid)


async def screened(
    lines: AsyncIterable[str],
    validate: Validator,
    reply: Callable[[dict[str, Any]], Awaitable[None]],
) -> AsyncIterator[str]:
    """The lines the SDK may read; every other line gets its error `reply` (screen)."""
    async for line in lines:
        answer = screen(line, validate)
        if answer is None:
            yield line
        elif answer:
            await reply(answer)


def errors_line(errors: Sequence[Mapping[str, Any]], limit: int = 3) -> str:
    """Pydantic validation errors as one line for the agent (controls.for_agent):
    `limit: Input should be a valid integer`."""
    parts = []
    for err in errors[:limit]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "arguments") or "arguments"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    more = f" (and {len(errors) - limit} more)" if len(errors) > limit else ""
    return for_agent("; ".join(parts) + more)
