"""`memkit mcp`: the store served to agents over MCP (stdio), with the official SDK.

The one module that imports the MCP SDK. Each tool is a thin wrapper over a function
of memkit.agents.mcp.tools; a MemkitError becomes an error result carrying the CLI's
message. Each stdin line is screened first (memkit.agents.mcp.jsonrpc); the project is
found as memkit.agents.mcp.roots says. Tools run in worker threads; logs go to stderr.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from memkit.agents.mcp import jsonrpc, roots, tools
from memkit.controls import for_agent, for_agent_data
from memkit.errors import MemkitError
from memkit.memory import CONFIDENCES, STATUSES, TYPES, Memory

try:
    import anyio
    from mcp import MCPError
    from mcp.server import Server
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.tools import Tool
    from mcp.types import CallToolResult, TextContent, ToolAnnotations
    from pydantic import ValidationError, WithJsonSchema, WrapValidator
except ImportError:
    from memkit.install import pip_line

    raise MemkitError(
        f"`memkit mcp` needs the MCP SDK 2.x: install memkit's `mcp` extra: {pip_line('mcp')}"
    ) from None


def _none_or_str(value: Any, handler: Callable[[Any], Any]) -> Any:
    return None if value is None else handler(value)


# The annotations the SDK reads (it resolves them in this module): enums for the
# enum-valued arguments, and OptionalStr for an optional string. The SDK JSON-decodes a
# string argument whose annotation is not exactly `str`, so `str | None` turned
# `'[1, 2]'` or `'{"a": 1}'` into a list or dict (then refused as "not a valid
# string") and `'null'` into None (modelcontextprotocol/python-sdk #1873, #381).
# Annotated as `str` with a validator that lets None through, and the same JSON schema
# as `str | None`, it is never decoded. Enums (`Literal`) are not decoded either.
if TYPE_CHECKING:
    MemoryType: TypeAlias = str
    Confidence: TypeAlias = str
    AgentStatus: TypeAlias = str
    OptionalStr: TypeAlias = str | None
else:
    MemoryType = Literal[TYPES]
    Confidence = Literal[CONFIDENCES]
    AgentStatus = Literal[STATUSES]
    _STR_OR_NULL = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    OptionalStr = Annotated[str, WrapValidator(_none_or_str), WithJsonSchema(_STR_OR_NULL)]


class _Tools:
    """The tools, one method each: the SDK takes its arguments from the signature and
    its description from the docstring."""

    def __init__(self, project: roots.Project, clock: Callable[[], dt.date]) -> None:
        self.project, self.clock = project, clock

    async def call(
        self, ctx: Context, fn: Callable[..., object], *args: Any, **kw: Any
    ) -> CallToolResult:
        """What `fn(store, *args, today=the clock's date, **kw)` returns: JSON or text; a
        MemkitError's message as an error result."""
        try:
            store = await self.project.get(ctx)
        except MemkitError as e:
            return _result(e)

        def run() -> CallToolResult:
            try:
                return _result(fn(store, *args, today=self.clock(), **kw))
            except MemkitError as e:
                return _result(e)

        return await anyio.to_thread.run_sync(run)

    async def get_memory(self, id: str, ctx: Context) -> CallToolResult:
        """One memory by id: its fields and markdown body."""
        return await self.call(ctx, lambda store, today: store.get(id))

    async def save_memory(
        self,
        title: str,
        body: str,
        ctx: Context,
        type: MemoryType = "note",
        links: list[str] | None = None,
        paths: list[str] | None = None,
        tags: list[str] | None = None,
        confidence: Confidence | None = None,
        source: OptionalStr = None,
    ) -> CallToolResult:
        """Save something learned, for the next person: a one-line title, a markdown body,
        a type, the files or `file.py::Symbol` it describes (links: each must exist; they
        are fingerprinted so memkit tells when that code changes) and the globs it
        applies to (paths). Saved as a draft a person reviews."""
        fields: dict[str, Any] = dict(type=type, tags=tags, paths=paths, links=links)
        fields |= dict(title=title, body=body, confidence=confidence, source=source)
        return await self.call(ctx, tools.save, **fields)

    async def update_memory(
        self,
        id: str,
        ctx: Context,
        title: OptionalStr = None,
        body: OptionalStr = None,
        type: MemoryType | None = None,
        status: AgentStatus | None = None,
        links: list[str] | None = None,
        paths: list[str] | None = None,
        tags: list[str] | None = None,
        confidence: Confidence | None = None,
    ) -> CallToolResult:
        """Change some fields of a memory; fields left out stay as they are. Your own
        drafts change in place. A reviewed memory is left as it is: the change is saved
        as a new draft whose `revises` names it (a proposed revision, returned here; update
        that draft for further changes), which a person approves."""
        changes: dict[str, Any] = dict(title=title, body=body, type=type, status=status)
        changes |= dict(confidence=confidence, links=links, paths=paths, tags=tags)
        return await self.call(ctx, tools.update, id, **changes)

    async def search_memories(
        self,
        query: str,
        ctx: Context,
        limit: int = 10,
        type: MemoryType | None = None,
        tag: OptionalStr = None,
    ) -> CallToolResult:
        """Find memories by words, "phrases" or field:value (tag:, type:); best first,
        stale ones marked."""
        return await self.call(ctx, tools.find, query, limit=limit, type=type, tag=tag)

    async def memories_for_files(
        self, files: list[str], ctx: Context, query: OptionalStr = None, budget_tokens: int = 2000
    ) -> CallToolResult:
        """The memories about files you are about to read or change (paths relative to
        the project root), plus the best matches for `query`, within a token budget."""
        return await self.call(
            ctx, tools.for_files, files, query=query, budget_tokens=budget_tokens
        )

    async def list_stale(self, ctx: Context) -> CallToolResult:
        """Memories needing attention, each with the reason: linked code changed since
        they were verified, expired, due for review, or never verified. Check them against
        the code, then propose a fix with update_memory (a person re-verifies reviewed
        memories)."""
        return await self.call(ctx, tools.stale)

    async def verify_memory(self, ids: list[str], ctx: Context) -> CallToolResult:
        """Mark your own drafts as checked against the code as it is now (after reading
        it). Only a person re-verifies a reviewed memory."""
        return await self.call(ctx, tools.verify, ids)

    async def forget_memory(self, id: str, ctx: Context) -> CallToolResult:
        """Forget a memory that is wrong or no longer useful. Your own draft is archived
        (or deleted if so configured), a proposed revision withdrawn; for a reviewed
        memory this proposes archiving it, for a person to approve."""
        return await self.call(ctx, tools.forget, id)


def _result(value: object) -> CallToolResult:
    """The tool's answer; every string in it escaped for the agent (controls.for_agent)."""
    if isinstance(value, MemkitError):
        return _error(for_agent(str(value), lines=True))
    if isinstance(value, Memory):
        value = value.to_record()
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


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def build_server(project: roots.Project, clock: Callable[[], dt.date]) -> MCPServer:
    """An MCPServer holding memkit's tools (TOOLS), each with its title, hints and
    output schema. The schema is published as it is, not derived from the method's
    return type: the SDK's hand-built metadata, which it advertises without validating."""
    from memkit import __version__

    methods = _Tools(project, clock)
    made = []
    for name, spec in tools.TOOLS.items():
        hints = ToolAnnotations(
            title=spec.title,
            read_only_hint=spec.read_only,
            destructive_hint=None if spec.read_only else spec.destructive,  # none to destroy
            idempotent_hint=spec.idempotent,
            open_world_hint=False,
        )
        tool = Tool.from_function(
            getattr(methods, name), title=spec.title, annotations=hints, structured_output=False
        )
        tool.fn_metadata.output_schema = spec.output_schema
        made.append(tool)
    return MCPServer(
        "memkit",
        version=__version__,
        instructions=tools.INSTRUCTIONS,
        log_level="WARNING",
        tools=made,
    )


def lowlevel(app: MCPServer) -> Server[Any]:
    """The low-level server answering for `app` on the wire, as MCPServer's own does,
    except that arguments failing validation get one clear line (jsonrpc.errors_line).
    memkit has no resources or prompts: it lists none and answers as MCPServer would
    for one asked by name."""
    import logging

    import mcp.types as t
    from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
    from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler

    async def call_tool(ctx: Any, params: t.CallToolRequestParams) -> Any:
        context = Context(request_context=ctx, mcp_server=app, input_params=params)
        try:
            return await app.call_tool(params.name, params.arguments or {}, context)
        except MCPError:
            raise
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                why = jsonrpc.errors_line(e.__cause__.errors())
                return _error(f"invalid arguments for {params.name}: {why}")
            return _error(str(e))
        except Exception as e:
            logging.getLogger(__name__).exception("tool %r raised", params.name)
            return _error(str(e))

    async def list_tools(ctx: Any, params: Any) -> t.ListToolsResult:
        return t.ListToolsResult(tools=await app.list_tools())

    async def read_resource(ctx: Any, params: t.ReadResourceRequestParams) -> Any:
        uri = str(params.uri)
        raise MCPError(code=t.INVALID_PARAMS, message=f"Unknown resource: {uri}", data={"uri": uri})

    async def get_prompt(ctx: Any, params: t.GetPromptRequestParams) -> Any:
        raise ValueError(f"Unknown prompt: {params.name}")

    server: Server[Any] = Server(
        app.name,
        version=app.version,
        instructions=app.instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=_answer(t.ListResourcesResult(resources=[])),
        on_read_resource=read_resource,
        on_list_resource_templates=_answer(t.ListResourceTemplatesResult(resource_templates=[])),
        on_list_prompts=_answer(t.ListPromptsResult(prompts=[])),
        on_get_prompt=get_prompt,
        on_subscriptions_listen=ListenHandler(InMemorySubscriptionBus()),
    )
    security = RequestStateSecurity.ephemeral()
    server.middleware.append(RequestStateBoundary(security, default_audience=app.name))
    return server


def _answer(result: Any) -> Any:
    """A request handler that always answers `result`."""

    async def handler(ctx: Any, params: Any) -> Any:
        return result

    return handler


def serve(root: Path | None, clock: Callable[[], dt.date]) -> None:
    """Serve over stdio until the client closes the connection.
    `root` is the explicit `--root` (MEMKIT_ROOT); without it the project is found as
    memkit.agents.mcp.roots says, at the first tool call if it takes the client's roots."""
    project = roots.Project(root, dict(os.environ), os.getcwd())
    anyio.run(serve_stdio, lowlevel(build_server(project, clock)))


async def serve_stdio(server: Server[Any]) -> None:
    """What MCPServer.run_stdio_async does, except that each line is screened first
    (memkit.agents.mcp.jsonrpc.screen): one the SDK would drop (not JSON, not JSON-RPC, an
    id that is an object, a fraction, a boolean or null) or answer without its id
    (params that are not an object) gets memkit's error reply, and the session goes on."""
    import sys
    from io import TextIOWrapper

    import mcp_types
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    adapter = mcp_types.jsonrpc_message_adapter

    def validate(obj: Any) -> Any:
        try:
            adapter.validate_python(obj, by_name=False)
        except ValidationError as e:
            return e.errors()
        return []

    send_reply, pending = anyio.create_memory_object_stream[dict[str, Any]](64)
    stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    lines = jsonrpc.screened(stdin, validate, send_reply.send)
    async with stdio_server(stdin=lines) as (read, write):  # type: ignore[arg-type]

        async def answer() -> None:
            async for reply in pending:
                await write.send(SessionMessage(adapter.validate_python(reply)))

        async with anyio.create_task_group() as tg:
            tg.start_soon(answer)
            await server.run(read, write, server.create_initialization_options())
            tg.cancel_scope.cancel()
