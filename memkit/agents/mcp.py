"""`memkit mcp`: the store served to agents over MCP (stdio), with the official SDK.

The one module that imports the MCP SDK. Each tool is a thin wrapper over one function
of memkit.agents.tools (get_memory over Store.get); a MemkitError becomes an error
result carrying the same message as the CLI. Tools run in worker threads: every write
holds the store's lock, so concurrent calls are safe. Logs go to stderr; stdout is the
protocol, and a line on stdin that is not JSON-RPC gets an error reply.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from memkit.agents.tools import find, for_files, forget, save, stale, update, verify
from memkit.errors import MemkitError
from memkit.store import Store

INSTRUCTIONS = (
    "memkit holds this project's memories: decisions, conventions, gotchas and procedures "
    "reviewed in git. Before changing files, call memories_for_files with their paths. "
    "When you learn something the next person must know, save it with save_memory, "
    "linked to the files or symbols it is about. What you save is a draft, and a change "
    "to a reviewed memory is a proposed revision: a person approves either before it "
    "becomes authority."
)
PARSE_ERROR, INVALID_REQUEST = -32700, -32600


def build_server(store: Store, clock: Callable[[], dt.date]) -> Any:
    """An MCPServer whose tools call the functions of memkit.agents.tools."""
    from mcp.server.mcpserver import MCPServer

    from memkit import __version__

    server = MCPServer(
        "memkit", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    tool = _tool_decorator(server)

    def call(fn: Callable[[], object]) -> Any:
        """The tool result: JSON or text; a MemkitError's message as an error result."""
        from mcp.types import CallToolResult, TextContent

        try:
            value = fn()
        except MemkitError as e:
            return CallToolResult(content=[TextContent(type="text", text=str(e))], is_error=True)
        if isinstance(value, str):
            return CallToolResult(content=[TextContent(type="text", text=value)])
        text = json.dumps(value, indent=2, ensure_ascii=False)
        structured = value if isinstance(value, dict) else {"result": value}
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=structured
        )

    @tool
    def get_memory(id: str) -> Any:
        """One memory by id: its fields and markdown body."""
        return call(lambda: store.get(id).to_record())

    @tool
    def save_memory(
        title: str,
        body: str,
        type: str = "note",
        links: list[str] | None = None,
        paths: list[str] | None = None,
        tags: list[str] | None = None,
        confidence: str | None = None,
        source: str | None = None,
    ) -> Any:
        """Save something learned, for the next person: a one-line title, a markdown body,
        a type (decision, convention, gotcha, procedure, episode, preference, note), the
        files or `file.py::Symbol` it describes (links) and the globs it applies to
        (paths). Saved as a draft a person reviews."""

        def run() -> dict[str, Any]:
            mem = save(
                store,
                title=title,
                body=body,
                today=clock(),
                type=type,
                tags=tags,
                paths=paths,
                links=links,
                confidence=confidence,
                source=source,
            )
            return mem.to_record()

        return call(run)

    @tool
    def update_memory(
        id: str,
        title: str | None = None,
        body: str | None = None,
        type: str | None = None,
        status: str | None = None,
        links: list[str] | None = None,
        paths: list[str] | None = None,
        tags: list[str] | None = None,
        confidence: str | None = None,
    ) -> Any:
        """Change some fields of a memory; fields left out stay as they are. Your own
        drafts change in place. A reviewed memory is left as it is: the change is saved
        as a new draft whose `revises` names it (a proposed revision, returned here; update
        that draft for further changes), which a person approves."""
        changes: dict[str, Any] = dict(
            title=title,
            body=body,
            type=type,
            status=status,
            confidence=confidence,
            links=links,
            paths=paths,
            tags=tags,
        )
        return call(lambda: update(store, id, today=clock(), **changes).to_record())

    @tool
    def search_memories(
        query: str, limit: int = 10, type: str | None = None, tag: str | None = None
    ) -> Any:
        """Find memories by words, "phrases" or field:value (tag:, type:); best first,
        stale ones marked."""
        return call(lambda: find(store, query, today=clock(), limit=limit, type=type, tag=tag))

    @tool
    def memories_for_files(
        files: list[str], query: str | None = None, budget_tokens: int = 2000
    ) -> Any:
        """The memories about files you are about to read or change (paths relative to
        the project root), plus the best matches for `query`, within a token budget."""
        return call(
            lambda: for_files(store, files, today=clock(), query=query, budget_tokens=budget_tokens)
        )

    @tool
    def list_stale() -> Any:
        """Memories whose linked code changed since they were verified, expired ones, and
        ones due for review: check them against the code, then propose a fix with
        update_memory (a person re-verifies reviewed memories)."""
        return call(lambda: stale(store, today=clock()))

    @tool
    def verify_memory(ids: list[str]) -> Any:
        """Mark your own drafts as checked against the code as it is now (after reading
        it). Only a person re-verifies a reviewed memory."""
        return call(lambda: verify(store, ids, today=clock()))

    @tool
    def forget_memory(id: str) -> Any:
        """Forget a memory that is wrong or no longer useful. Your own draft is archived
        (or deleted if so configured), a proposed revision withdrawn; for a reviewed
        memory this proposes archiving it, for a person to approve."""
        return call(lambda: forget(store, id, today=clock()))

    return server


def _tool_decorator(server: Any) -> Callable[[Callable[..., Any]], Any]:
    """`server.tool()`, with every optional string parameter taking any string as it is.

    The SDK JSON-decodes a string argument whose annotation is not exactly `str`, so
    `str | None` turned `'[1, 2]'` or `'{"a": 1}'` into a list or dict (then refused
    as "not a valid string") and `'null'` into None (modelcontextprotocol/python-sdk
    #1873, #381). Annotated as `str` with a validator that lets None through, and the
    same JSON schema as `str | None`, they are never decoded.
    """
    from typing import Annotated

    from pydantic import WithJsonSchema, WrapValidator

    def none_or_str(value: Any, handler: Callable[[Any], Any]) -> Any:
        return None if value is None else handler(value)

    optional_str = Annotated[
        str,
        WrapValidator(none_or_str),
        WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "null"}]}),
    ]

    def register(fn: Callable[..., Any]) -> Any:
        fn.__annotations__ = {
            name: optional_str if ann in ("str | None", str | None) else ann
            for name, ann in fn.__annotations__.items()
        }
        return server.tool()(fn)

    return register


def serve(store: Store, clock: Callable[[], dt.date]) -> None:
    """Serve over stdio until the client closes the connection."""
    store.require()
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        raise MemkitError(
            "`memkit mcp` needs the MCP SDK 2.x: install it with `pip install 'agent-memkit[mcp]'`"
        ) from None
    import anyio

    anyio.run(serve_stdio, build_server(store, clock))


async def serve_stdio(server: Any) -> None:
    """MCPServer.run_stdio_async, except that a line that is not JSON-RPC gets an error
    reply with id null (-32700 when it is not JSON, -32600 otherwise; JSON-RPC 2.0
    section 5.1) and the session goes on. The SDK only logs such a line, which leaves
    a client waiting for an answer that never comes."""
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    async with stdio_server() as (read, write):
        forward, messages = anyio.create_memory_object_stream[Any](0)

        async def sort() -> None:
            async with forward:
                async for item in read:
                    if not isinstance(item, Exception):
                        await forward.send(item)
                        continue
                    reply = error_reply(item)
                    if reply is not None:
                        await write.send(SessionMessage(reply))

        lowlevel = server._lowlevel_server  # what run_stdio_async serves; no public name
        async with anyio.create_task_group() as tg:
            tg.start_soon(sort)
            await lowlevel.run(messages, write, lowlevel.create_initialization_options())
            tg.cancel_scope.cancel()


def error_reply(error: Exception) -> Any:
    """The JSON-RPC error for a line the transport could not read; None for a blank line."""
    from mcp_types import ErrorData, JSONRPCError

    details = error.errors() if hasattr(error, "errors") else []
    first = details[0] if details else {}
    if first.get("type") == "json_invalid" and not str(first.get("input", "x")).strip():
        return None
    if details and first.get("type") != "json_invalid":
        error_data = ErrorData(code=INVALID_REQUEST, message="Invalid Request: not JSON-RPC 2.0")
    else:
        error_data = ErrorData(code=PARSE_ERROR, message="Parse error: the line is not JSON")
    return JSONRPCError(jsonrpc="2.0", id=None, error=error_data)
