"""`memkit mcp`: the store served to agents over MCP (stdio), with the official SDK.

Each tool is a thin wrapper over one core function below (or in context, search and
staleness); those functions take the store and the date and know nothing of MCP.
A MemkitError becomes an error result carrying the same message as the CLI. Tools
run in worker threads: writes go through the store's lock or its exclusive
create, so concurrent calls are safe. Logs go to stderr; stdout is the protocol.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from memkit import memory as mm
from memkit.errors import MemkitError
from memkit.session_draft import agent_status
from memkit.store import Store

FORGET_MODES = ("archive", "delete")
INSTRUCTIONS = (
    "memkit holds this project's memories: decisions, conventions, gotchas and procedures "
    "reviewed in git. Before changing files, call memories_for_files with their paths. "
    "When you learn something the next person must know, save it with save_memory, "
    "linked to the files or symbols it is about; a person reviews it before it becomes "
    "authority."
)


def save(
    store: Store,
    *,
    title: str,
    body: str,
    today: dt.date,
    type: str = "note",
    tags: list[str] | None = None,
    paths: list[str] | None = None,
    links: list[str] | None = None,
    confidence: str | None = None,
    source: str | None = None,
) -> mm.Memory:
    """Add a memory with the status agents get (`[memories] agent_status`, default draft)."""
    store.require()
    mem = mm.new(
        title,
        body,
        mid=mm.slugify(title),
        today=today,
        type=type,
        status=agent_status(store),
        tags=tags or None,
        paths=paths or None,
        links=links or None,
        confidence=confidence,
        source=source,
    )
    return store.add(mem)


def update(store: Store, mid: str, *, today: dt.date, **changes: Any) -> mm.Memory:
    """Change the given fields (None = leave as is); validated like a file edit."""
    values = {k: v for k, v in changes.items() if v is not None}
    if values.get("status") == "active" and agent_status(store) != "active":
        raise MemkitError(
            f"an agent cannot make {mid!r} active: a person reviews it first "
            '(set `[memories] agent_status = "active"` in .memory/config.toml to allow it)'
        )
    if "body" in values:
        values["body"] = mm.format_body(values["body"])
    for key in ("tags", "paths", "links"):
        if key in values:
            values[key] = tuple(values[key])
    return store.update(mid, today=today, **values)


def forget(store: Store, mid: str, *, today: dt.date) -> str:
    """Archive or delete a memory, as `[memories] forget` says; returns what was done."""
    mode = store.config.get("memories", "forget", "archive")
    if mode not in FORGET_MODES:
        raise MemkitError(
            f"{store.config.path or '.memory/config.toml'}: [memories] forget = {mode!r}; "
            f"use one of: {', '.join(FORGET_MODES)}"
        )
    if mode == "delete":
        with store.lock():
            return f"deleted {store.delete(mid)}"
    mem = store.update(mid, today=today, status="archived")
    return f"archived {mem.path}"


def _record(mem: mm.Memory) -> dict[str, Any]:
    return mem.to_record()


def status_source(store: Store, today: dt.date) -> Callable[[list[str]], dict[str, Any]]:
    """The staleness verdict for given ids, for search and context to mark stale memories."""
    from memkit.staleness import check_store

    def of(ids: list[str]) -> dict[str, Any]:
        return {s.id: s for s in check_store(store, today=today, ids=ids)}

    return of


def search(
    store: Store, query: str, *, today: dt.date, limit: int = 10, type: str | None = None,
    tag: str | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """Ranked hits for `query` among active memories, stale ones marked."""
    if type is not None and type not in mm.TYPES:
        raise MemkitError(f"unknown type {type!r}; use one of: {', '.join(mm.TYPES)}")
    from memkit.search import search as run

    hits = run(
        store, query, today=today, limit=limit, types=(type,) if type else (),
        tags=(tag,) if tag else (), statuses=status_source(store, today),
    )  # fmt: skip
    return [h.to_record() for h in hits]


def for_files(
    store: Store, files: list[str], *, today: dt.date, query: str | None = None,
    budget_tokens: int = 2000,
) -> str:  # fmt: skip
    """Markdown of the memories about `files` (and the best hits for `query`)."""
    if not files and not query:
        raise MemkitError("give at least one file or a query")
    from memkit.context import build_context

    ctx = build_context(
        store, files=files, query=query or None, budget_tokens=budget_tokens, today=today,
        statuses=status_source(store, today),
    )  # fmt: skip
    return str(ctx.to_markdown()) or "No memories about these files."


def stale(store: Store, *, today: dt.date) -> list[dict[str, Any]]:
    """Memories whose code changed, that expired or are due for review."""
    from memkit.staleness import check_store

    statuses = check_store(store, today=today)
    return [s.to_record() for s in statuses if s.state in ("stale", "expired", "review-due")]


def verify(store: Store, ids: list[str], *, today: dt.date) -> list[dict[str, Any]]:
    """Record that the memories were checked against the code as it is now."""
    if not ids:
        raise MemkitError("give the ids of the memories to mark verified")
    from memkit.staleness import verify as run

    for mid in ids:
        store.path_of(mid)  # all must exist before any is touched
    return [m.to_record() for m in run(store, ids, today=today)]  # it holds the store lock


def build_server(store: Store, clock: Callable[[], dt.date]) -> Any:
    """An MCPServer whose tools call the functions of this module (and context/staleness)."""
    from mcp.server.mcpserver import MCPServer

    from memkit import __version__

    server = MCPServer(
        "memkit", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )

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

    @server.tool()
    def get_memory(id: str) -> Any:
        """One memory by id: its fields and markdown body."""
        return call(lambda: _record(store.get(id)))

    @server.tool()
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
        return call(
            lambda: _record(
                save(store, title=title, body=body, today=clock(), type=type, tags=tags,
                     paths=paths, links=links, confidence=confidence, source=source)
            )
        )  # fmt: skip

    @server.tool()
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
        """Change some fields of a memory; fields left out stay as they are."""
        changes = dict(title=title, body=body, type=type, status=status, confidence=confidence,
                       links=links, paths=paths, tags=tags)  # fmt: skip
        return call(lambda: _record(update(store, id, today=clock(), **changes)))

    @server.tool()
    def search_memories(
        query: str, limit: int = 10, type: str | None = None, tag: str | None = None
    ) -> Any:
        """Find memories by words, "phrases" or field:value (tag:, type:); best first,
        stale ones marked."""
        return call(lambda: search(store, query, today=clock(), limit=limit, type=type, tag=tag))

    @server.tool()
    def memories_for_files(
        files: list[str], query: str | None = None, budget_tokens: int = 2000
    ) -> Any:
        """The memories about files you are about to read or change (paths relative to
        the project root), plus the best matches for `query`, within a token budget."""
        return call(
            lambda: for_files(store, files, today=clock(), query=query, budget_tokens=budget_tokens)
        )

    @server.tool()
    def list_stale() -> Any:
        """Memories whose linked code changed since they were verified, expired ones, and
        ones due for review: check them against the code, then update or verify them."""
        return call(lambda: stale(store, today=clock()))

    @server.tool()
    def verify_memory(ids: list[str]) -> Any:
        """Mark memories as checked against the code as it is now (after reading it)."""
        return call(lambda: verify(store, ids, today=clock()))

    @server.tool()
    def forget_memory(id: str) -> Any:
        """Forget a memory that is wrong or no longer useful (archived, or deleted if so
        configured; git history keeps it)."""
        return call(lambda: forget(store, id, today=clock()))

    return server


def serve(store: Store, clock: Callable[[], dt.date]) -> None:
    """Serve over stdio until the client closes the connection."""
    store.require()
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        raise MemkitError(
            "`memkit mcp` needs the MCP SDK 2.x: install it with `pip install 'memkit[mcp]'`"
        ) from None
    build_server(store, clock).run("stdio")
