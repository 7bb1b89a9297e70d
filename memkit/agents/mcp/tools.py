"""What agents may do with the store through memkit's MCP tools, as plain functions.

They take the store and the date and know nothing of MCP; a MemkitError's message is
what the agent sees. Agents write drafts only (memkit.agents.proposals). TOOLS says what
clients are told of each tool, INSTRUCTIONS what of the server.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from memkit import memory as mm
from memkit.agents import proposals
from memkit.errors import MemkitError
from memkit.store import Store

FORGET_MODES = ("archive", "delete")
INSTRUCTIONS = (
    "memkit holds this project's memories: decisions, conventions, gotchas and procedures "
    "reviewed in git. Before changing files, call memories_for_files with their paths. "
    "When you learn something the next person must know, save it with save_memory, "
    "linked to the files or symbols it is about. What you save is a draft, and a change "
    "to a reviewed memory is a proposed revision: a person approves either before it "
    "becomes authority."
)


@dataclass(frozen=True)
class ToolSpec:
    """What a client is told about an MCP tool besides its arguments: its title, its
    behaviour hints and the JSON schema of its structured result."""

    title: str
    read_only: bool
    destructive: bool
    idempotent: bool
    output_schema: dict[str, Any]


_RECORD: dict[str, Any] = {"type": "object", "additionalProperties": True}
_LIST, _TEXT = (
    {"type": "object", "properties": {"result": schema}, "required": ["result"]}
    for schema in ({"type": "array", "items": _RECORD}, {"type": "string"})
)
# Tool name -> its spec, in the order clients list the tools.
TOOLS: dict[str, ToolSpec] = {
    "get_memory": ToolSpec("Get a memory", True, False, True, _RECORD),
    "save_memory": ToolSpec("Save a memory (as a draft)", False, False, False, _RECORD),
    "update_memory": ToolSpec("Change a draft or propose a revision", False, True, False, _RECORD),
    "search_memories": ToolSpec("Search memories", True, False, True, _LIST),
    "memories_for_files": ToolSpec("Memories about files", True, False, True, _TEXT),
    "list_stale": ToolSpec("Memories needing attention", True, False, True, _LIST),
    "verify_memory": ToolSpec("Mark own drafts verified", False, False, True, _LIST),
    "forget_memory": ToolSpec("Forget a memory (or propose it)", False, True, False, _TEXT),
}


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
    """Add a draft memory (agents write nothing else), its links checked and
    fingerprinted as `memkit add --link` does (a missing file or symbol is refused)."""
    store.require()
    fields: dict[str, Any] = dict(type=type, status=proposals.AGENT_STATUS, source=source)
    fields |= dict(tags=tags or None, paths=paths or None, links=links or None)
    mem = mm.new(title, body, mid=mm.slugify(title), today=today, confidence=confidence, **fields)
    if mem.links:
        import dataclasses

        from memkit.staleness import fingerprint

        mem = dataclasses.replace(mem, verified=fingerprint(store.root, mem.links, today=today))
    return proposals.save_draft(store, mem)


def update(store: Store, mid: str, *, today: dt.date, **changes: Any) -> mm.Memory:
    """Change the given fields (None = leave as is) of a draft in place, or propose a
    revision of a reviewed memory; validated like a file edit. Returns what was written."""
    values = {k: v for k, v in changes.items() if v is not None}
    if "body" in values:
        values["body"] = mm.format_body(values["body"])
    for key in ("tags", "paths", "links"):
        if key in values:
            values[key] = tuple(values[key])
    if values.get("links"):
        try:
            values["links"] = mm.written_links(values["links"])
        except ValueError as e:
            raise MemkitError(f"memory {mid!r}: {e}; nothing was changed") from None
        from memkit.staleness import fingerprint

        values["verified"] = fingerprint(store.root, values["links"], today=today)
    return proposals.propose(store, mid, today=today, **values)


def forget(store: Store, mid: str, *, today: dt.date) -> str:
    """Forget a draft (archived, or deleted as `[memories] forget` says), withdraw a
    proposed revision, or propose archiving a reviewed memory; returns what was done."""
    mode = store.config.get("memories", "forget", "archive")
    if mode not in FORGET_MODES:
        raise MemkitError(
            f"{store.config.path or '.memory/config.toml'}: [memories] forget = {mode!r}; "
            f"use one of: {', '.join(FORGET_MODES)}"
        )
    return proposals.forget(store, mid, today=today, delete=mode == "delete")


def find(
    store: Store,
    query: str,
    *,
    today: dt.date,
    limit: int = 10,
    type: str | None = None,
    tag: str | None = None,
) -> list[dict[str, Any]]:
    """Ranked hits for `query` among active memories, stale ones marked (the server
    refuses a `type` that is not one of memkit's before this is called)."""
    from memkit.search import search as run
    from memkit.search.rank import staleness_checker

    types, tags = (type,) if type else (), (tag,) if tag else ()
    statuses = staleness_checker(store, today=today)
    hits = run(store, query, today=today, limit=limit, types=types, tags=tags, statuses=statuses)
    return [h.to_record() for h in hits]


def for_files(
    store: Store,
    files: list[str],
    *,
    today: dt.date,
    query: str | None = None,
    budget_tokens: int = 2000,
) -> str:
    """Markdown of the memories about `files` (and the best hits for `query`)."""
    if not files and not query:
        raise MemkitError("give at least one file or a query")
    from memkit.search.context import build_context
    from memkit.search.rank import staleness_checker

    statuses = staleness_checker(store, today=today)
    ctx = build_context(
        store,
        files=files,
        query=query or None,
        budget_tokens=budget_tokens,
        today=today,
        statuses=statuses,
    )
    return str(ctx.to_markdown()) or "No memories about these files."


REASONS = {
    "stale": "its linked code changed since it was verified",
    "expired": "its `expires` date has passed",
    "review-due": "its `review_after` date has passed",
    "unverified": "its links were never fingerprinted, so memkit cannot tell when the "
    "code changes: check it, then verify it",
}


def stale(store: Store, *, today: dt.date) -> list[dict[str, Any]]:
    """Memories needing attention (ATTENTION_STATES): their code changed, they expired,
    are due for review or were never verified; each with the reason."""
    from memkit.staleness import check_store
    from memkit.staleness.verdict import ATTENTION_STATES

    statuses = check_store(store, today=today)
    return [
        {**s.to_record(), "reason": REASONS.get(s.state, s.state)}
        for s in statuses
        if s.state in ATTENTION_STATES
    ]


def verify(store: Store, ids: list[str], *, today: dt.date) -> list[dict[str, Any]]:
    """Record that the agent's own drafts were checked against the code as it is now.
    Only a person re-verifies a reviewed memory (`memkit verify ID`)."""
    if not ids:
        raise MemkitError("give the ids of the memories to mark verified")
    from memkit.staleness import verify as run

    for mem in store.get_many(ids):  # all must exist, and be drafts, before any is touched
        if not proposals.is_proposal(mem):
            raise proposals.NotAProposalError(
                f"{mem.id!r} is {mem.status}: only a person re-verifies a reviewed memory "
                f"(`memkit verify {mem.id}`); if it is wrong, propose a change with "
                "update_memory"
            )
    return [m.to_record() for m in run(store, ids, today=today)]  # it holds the store lock
