"""`memkit mcp` through the MCP SDK's own client, over stdio, against a real process."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import git

from memkit.store import Store

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

Session = Callable[[Client], Awaitable[None]]


def serve(repo: Path, body: Session, **env: str) -> None:
    """Start `memkit mcp` in `repo` and run `body` with a connected client."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memkit", "mcp"],
        cwd=str(repo),
        env={"MEMKIT_TODAY": "2026-11-22", "HOME": os.environ["HOME"], **env}
        | {k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
    )

    async def main() -> None:
        async with Client(params, mode="legacy") as client:
            await body(client)

    anyio.run(main)


async def call(client: Client, tool: str, **args: Any) -> tuple[bool, Any]:
    """(is_error, JSON value or text) of one tool call."""
    result = await client.call_tool(tool, args)
    text = "".join(c.text for c in result.content if c.type == "text")
    if result.is_error:
        return True, text
    try:
        return False, json.loads(text)
    except ValueError:
        return False, text


def test_tools_are_listed(store: Store) -> None:
    names: list[str] = []

    async def body(client: Client) -> None:
        names.extend(sorted(t.name for t in (await client.list_tools()).tools))

    serve(store.root, body)
    assert names == [
        "forget_memory",
        "get_memory",
        "list_stale",
        "memories_for_files",
        "save_memory",
        "search_memories",
        "update_memory",
        "verify_memory",
    ]


def test_save_get_update_forget(store: Store) -> None:
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["saved"] = await call(
            client, "save_memory", title="Retry only idempotent requests", type="gotcha",
            body="A retried POST charged twice.", links=["src/http.py"], tags=["http"],
        )  # fmt: skip
        out["got"] = await call(client, "get_memory", id="retry-only-idempotent-requests")
        out["updated"] = await call(
            client, "update_memory", id="retry-only-idempotent-requests", confidence="high",
            body="A retried POST charged a customer twice.",
        )  # fmt: skip
        out["promote"] = await call(
            client, "update_memory", id="retry-only-idempotent-requests", status="active"
        )
        out["forget"] = await call(client, "forget_memory", id="retry-only-idempotent-requests")

    serve(store.root, body)
    error, saved = out["saved"]
    assert not error
    assert (saved["id"], saved["status"], saved["type"]) == (
        "retry-only-idempotent-requests", "draft", "gotcha"
    )  # fmt: skip
    assert out["got"][1]["body"] == "A retried POST charged twice."
    assert out["updated"][1]["confidence"] == "high"
    assert out["promote"] == (
        True,
        "an agent cannot make 'retry-only-idempotent-requests' active: a person reviews it "
        'first (set `[memories] agent_status = "active"` in .memory/config.toml to allow it)',
    )
    assert out["forget"] == (False, "archived .memory/retry-only-idempotent-requests.md")
    assert (store.dir / "retry-only-idempotent-requests.md").read_text() == (
        "---\n"
        "title: Retry only idempotent requests\n"
        "type: gotcha\n"
        "status: archived\n"
        "tags:\n- http\n"
        "links:\n- src/http.py\n"
        "created: 2026-11-22\n"
        "updated: 2026-11-22\n"
        "confidence: high\n"
        "---\n\n"
        "A retried POST charged a customer twice.\n"
    )


def test_errors_carry_the_cli_messages(store: Store) -> None:
    out: list[tuple[bool, Any]] = []

    async def body(client: Client) -> None:
        out.append(await call(client, "get_memory", id="missing"))
        out.append(await call(client, "save_memory", title="X", body="b", type="nope"))
        out.append(await call(client, "save_memory", title="X", body="b", links=["../etc"]))
        leak = "api_key = 'hunter2Xy9!Qz7#pLm'"  # memkit: allow-secret
        out.append(await call(client, "save_memory", title="Key", body=leak))

    serve(store.root, body)
    assert all(error for error, _ in out)
    assert "no memory with id 'missing' (see `memkit list`)" in out[0][1]
    assert "type: unknown value 'nope'; use one of: decision" in out[1][1]
    assert "links: link '../etc' escapes the repository" in out[2][1]
    assert "refusing to write what looks like a high-entropy value" in out[3][1]
    assert [p.name for p in store.files()] == []


def test_agent_status_and_forget_are_configurable(store: Store) -> None:
    (store.dir / "config.toml").write_text(
        '[memories]\nagent_status = "active"\nforget = "delete"\n'
    )
    out: list[tuple[bool, Any]] = []

    async def body(client: Client) -> None:
        out.append(await call(client, "save_memory", title="Use UTC", body="Always."))
        out.append(await call(client, "forget_memory", id="use-utc"))

    serve(store.root, body)
    assert out[0][1]["status"] == "active"
    assert out[1] == (False, "deleted .memory/use-utc.md")
    assert store.files() == []


def test_concurrent_saves(store: Store) -> None:
    async def body(client: Client) -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(6):
                tg.start_soon(partial(call, client, "save_memory", title="Same title", body="x"))

    serve(store.root, body)
    assert sorted(m.id for m in store.memories()) == [
        "same-title",
        *(f"same-title-{n}" for n in range(2, 7)),
    ]


def test_concurrent_updates_lose_nothing(store: Store) -> None:
    changes = [{"confidence": "high"}, {"type": "gotcha"}, {"tags": ["billing"]},
               {"paths": ["src/*.py"]}, {"links": ["src/a.py"]}, {"title": "Renamed"}]  # fmt: skip

    async def body(client: Client) -> None:
        await call(client, "save_memory", title="Target", body="x")
        async with anyio.create_task_group() as tg:
            for change in changes:
                tg.start_soon(partial(call, client, "update_memory", id="target", **change))

    serve(store.root, body)
    mem = store.get("target")
    assert (mem.title, mem.type, mem.confidence, mem.tags, mem.paths, mem.links) == (
        "Renamed", "gotcha", "high", ("billing",), ("src/*.py",), ("src/a.py",)
    )  # fmt: skip


def test_no_store_is_an_error(repo: Path) -> None:
    git(repo, "status")
    import subprocess

    out = subprocess.run([sys.executable, "-m", "memkit", "mcp"], cwd=repo, capture_output=True,
                         text=True, input="")  # fmt: skip
    assert out.returncode == 2
    assert "run `memkit init`" in out.stderr


def test_search_and_files(store: Store) -> None:
    pytest.importorskip("memkit.context")
    from memkit import memory as mm

    day = __import__("datetime").date(2026, 11, 22)
    store.add(mm.new("Money is integer cents", "Never floats for amounts.", mid="money",
                     today=day, paths=["src/billing/**"], tags=["billing"]))  # fmt: skip
    store.add(mm.new("Use UTC everywhere", "Convert only in templates.", mid="utc", today=day))
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["search"] = await call(client, "search_memories", query="floats amounts")
        out["bad"] = await call(client, "search_memories", query="x", type="nope")
        out["files"] = await call(client, "memories_for_files", files=["src/billing/invoice.py"])
        out["none"] = await call(client, "memories_for_files", files=["README.md"])
        out["empty"] = await call(client, "memories_for_files", files=[])

    serve(store.root, body)
    error, hits = out["search"]
    assert not error and [h["id"] for h in hits] == ["money"]
    assert out["bad"] == (
        True,
        "unknown type 'nope'; use one of: decision, convention, gotcha, procedure, episode, "
        "preference, note",
    )
    error, text = out["files"]
    assert not error and text.startswith("# Project memories for `src/billing/invoice.py`\n")
    assert "## Money is integer cents" in text and "Use UTC" not in text
    assert out["none"] == (False, "No memories about these files.")
    assert out["empty"] == (True, "give at least one file or a query")


def test_verify_then_list_stale(store: Store) -> None:
    from memkit import memory as mm

    repo = store.root
    (repo / "billing.py").write_text("def total(lines):\n    return sum(lines)\n")
    git(repo, "add", "billing.py")
    git(repo, "commit", "-q", "-m", "billing")
    day = __import__("datetime").date(2026, 11, 22)
    store.add(mm.new("Totals are sums", "Plain sums.", mid="totals", today=day,
                     links=["billing.py::total"]))  # fmt: skip
    out: dict[str, Any] = {}

    async def verify_it(client: Client) -> None:
        out["verify"] = await call(client, "verify_memory", ids=["totals"])
        out["missing"] = await call(client, "verify_memory", ids=["totals", "nope"])
        out["fresh"] = await call(client, "list_stale")

    serve(repo, verify_it)
    error, [rec] = out["verify"]
    assert not error and rec["id"] == "totals" and "billing.py::total" in rec["verified"]["links"]
    assert out["missing"] == (True, "no memory with id 'nope' (see `memkit list`)")
    assert out["fresh"] == (False, [])
    (repo / "billing.py").write_text("def total(lines):\n    return round(sum(lines), 2)\n")
    git(repo, "commit", "-q", "-am", "round")

    async def list_it(client: Client) -> None:
        out["stale"] = await call(client, "list_stale")

    serve(repo, list_it)
    error, [status] = out["stale"]
    assert not error and (status["id"], status["state"]) == ("totals", "stale")
    assert [(x["link"], x["state"]) for x in status["links"]] == [("billing.py::total", "body")]
