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
from conftest import git, write_memory

from memkit.staleness import check_store
from memkit.store import Store
from memkit.validation import validate

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

# Every test starts a real MCP server process (about two seconds each): `make fast` skips them.
pytestmark = pytest.mark.slow

DAY = __import__("datetime").date(2026, 11, 22)

Session = Callable[[Client], Awaitable[None]]


def serve(repo: Path, body: Session, *, roots: list[str] | None = None, **env: str) -> None:
    """Start `memkit mcp` in `repo` and run `body` with a connected client (which
    declares `roots`, file URIs, when given)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memkit", "mcp"],
        cwd=str(repo),
        env={"MEMKIT_TODAY": "2026-11-22", "HOME": os.environ["HOME"], **env}
        | {k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
    )
    extra: dict[str, Any] = {}
    if roots is not None:
        from mcp import types

        async def list_roots(context: Any) -> Any:
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in roots])  # type: ignore[arg-type]

        extra["list_roots_callback"] = list_roots

    async def main() -> None:
        async with Client(params, mode="legacy", **extra) as client:
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
    (store.root / "src").mkdir()
    (store.root / "src" / "http.py").write_text("def post(url):\n    return url\n")
    git(store.root, "add", "src")
    git(store.root, "commit", "-q", "-m", "http")
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["saved"] = await call(
            client,
            "save_memory",
            title="Retry only idempotent requests",
            type="gotcha",
            body="A retried POST charged twice.",
            links=["src/http.py"],
            tags=["http"],
        )
        out["got"] = await call(client, "get_memory", id="retry-only-idempotent-requests")
        out["updated"] = await call(
            client,
            "update_memory",
            id="retry-only-idempotent-requests",
            confidence="high",
            body="A retried POST charged a customer twice.",
        )
        out["promote"] = await call(
            client, "update_memory", id="retry-only-idempotent-requests", status="active"
        )
        out["forget"] = await call(client, "forget_memory", id="retry-only-idempotent-requests")

    serve(store.root, body)
    error, saved = out["saved"]
    assert not error
    assert (saved["id"], saved["status"], saved["type"]) == (
        "retry-only-idempotent-requests",
        "draft",
        "gotcha",
    )
    assert out["got"][1]["body"] == "A retried POST charged twice."
    error, updated = out["updated"]  # its own draft: changed in place, still a draft
    assert (error, updated["id"], updated["status"], updated["confidence"], updated["revises"]) == (
        False,
        "retry-only-idempotent-requests",
        "draft",
        "high",
        None,
    )
    assert out["promote"] == (
        True,
        "an agent cannot make 'retry-only-idempotent-requests' active: a person reviews it "
        "and runs `memkit approve retry-only-idempotent-requests`",
    )
    assert out["forget"] == (False, "archived .memory/retry-only-idempotent-requests.md")
    text = (store.dir / "retry-only-idempotent-requests.md").read_text()
    head, verified = text.split("verified:\n")
    assert head == (
        "---\n"
        "title: Retry only idempotent requests\n"
        "type: gotcha\n"
        "status: archived\n"
        "tags:\n- http\n"
        "links:\n- src/http.py\n"
        "created: 2026-11-22\n"
        "updated: 2026-11-22\n"
    )
    assert "  links:\n    src/http.py: file:" in verified  # fingerprinted, as `memkit add`
    assert verified.endswith("confidence: high\n---\n\nA retried POST charged a customer twice.\n")
    assert check_store(store, today=DAY, ids=["retry-only-idempotent-requests"])[0].state == "fresh"


def test_save_refuses_a_link_the_cli_refuses(store: Store) -> None:
    (store.root / "a.py").write_text("def f():\n    pass\n")
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["file"] = await call(client, "save_memory", title="T", body="b", links=["nope.py"])
        out["sym"] = await call(client, "save_memory", title="T", body="b", links=["a.py::g"])

    serve(store.root, body)
    assert out["file"][0] and out["sym"][0]
    assert "nope.py" in out["file"][1] and "a.py::g" in out["sym"][1]
    assert store.files() == []


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
    assert out[1][1] == (  # an enum in the schema: refused in one line before the tool runs
        "invalid arguments for save_memory: type: Input should be 'decision', 'convention', "
        "'gotcha', 'procedure', 'episode', 'preference' or 'note'"
    )
    assert "links: link '../etc' escapes the repository" in out[2][1]
    assert "refusing to write what looks like a high-entropy value" in out[3][1]
    assert [p.name for p in store.files()] == []


def with_pragma(text: str) -> str:
    return "\n".join(f"{line}  <!-- memkit: allow-secret -->" for line in text.splitlines())


def test_agents_cannot_vouch_for_a_secret(store: Store) -> None:
    """The allow-secret pragma is for people: whatever an agent writes is scanned without it."""
    from tests.secretscan.corpus import secrets

    corpus = secrets()
    day = __import__("datetime").date(2026, 11, 22)
    from memkit import memory as mm

    store.add(mm.new("Reviewed", "Reviewed text.", mid="reviewed", today=day))
    before = (store.dir / "reviewed.md").read_bytes()
    out: list[tuple[str, tuple[bool, Any]]] = []

    async def body(client: Client) -> None:
        for kind, text in corpus:
            out.append((kind, await call(client, "save_memory", title="T", body=with_pragma(text))))
        kind, text = corpus[3]
        out.append(("title", await call(client, "save_memory", title=with_pragma(text), body="b")))
        await call(client, "save_memory", title="Draft", body="Fine.")
        out.append(
            ("draft", await call(client, "update_memory", id="draft", body=with_pragma(text)))
        )
        out.append(
            ("revision", await call(client, "update_memory", id="reviewed", body=with_pragma(text)))
        )

    serve(store.root, body)
    let_through = [kind for kind, (error, _) in out if not error]
    assert let_through == []
    assert all("refusing to write what looks like a" in text for _, (_, text) in out)
    assert "cannot vouch for a fake example" in out[0][1][1]
    assert sorted(p.name for p in store.files()) == ["draft.md", "reviewed.md"]
    assert store.get("draft").text == "Fine."
    assert (store.dir / "reviewed.md").read_bytes() == before


def test_agent_status_active_is_refused(store: Store) -> None:
    (store.dir / "config.toml").write_text('[memories]\nagent_status = "active"\n')
    out: list[tuple[bool, Any]] = []

    async def body(client: Client) -> None:
        out.append(await call(client, "save_memory", title="Use UTC", body="Always."))

    serve(store.root, body)
    assert out == [
        (
            True,
            f"{store.dir / 'config.toml'}: [memories] agent_status = 'active' is no longer "
            "supported: agents always save drafts, which a person makes active with `memkit "
            "approve ID`; remove the key (and any MEMKIT_MEMORIES_AGENT_STATUS)",
        )
    ]
    assert store.files() == []


def test_forget_deletes_a_draft_when_configured(store: Store) -> None:
    (store.dir / "config.toml").write_text('[memories]\nforget = "delete"\n')
    out: list[tuple[bool, Any]] = []

    async def body(client: Client) -> None:
        out.append(await call(client, "save_memory", title="Use UTC", body="Always."))
        out.append(await call(client, "forget_memory", id="use-utc"))

    serve(store.root, body)
    assert out[0][1]["status"] == "draft"
    assert out[1] == (False, "deleted .memory/use-utc.md")
    assert store.files() == []


ACTIVE = (
    "---\n"
    "title: Money is integer cents\n"
    "type: convention\n"
    "# reviewed in #812\n"
    "tags:\n- billing\n"
    "x-owner: payments\n"
    "created: 2026-01-05\n"
    "updated: 2026-02-01\n"
    "---\n\n"
    "Never floats for amounts.\n"
)


def test_changing_a_reviewed_memory_proposes_a_revision(store: Store) -> None:
    """update_memory never changes a reviewed memory: a new draft `revises` it."""
    write_memory(store, "money", ACTIVE)
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["revise"] = await call(
            client,
            "update_memory",
            id="money",
            title="Money is cents",
            body="Never floats.",
            tags=["billing", "money"],
        )
        out["again"] = await call(client, "update_memory", id="money-revision", confidence="high")
        out["promote"] = await call(client, "update_memory", id="money", status="active")
        out["same"] = await call(client, "update_memory", id="money", type="convention")
        out["verify"] = await call(client, "verify_memory", ids=["money-revision", "money"])
        out["forget"] = await call(client, "forget_memory", id="money")
        out["withdraw"] = await call(client, "forget_memory", id="money-revision-2")

    serve(store.root, body)
    assert (store.dir / "money.md").read_text() == ACTIVE
    error, rev = out["revise"]
    assert not error
    assert (rev["id"], rev["status"], rev["revises"], rev["title"]) == (
        "money-revision",
        "draft",
        "money",
        "Money is cents",
    )
    assert out["again"][1]["id"] == "money-revision"  # a draft: changed in place
    assert (store.dir / "money-revision.md").read_text() == (
        "---\n"
        "title: Money is cents\n"
        "type: convention\n"
        "status: draft\n"
        "tags:\n- billing\n- money\n"
        "created: 2026-11-22\n"
        "updated: 2026-11-22\n"
        "revises: money\n"
        "confidence: high\n"
        "---\n\n"
        "Never floats.\n"
    )
    assert out["promote"] == (
        True,
        "an agent cannot make 'money' active: a person reviews it and runs `memkit approve money`",
    )
    assert out["same"][1]["id"] == "money"  # nothing to change: no revision
    assert out["verify"] == (
        True,
        "'money' is active: only a person re-verifies a reviewed memory (`memkit verify "
        "money`); if it is wrong, propose a change with update_memory",
    )
    assert out["forget"] == (
        False,
        "proposed archiving .memory/money.md in .memory/money-revision-2.md: a person "
        "applies it with `memkit approve money-revision-2`",
    )
    assert out["withdraw"] == (False, "deleted .memory/money-revision-2.md")
    assert sorted(p.name for p in store.files()) == ["money-revision.md", "money.md"]
    assert validate(Store(store.root)) == []


def test_concurrent_revisions_each_get_a_file(store: Store) -> None:
    write_memory(store, "money", ACTIVE)
    titles = [f"Money, take {n}" for n in range(5)]

    async def body(client: Client) -> None:
        async with anyio.create_task_group() as tg:
            for title in titles:
                tg.start_soon(partial(call, client, "update_memory", id="money", title=title))

    serve(store.root, body)
    revisions = [m for m in store.memories() if m.revises == "money"]
    assert sorted(m.title for m in revisions) == titles
    assert sorted(m.id for m in revisions) == [
        "money-revision",
        *(f"money-revision-{n}" for n in range(2, 6)),
    ]
    assert (store.dir / "money.md").read_text() == ACTIVE


JSONISH = ['{"a": 1}', "[1, 2]", "123", "true", "null", '"quoted"', "1e400"]


def test_strings_that_look_like_json_stay_strings(store: Store) -> None:
    """Every string parameter takes any string as it is (the SDK decodes JSON-looking ones)."""
    out: list[tuple[str, str, tuple[bool, Any]]] = []

    async def body(client: Client) -> None:
        for n, text in enumerate(JSONISH):
            saved = await call(
                client, "save_memory", title=f"{text} {n}", body=text, source=text, confidence=None
            )
            out.append(("save", text, saved))
            mid = saved[1]["id"] if not saved[0] else "none"
            out.append(
                (
                    "update",
                    text,
                    await call(client, "update_memory", id=mid, title=text, body=f"{text}!"),
                )
            )
            out.append(
                ("search", text, await call(client, "search_memories", query=text, tag=text))
            )
            out.append(
                (
                    "files",
                    text,
                    await call(client, "memories_for_files", files=["a.py"], query=text),
                )
            )

    serve(store.root, body)
    refused = [(what, text, result) for what, text, (error, result) in out if error]
    assert refused == []
    for n, text in enumerate(JSONISH):
        mem = store.get(out[4 * n][2][1]["id"])
        assert (mem.title, mem.text, mem.source) == (text, f"{text}!", text)


def error_reply(code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}


def test_garbage_on_stdin_gets_parse_errors_and_serving_goes_on(store: Store) -> None:
    """Each line that is not JSON-RPC gets an error reply (id null); the session goes on."""
    import queue
    import subprocess
    import threading

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "memkit", "mcp"],
        cwd=store.root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    replies: queue.Queue[str] = queue.Queue()
    threading.Thread(
        target=lambda: [replies.put(x) for x in proc.stdout or ()], daemon=True
    ).start()

    def send(*lines: str, expect: int) -> list[Any]:
        assert proc.stdin is not None
        proc.stdin.write("".join(line + "\n" for line in lines))
        proc.stdin.flush()
        return [json.loads(replies.get(timeout=30)) for _ in range(expect)]

    parse = error_reply(-32700, "Parse error: the line is not JSON")
    invalid = error_reply(-32600, "Invalid Request: not JSON-RPC 2.0")
    try:
        first = send(
            "this is not json",
            "",
            "{'single': 'quotes'}",
            '{"jsonrpc": "2.0", "id": 7, "method": 3}',
            "[1, 2]",
            json.dumps(init),
            expect=5,
        )
        # memkit answers bad lines itself, the SDK the good ones: the two may interleave
        errors, (result,) = [r for r in first if "error" in r], [r for r in first if "result" in r]
        assert errors == [parse, parse, {**invalid, "id": 7}, invalid]
        assert result["id"] == 1 and result["result"]["serverInfo"]["name"] == "memkit"
        initialized = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
        listed = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        second = send(initialized, "{truncated", listed, expect=2)
        (error,), (tools,) = (
            [r for r in second if "error" in r],
            [r for r in second if "result" in r],
        )
        assert error == parse
        assert tools["id"] == 2
        assert "save_memory" in {t["name"] for t in tools["result"]["tools"]}
        odd = [{"a": 1}, 1.5, None, True, 2.0]  # the SDK read these as notifications: no reply
        third = send(
            *(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/list"}) for i in odd),
            expect=len(odd),
        )
        bad_id = "Invalid Request: id must be a string or an integer, not "
        assert [r["error"]["message"].removeprefix(bad_id) for r in third] == [
            "dict",
            "a fraction",
            "null",
            "bool",
            "a number with a fraction part",
        ]
        assert {(r["id"], r["error"]["code"]) for r in third} == {(None, -32600)}
        arrays = send(
            json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": [1]}), expect=1
        )
        assert arrays == [
            {
                "jsonrpc": "2.0",
                "id": 5,
                "error": {
                    "code": -32602,
                    "message": "Invalid params: params must be an object, not an array",
                },
            }
        ]
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        code = proc.wait(timeout=30)
    assert code == 0
    assert replies.empty()


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

    (store.root / "src").mkdir()
    (store.root / "src" / "a.py").write_text("A = 1\n")

    async def body(client: Client) -> None:
        await call(client, "save_memory", title="Target", body="x")
        async with anyio.create_task_group() as tg:
            for change in changes:
                tg.start_soon(partial(call, client, "update_memory", id="target", **change))

    serve(store.root, body)
    mem = store.get("target")
    assert (mem.title, mem.type, mem.confidence, mem.tags, mem.paths, mem.links) == (
        "Renamed",
        "gotcha",
        "high",
        ("billing",),
        ("src/*.py",),
        ("src/a.py",),
    )


def test_no_project_is_an_error_naming_what_was_tried(repo: Path, tmp_path: Path) -> None:
    """Started where there is no store, the server still answers: each tool call says
    what was tried (it does not die with "Connection closed")."""
    git(repo, "status")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["get"] = await call(client, "get_memory", id="x")

    serve(repo, body, roots=[elsewhere.as_uri()], CLAUDE_PROJECT_DIR=str(tmp_path))
    error, text = out["get"]
    assert error
    assert text == (
        f"memkit found no project to serve: tried CLAUDE_PROJECT_DIR ({tmp_path}: no .memory/ "
        f"there or above); the client's root {elsewhere.as_uri()} ({elsewhere}: no .memory/ "
        f"there or above); the working directory ({repo}: no .memory/ there or above). Start "
        "the server with `memkit --root DIR mcp`, or run `memkit init` in the project"
    )


@pytest.mark.parametrize("how", ["env", "roots", "root"])
def test_a_server_started_elsewhere_finds_the_project(
    store: Store, tmp_path: Path, how: str
) -> None:
    """Clients start servers from the home folder: CLAUDE_PROJECT_DIR, the client's
    roots or --root name the project."""
    write_memory(store, "utc", "---\ntitle: Use UTC\n---\nAlways.\n")
    home = tmp_path / "home"
    home.mkdir()
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["get"] = await call(client, "get_memory", id="utc")

    if how == "env":
        serve(home, body, CLAUDE_PROJECT_DIR=str(store.root / "src-does-not-matter"))
    elif how == "roots":
        serve(home, body, roots=[(store.root / "sub").as_uri()])
    else:
        serve(home, body, MEMKIT_ROOT=str(store.root))
    error, rec = out["get"]
    assert not error and rec["title"] == "Use UTC"


def test_tool_metadata_follows_the_specification(store: Store) -> None:
    """Titles, behaviour hints, enums and output schemas, as listed to the SDK client;
    structured results match their output schema."""
    tools: dict[str, Any] = {}
    results: dict[str, Any] = {}

    async def body(client: Client) -> None:
        tools.update({t.name: t for t in (await client.list_tools()).tools})
        results["save"] = await client.call_tool("save_memory", {"title": "T", "body": "b"})
        results["files"] = await client.call_tool("memories_for_files", {"files": ["a.py"]})
        results["stale"] = await client.call_tool("list_stale", {})

    serve(store.root, body)
    read_only = {n for n, t in tools.items() if t.annotations.read_only_hint}
    assert read_only == {"get_memory", "search_memories", "memories_for_files", "list_stale"}
    assert {n for n, t in tools.items() if t.annotations.destructive_hint} == {
        "update_memory",
        "forget_memory",
    }
    for name, t in tools.items():
        assert t.title and t.annotations.title == t.title, name
        assert t.annotations.open_world_hint is False, name
        assert t.output_schema and t.output_schema["type"] == "object", name
        assert t.annotations.idempotent_hint is not None, name
    kinds = tools["save_memory"].input_schema["properties"]["type"]
    assert kinds["enum"][:2] == ["decision", "convention"] and kinds["default"] == "note"
    status = tools["update_memory"].input_schema["properties"]["status"]
    assert "draft" in json.dumps(status) and "archived" in json.dumps(status)
    assert results["save"].structured_content["status"] == "draft"
    assert results["files"].structured_content == {"result": "No memories about these files."}
    assert results["stale"].structured_content == {"result": []}


def test_argument_errors_are_one_line(store: Store) -> None:
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["limit"] = await call(client, "search_memories", query="x", limit="many")
        out["files"] = await call(client, "memories_for_files", files=[{"a": 1}, 3])

    serve(store.root, body)
    assert out["limit"] == (
        True,
        "invalid arguments for search_memories: limit: Input should be a valid integer, "
        "unable to parse string as an integer",
    )
    error, text = out["files"]
    assert error and "\n" not in text
    assert text.startswith("invalid arguments for memories_for_files: files.0: Input should be")


def test_search_and_files(store: Store) -> None:
    pytest.importorskip("memkit.search.context")
    from memkit import memory as mm

    day = __import__("datetime").date(2026, 11, 22)
    store.add(
        mm.new(
            "Money is integer cents",
            "Never floats for amounts.",
            mid="money",
            today=day,
            paths=["src/billing/**"],
            tags=["billing"],
        )
    )
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
        "invalid arguments for search_memories: type: Input should be 'decision', "
        "'convention', 'gotcha', 'procedure', 'episode', 'preference' or 'note'",
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
    store.add(
        mm.new(
            "Totals are sums",
            "Plain sums.",
            mid="totals",
            today=day,
            status="draft",
            links=["billing.py::total"],
        )
    )
    store.add(
        mm.new(
            "Totals are exact", "No rounding.", mid="exact", today=day, links=["billing.py::total"]
        )
    )
    before = (store.dir / "exact.md").read_bytes()
    out: dict[str, Any] = {}

    async def verify_it(client: Client) -> None:
        out["verify"] = await call(client, "verify_memory", ids=["totals"])
        out["missing"] = await call(client, "verify_memory", ids=["totals", "nope"])
        out["reviewed"] = await call(client, "verify_memory", ids=["totals", "exact"])
        out["fresh"] = await call(client, "list_stale")

    serve(repo, verify_it)
    error, [rec] = out["verify"]
    assert not error and rec["id"] == "totals" and "billing.py::total" in rec["verified"]["links"]
    assert out["missing"] == (True, "no memory with id 'nope' (see `memkit list`)")
    assert out["reviewed"] == (
        True,
        "'exact' is active: only a person re-verifies a reviewed memory (`memkit verify "
        "exact`); if it is wrong, propose a change with update_memory",
    )
    assert (store.dir / "exact.md").read_bytes() == before
    assert out["fresh"] == (
        False,
        [
            {  # never fingerprinted: listed, with the reason
                "id": "exact",
                "state": "unverified",
                "active": True,
                "links": [
                    {
                        "link": "billing.py::total",
                        "state": "unverified",
                        "moved_to": None,
                        "since": None,
                    }
                ],
                "reason": "its links were never fingerprinted, so memkit cannot tell when the code "
                "changes: check it, then verify it",
            }
        ],
    )
    (repo / "billing.py").write_text("def total(lines):\n    return round(sum(lines), 2)\n")
    git(repo, "commit", "-q", "-am", "round")

    async def list_it(client: Client) -> None:
        out["stale"] = await call(client, "list_stale")

    serve(repo, list_it)
    error, statuses = out["stale"]
    assert not error and [(x["id"], x["state"]) for x in statuses] == [
        ("exact", "unverified"),
        ("totals", "stale"),
    ]
    status = statuses[1]
    assert status["reason"] == "its linked code changed since it was verified"
    assert [(x["link"], x["state"]) for x in status["links"]] == [("billing.py::total", "body")]


def test_search_on_a_fresh_store_is_an_empty_answer(store: Store) -> None:
    out: dict[str, Any] = {}

    async def body(client: Client) -> None:
        out["word"] = await call(client, "search_memories", query="anything")
        out["stop"] = await call(client, "search_memories", query="the")
        out["files"] = await call(client, "memories_for_files", files=["a.py"], query="anything")

    serve(store.root, body)
    assert out["word"] == (False, []) and out["stop"] == (False, [])
    assert out["files"][0] is False
