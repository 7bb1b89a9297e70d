"""`memkit mcp`: the store served to agents over MCP (stdio), with the official SDK.

The one module that imports the MCP SDK. Each tool is a thin wrapper over one function
of memkit.agents.tools (get_memory over Store.get), with a title, behaviour hints
(read-only, destructive, idempotent), enums for enum-valued arguments and an output
schema; a MemkitError becomes an error result carrying the same message as the CLI.
The project is found as memkit.agents.roots says (explicit root, the agent's
environment, the client's roots, the working directory), at the first tool call when
it takes the client's roots. Tools run in worker threads: every write holds the
store's lock, so concurrent calls are safe. Logs go to stderr; stdout is the protocol,
and a line on stdin the SDK would drop or answer without its id gets a JSON-RPC error
(memkit.agents.jsonrpc).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from memkit.agents import jsonrpc, roots
from memkit.agents.tools import find, for_files, forget, save, stale, update, verify
from memkit.controls import for_agent, for_agent_data
from memkit.errors import MemkitError
from memkit.store import Store

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context

# Enum-valued arguments: plain strings to type checkers; _tool_decorator gives the SDK
# a Literal of the allowed values for each, so clients see an enum.
MemoryType: TypeAlias = str
Confidence: TypeAlias = str
AgentStatus: TypeAlias = str

INSTRUCTIONS = (
    "memkit holds this project's memories: decisions, conventions, gotchas and procedures "
    "reviewed in git. Before changing files, call memories_for_files with their paths. "
    "When you learn something the next person must know, save it with save_memory, "
    "linked to the files or symbols it is about. What you save is a draft, and a change "
    "to a reviewed memory is a proposed revision: a person approves either before it "
    "becomes authority."
)
_RECORD = {"type": "object", "additionalProperties": True}
_LIST = {
    "type": "object",
    "properties": {"result": {"type": "array", "items": _RECORD}},
    "required": ["result"],
}
_TEXT = {
    "type": "object",
    "properties": {"result": {"type": "string"}},
    "required": ["result"],
}
# name -> (title, read only, destructive, idempotent, output schema)
TOOLS: dict[str, tuple[str, bool, bool, bool, dict[str, Any]]] = {
    "get_memory": ("Get a memory", True, False, True, _RECORD),
    "search_memories": ("Search memories", True, False, True, _LIST),
    "memories_for_files": ("Memories about files", True, False, True, _TEXT),
    "list_stale": ("Memories needing attention", True, False, True, _LIST),
    "save_memory": ("Save a memory (as a draft)", False, False, False, _RECORD),
    "update_memory": ("Change a draft or propose a revision", False, True, False, _RECORD),
    "verify_memory": ("Mark own drafts verified", False, False, True, _LIST),
    "forget_memory": ("Forget a memory (or propose it)", False, True, False, _TEXT),
}


def build_server(project: roots.Project | Store, clock: Callable[[], dt.date]) -> Any:
    """An MCPServer whose tools call the functions of memkit.agents.tools."""
    import anyio

    from memkit import __version__

    if isinstance(project, Store):
        fixed = project
        project = roots.Project.__new__(roots.Project)
        project.store, project.tried, project.cwd = fixed, [], str(fixed.root)
    server = _Server("memkit", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    tool = _tool_decorator(server)

    async def call(ctx: Any, fn: Callable[[Store], object]) -> Any:
        """The tool result: JSON or text; a MemkitError's message as an error result."""
        try:
            store = await project.get(ctx)
        except MemkitError as e:
            return _result(e)
        return await anyio.to_thread.run_sync(lambda: _result(_run(fn, store)))

    @tool
    async def get_memory(id: str, ctx: Context) -> Any:
        """One memory by id: its fields and markdown body."""
        return await call(ctx, lambda store: store.get(id).to_record())

    @tool
    async def save_memory(
        title: str,
        body: str,
        ctx: Context,
        type: MemoryType = "note",
        links: list[str] | None = None,
        paths: list[str] | None = None,
        tags: list[str] | None = None,
        confidence: Confidence | None = None,
        source: str | None = None,
    ) -> Any:
        """Save something learned, for the next person: a one-line title, a markdown body,
        a type, the files or `file.py::Symbol` it describes (links: each must exist; they
        are fingerprinted so memkit tells when that code changes) and the globs it
        applies to (paths). Saved as a draft a person reviews."""

        def run(store: Store) -> dict[str, Any]:
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

        return await call(ctx, run)

    @tool
    async def update_memory(
        id: str,
        ctx: Context,
        title: str | None = None,
        body: str | None = None,
        type: MemoryType | None = None,
        status: AgentStatus | None = None,
        links: list[str] | None = None,
        paths: list[str] | None = None,
        tags: list[str] | None = None,
        confidence: Confidence | None = None,
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
        return await call(
            ctx, lambda store: update(store, id, today=clock(), **changes).to_record()
        )

    @tool
    async def search_memories(
        query: str,
        ctx: Context,
        limit: int = 10,
        type: MemoryType | None = None,
        tag: str | None = None,
    ) -> Any:
        """Find memories by words, "phrases" or field:value (tag:, type:); best first,
        stale ones marked."""
        return await call(
            ctx, lambda store: find(store, query, today=clock(), limit=limit, type=type, tag=tag)
        )

    @tool
    async def memories_for_files(
        files: list[str], ctx: Context, query: str | None = None, budget_tokens: int = 2000
    ) -> Any:
        """The memories about files you are about to read or change (paths relative to
        the project root), plus the best matches for `query`, within a token budget."""
        return await call(
            ctx,
            lambda store: for_files(
                store, files, today=clock(), query=query, budget_tokens=budget_tokens
            ),
        )

    @tool
    async def list_stale(ctx: Context) -> Any:
        """Memories needing attention, each with the reason: linked code changed since
        they were verified, expired, due for review, or never verified. Check them against
        the code, then propose a fix with update_memory (a person re-verifies reviewed
        memories)."""
        return await call(ctx, lambda store: stale(store, today=clock()))

    @tool
    async def verify_memory(ids: list[str], ctx: Context) -> Any:
        """Mark your own drafts as checked against the code as it is now (after reading
        it). Only a person re-verifies a reviewed memory."""
        return await call(ctx, lambda store: verify(store, ids, today=clock()))

    @tool
    async def forget_memory(id: str, ctx: Context) -> Any:
        """Forget a memory that is wrong or no longer useful. Your own draft is archived
        (or deleted if so configured), a proposed revision withdrawn; for a reviewed
        memory this proposes archiving it, for a person to approve."""
        return await call(ctx, lambda store: forget(store, id, today=clock()))

    return server


def _run(fn: Callable[[Store], object], store: Store) -> object:
    try:
        return fn(store)
    except MemkitError as e:
        return e


def _result(value: object) -> Any:
    """The tool's answer; every string in it escaped for the agent (controls.for_agent)."""
    from mcp.types import CallToolResult, TextContent

    if isinstance(value, MemkitError):
        text = for_agent(str(value), lines=True)
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
    value = for_agent_data(value)
    structured: dict[str, Any]
    if isinstance(value, str):
        text, structured = value, {"result": value}
    else:
        text = json.dumps(value, indent=2, ensure_ascii=False)
        structured = value if isinstance(value, dict) else {"result": value}
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=structured
    )


def _server_class() -> Any:
    """MCPServer, except that arguments failing validation get one clear line."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    class Server(MCPServer):
        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as e:
                if isinstance(e.__cause__, ValidationError):
                    why = jsonrpc.one_line(e.__cause__.errors())
                    raise ToolError(f"invalid arguments for {name}: {why}") from None
                raise

    return Server


def _Server(*args: Any, **kwargs: Any) -> Any:
    return _server_class()(*args, **kwargs)


def _tool_decorator(server: Any) -> Callable[[Callable[..., Any]], Any]:
    """`server.tool()` with memkit's metadata (TOOLS), enums for enum-valued arguments,
    and every optional string parameter taking any string as it is.

    The SDK JSON-decodes a string argument whose annotation is not exactly `str`, so
    `str | None` turned `'[1, 2]'` or `'{"a": 1}'` into a list or dict (then refused
    as "not a valid string") and `'null'` into None (modelcontextprotocol/python-sdk
    #1873, #381). Annotated as `str` with a validator that lets None through, and the
    same JSON schema as `str | None`, they are never decoded. Enums (`Literal`) are
    not decoded either.
    """
    from typing import Annotated, Literal

    from mcp.server.mcpserver import Context
    from mcp.types import ToolAnnotations
    from pydantic import WithJsonSchema, WrapValidator

    from memkit.memory import CONFIDENCES, STATUSES, TYPES

    def none_or_str(value: Any, handler: Callable[[Any], Any]) -> Any:
        return None if value is None else handler(value)

    optional_str = Annotated[
        str,
        WrapValidator(none_or_str),
        WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "null"}]}),
    ]
    names: dict[str, Any] = {
        "Any": Any,
        "Context": Context,
        "MemoryType": Literal[TYPES],
        "Confidence": Literal[CONFIDENCES],
        "AgentStatus": Literal[STATUSES],
    }

    def resolve(ann: Any) -> Any:
        if not isinstance(ann, str):
            return ann
        if ann == "str | None":
            return optional_str
        return eval(ann, {}, names)  # memkit's own annotations, from the source above

    def register(fn: Callable[..., Any]) -> Any:
        fn.__annotations__ = {k: resolve(v) for k, v in fn.__annotations__.items()}
        title, read_only, destructive, idempotent, output = TOOLS[fn.__name__]
        hints = ToolAnnotations(
            title=title,
            read_only_hint=read_only,
            destructive_hint=None if read_only else destructive,
            idempotent_hint=idempotent,
            open_world_hint=False,
        )
        done = server.tool(title=title, annotations=hints, structured_output=False)(fn)
        server._tool_manager.get_tool(fn.__name__).fn_metadata.output_schema = output
        return done

    return register


def serve(root: Path | None, clock: Callable[[], dt.date]) -> None:
    """Serve over stdio until the client closes the connection.

    `root` is the explicit `--root` (MEMKIT_ROOT); without it the project is found as
    memkit.agents.roots says, at the first tool call if it takes the client's roots.
    """
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        from memkit.install import pip_line

        raise MemkitError(
            f"`memkit mcp` needs the MCP SDK 2.x: install memkit's `mcp` extra: {pip_line('mcp')}"
        ) from None
    import anyio

    project = roots.Project(root, dict(os.environ), os.getcwd())
    anyio.run(serve_stdio, build_server(project, clock))


async def serve_stdio(server: Any) -> None:
    """MCPServer.run_stdio_async, except that each line is screened first
    (memkit.agents.jsonrpc.screen): one the SDK would drop (not JSON, not JSON-RPC, an
    id that is an object, a fraction, a boolean or null) or answer without its id
    (params that are not an object) gets memkit's error reply, and the session goes on."""
    import sys
    from io import TextIOWrapper

    import anyio
    import mcp_types
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage
    from pydantic import ValidationError

    adapter = mcp_types.jsonrpc_message_adapter

    def validate(obj: Any) -> Any:
        try:
            adapter.validate_python(obj, by_name=False)
        except ValidationError as e:
            return e.errors()
        return []

    replies = anyio.create_memory_object_stream[dict[str, Any]](64)
    send_reply, pending = replies

    class Screened:
        def __init__(self, lines: Any) -> None:
            self.lines = lines

        async def __aiter__(self) -> Any:
            async for line in self.lines:
                reply = jsonrpc.screen(line, validate)
                if reply is None:
                    yield line
                elif reply:
                    await send_reply.send(reply)

    stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    async with stdio_server(stdin=Screened(stdin)) as (read, write):  # type: ignore[arg-type]

        async def answer() -> None:
            async for reply in pending:
                await write.send(SessionMessage(adapter.validate_python(reply)))

        lowlevel = server._lowlevel_server  # what run_stdio_async serves; no public name
        async with anyio.create_task_group() as tg:
            tg.start_soon(answer)
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
            tg.cancel_scope.cancel()
