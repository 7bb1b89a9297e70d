"""The bad input of section 5 of benchmarks/adversarial.py: CLI invocations, Claude Code
hook payloads, and lines and calls for the MCP server."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from adv_common import SID, shorten

BIN = os.fsdecode(b"\xff\xfe\x80bin")  # an argument that is not UTF-8
EVENTS = ("session-start", "post-tool-use", "stop", "session-end")
# The hook's tools and the input key each one is recorded by.
KEYS = {"Read": "file_path", "Edit": "file_path", "MultiEdit": "file_path",
        "Write": "file_path", "NotebookEdit": "notebook_path", "Grep": "pattern",
        "Glob": "pattern", "Bash": "command"}  # fmt: skip


def cli_cases(repo: Path, outside: Path) -> list[list[str]]:
    """Bad invocations: options, ids, huge and binary arguments, files, numbers, targets, dates."""
    ids = ["../x", "/etc/passwd", "", "a" * 1000, "\n", "Seed", "seed.md", ".memory/seed", "-",
           "seed/../seed", "a b", "$(id)", "*", BIN, "\x1b[31mred", "\u202eevil", "CON", "..", "~",
           "seed\tx"]  # fmt: skip
    big = "T" * 120_000  # the largest single argument Linux takes is 128 KiB
    app = str(repo / "src" / "app.py")
    # fmt: off
    cases: list[list[str]] = [
        ["nosuch"], [""], ["--nosuch"], ["-x"], [BIN], ["--root"],
        ["--root", "/nonexistent", "list"],
        ["--root", "/", "list"], ["--root", app, "list"], ["--root", "", "list"],
        ["--root", "/proc/self", "list"],
        ["add"], ["add", ""], ["add", "   "], ["add", big, "--body", "x"],
        ["add", "x", "--body", big],
        ["add", BIN, "--body", "x"], ["add", "x", "--body", BIN], ["add", "a\nb", "--body", "x"],
        ["add", "x", "--type", "nope"], ["add", "x", "--confidence", "sure"],
        ["add", "x", "--status", "gone"], ["add", "x", "--review-after", "2026-13-45"],
        ["add", "x", "--review-after", "2026-02-30"], ["add", "x", "--expires", "yesterday"],
        ["add", "x", "--expires", "9999-99-99"], ["add", "x", "--expires", ""],
        ["add", "x", "--expires", "0000-01-01"], ["add", "x", "--review-after", "2026-1-1"],
        ["add", "x", "--priority", "abc"], ["add", "x", "--priority", "9" * 40],
        ["add", "x", "--priority", "-1"], ["add", "x", "--priority", "1e3"],
        ["add", "x", "--id", "../x"], ["add", "x", "--id", ""], ["add", "x", "--id", "A" * 100],
        ["add", "x", "--id", "seed"], ["add", "x", "--link", "../etc/passwd"],
        ["add", "x", "--link", "/etc/passwd"], ["add", "x", "--link", "C:\\x"],
        ["add", "x", "--link", "src/app.py::"], ["add", "x", "--link", "::handler"],
        ["add", "x", "--path", "../**"], ["add", "x", "--path", "/abs/**"],
        ["add", "x", "--path", ""], ["add", "x", "--path", "[unclosed"], ["add", "x", "--tag", ""],
        ["add", "x", "--tag", "\x07"], ["add", "x", "--body-file", "/nonexistent"],
        ["add", "x", "--body-file", str(repo / "src")], ["add", "x", "--body-file", "/dev/zero"],
        ["add", "x", "--body-file", str(outside / "bin")],
        ["add", "x", "--body-file", str(outside / "big.md")],
        ["add", "x", "--body", "a", "--body-file", "/etc/hostname"], ["add", "x", "--bogus"],
        ["add", "x", "--source", "\x1b]0;pwn\x07"], ["add", "x", "--pin", "yes"],
        ["list", "--type", "nope"], ["list", "--status", "nope"], ["list", "--tag"],
        ["search"], ["search", ""], ["search", '"unclosed'], ["search", "tag:"],
        ["search", "((((("],
        ["search", "-n", "-1", "x"], ["search", "-n", "0", "x"], ["search", "-n", "abc", "x"],
        ["search", "x" * 120_000], ["search", "type:nope"], ["search", "path:../"], ["search", BIN],
        ["search", "--status", "nope", "x"], ["search", "*"], ["search", "AND OR NOT"],
        ["context"], ["context", "--file", "../../etc/passwd"],
        ["context", "--file", "/etc/passwd"],
        ["context", "--file", "src/app.py", "--budget", "-5"],
        ["context", "--file", "src/app.py", "--budget", "0"],
        ["context", "--file", "src/app.py", "--budget", "9" * 30],
        ["context", "--file", "src/app.py", "--format", "xml"], ["context", "--file", BIN],
        ["log", "-n", "-1"], ["log", "-n", "0"], ["log", "-n", "x"], ["log", "--bogus"],
        ["diff", "nosuchrev"], ["diff", "HEAD~1000"], ["diff", "--format", "xml"], ["diff", "../x"],
        ["diff", "HEAD", "nosuch"], ["diff", "-x"], ["diff", "HEAD..HEAD~1"], ["diff", BIN],
        ["show", "seed", "--at", "nosuchrev"], ["show", "seed", "--at", ""],
        ["show", "seed", "--at", "HEAD~99"], ["show", "seed", "--at", "--all"],
        ["revert", "seed", "--to", "nosuchrev"], ["revert", "seed", "--to", "HEAD~99"],
        ["revert", "seed", "--to", ""], ["revert", "seed", "--to", "HEAD:.memory/seed.md"],
        ["compile", "--target", "nosuch"], ["compile", "--target", ""], ["compile", "--bogus"],
        ["verify"], ["verify", "--all", "seed"], ["verify", "nosuch"], ["verify", "--follow"],
        ["import"], ["import", "/nonexistent"], ["import", "/etc/passwd"], ["import", "../"],
        ["import", "/dev/zero"], ["import", ""], ["import", str(outside)], ["import", BIN],
        ["import", ".memory/seed.md"], ["import", ".git/config"],
        ["hooks"], ["hooks", "nosuch"], ["hooks", "install", "--bogus"], ["hooks", "run", "nosuch"],
        ["hooks", "run", "pre-commit", "--bogus"],
        ["hooks", "merge-file", "/nonexistent/a", "/nonexistent/b", "/nonexistent/c", "AGENTS.md"],
        ["hooks", "merge-file", "x"], ["hook"], ["hook", "nosuch"], ["hook", ""],
        ["approve", "--reject"], ["approve", "nosuch"], ["approve", "seed"],
        ["approve", "--reject", "seed"], ["init", "--bogus"], ["index", "--bogus"],
        ["rm"], ["rm", "nosuch"], ["rm", "seed", "nosuch"], ["validate", "extra"],
        ["mcp", "extra"], ["list", "--json", "--json", "extra"],
    ]
    # fmt: on
    for cmd in ("show", "edit", "rm", "revert", "approve", "verify", "log", "check"):
        cases += [[cmd, i] for i in ids[:8]]
        cases.append([cmd, "--bogus"])
    cases += [["show", i] for i in ids[8:]]
    cases += [["edit", i, "--discard"] for i in ("../x", "", BIN)]
    return cases


def bad_env_cases() -> list[tuple[dict[str, str], list[str]]]:
    """Bad settings in the environment, with a command that reads them."""
    # fmt: off
    return [({"MEMKIT_TODAY": "2026-13-45"}, ["add", "x", "--body", "y"]),
            ({"MEMKIT_TODAY": "soon"}, ["list"]), ({"MEMKIT_TODAY": ""}, ["check"]),
            ({"MEMKIT_ROOT": "/nonexistent"}, ["list"]), ({"MEMKIT_ROOT": "relative"}, ["list"]),
            ({"MEMKIT_CACHE_DIR": "relative/path"}, ["search", "x"]),
            ({"MEMKIT_CACHE_DIR": "/proc/self"}, ["search", "x"]),
            ({"MEMKIT_CACHE_DIR": "/dev/null"}, ["list"]),
            ({"EDITOR": "/nonexistent-editor"}, ["edit", "seed"]),
            ({"EDITOR": "false"}, ["edit", "seed"])]
    # fmt: on


def hook_payloads(repo: Path, outside: Path) -> Iterator[tuple[str, bytes, tuple[str, ...]]]:
    """(label, raw stdin, the events it is sent to) of every bad payload."""
    # fmt: off
    raw: list[tuple[str, bytes | str]] = [
        ("empty", ""), ("not json", "not json"), ("open brace", "{"), ("close", "}"),
        ("open list", "["), ("single quotes", "{'a': 1}"), ("NUL", "nul\x00l"),
        ("invalid UTF-8", b"\xff\xfe{}"), ("NULs", "\x00" * 100), ("BOM", b"\xef\xbb\xbf{}"),
        ("10 MB of text", "a" * 10_000_000), ("list", "[]"), ("null", "null"), ("number", "1"),
        ("string", '"str"'), ("true", "true"), ("NaN", '{"session_id": NaN}'),
        ("huge number", '{"session_id": 1e999999}'), ("deep list", "[" * 100_000 + "]" * 100_000),
        ("deep dict", '{"a":' * 100_000 + "1" + "}" * 100_000),
        ("duplicate keys", '{"session_id": "a", "session_id": "b"}'),
        ("UTF-16", '{"session_id": "x"}'.encode("utf-16")),
    ]
    # fmt: on
    for label, value in raw:
        data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
        yield label, data, EVENTS
    base = {"session_id": SID, "cwd": str(repo), "hook_event_name": "PostToolUse"}
    for group, events in ((_objects(repo, outside), EVENTS), (_tools(), ("post-tool-use",))):
        for label, obj in group:
            yield label, json.dumps({**base, **obj}).encode("utf-8", "surrogatepass"), events


def _objects(repo: Path, outside: Path) -> list[tuple[str, dict[str, Any]]]:
    """JSON objects with a field of the wrong type or value, for every event."""
    edit = {"tool_name": "Edit", "tool_input": {"file_path": "src/app.py", "new_string": "x"}}
    memory_file = str(repo / ".memory" / "x.md")

    def tool(name: str, **tool_input: Any) -> dict[str, Any]:
        return {"tool_name": name, "tool_input": tool_input}

    # fmt: off
    objects: list[tuple[str, dict[str, Any]]] = [
        ("session_id 7", {"session_id": 7}), ("session_id list", {"session_id": []}),
        ("session_id null", {"session_id": None}), ("cwd 1", {"cwd": 1}), ("cwd list", {"cwd": []}),
        ("cwd relative", {"cwd": "relative"}), ("cwd missing dir", {"cwd": "/nonexistent/x"}),
        ("cwd /", {"cwd": "/"}), ("cwd /proc/self", {"cwd": "/proc/self"}),
        ("cwd /dev/zero", {"cwd": "/dev/zero"}), ("cwd NUL", {"cwd": "/tmp/\x00x"}),
        ("cwd 5000 chars", {"cwd": "/tmp/" + "a" * 5000}), ("cwd outside", {"cwd": str(outside)}),
        ("tool_name 5", {"tool_name": 5, "tool_input": {}}),
        ("tool_input string", {"tool_name": "Read", "tool_input": "x"}),
        ("file_path 5", tool("Read", file_path=5)),
        ("file_path null", tool("Read", file_path=None)),
        ("file_path list", tool("Edit", file_path=["a"])),
        ("command dict", tool("Bash", command={})),
        ("command 10 MB", tool("Bash", command="x" * 10_000_000)),
        ("command 1 MB line", tool("Bash", command="y " * 500_000)),
        ("pattern NULs", tool("Grep", pattern="\x00" * 1000)),
        ("file ../../etc/passwd", tool("Read", file_path="../../etc/passwd")),
        ("file /etc/passwd", tool("Edit", file_path="/etc/passwd", new_string="root::0:0")),
        ("file ~/.ssh/id_rsa", tool("Read", file_path="~/.ssh/id_rsa")),
        ("file .git/config", tool("Edit", file_path=str(repo / ".git" / "config"), new_string="x")),
        ("file .memory/x.md", tool("Write", file_path=memory_file, content="---\ntitle: x\n---\n")),
        ("edits not a list", tool("MultiEdit", file_path="src/app.py", edits="x")),
        ("edits of numbers", tool("MultiEdit", file_path="src/app.py", edits=[1, 2])),
        ("notebook dict", tool("NotebookEdit", notebook_path={})),
        ("transcript /dev/zero", {**edit, "transcript_path": "/dev/zero"}),
        ("transcript FIFO", {**edit, "transcript_path": str(outside / "fifo")}),
        ("transcript 5", {**edit, "transcript_path": 5}),
        ("transcript folder", {**edit, "transcript_path": str(repo)}),
        ("transcript /proc/self/environ", {**edit, "transcript_path": "/proc/self/environ"}),
        ("stop_hook_active string", {**edit, "stop_hook_active": "yes"}),
        ("hook_event_name 5", {**edit, "hook_event_name": 5}),
        ("100,000 keys", {**edit, **{f"k{i}": i for i in range(100_000)}}),
        ("session_id 1.5", {**edit, "session_id": 1.5}),
        ("session_id dict", {**edit, "session_id": {}}),
        ("session_id true", {**edit, "session_id": True}),
        ("session_id 2**70", {**edit, "session_id": 2**70}),
        ("cwd a file", {**edit, "cwd": str(repo / "src" / "app.py")}),
        ("cwd ..", {**edit, "cwd": ".."}),
        ("cwd ~", {**edit, "cwd": "~"}), ("cwd a link out", {**edit, "cwd": str(repo / "out")}),
        ("cwd the .git folder", {**edit, "cwd": str(repo / ".git")}),
    ]
    # fmt: on
    # fmt: off
    sids = ("..", "../../escape", "/abs/x", "\x00", "a/b", "\n\r", "x" * 300, "CON", ".hidden", " ",
            "セッション", "\u202etxt", "x" * 1_000_000, "-rf", "*", "sessions")
    # fmt: on
    for sid in sids:
        objects.append((f"session id {shorten(sid, 20)!r}", {**edit, "session_id": sid}))
    return objects


def _tools() -> list[tuple[str, dict[str, Any]]]:
    """PostToolUse payloads whose tool or tool input is of the wrong type or size."""
    # fmt: off
    values: list[tuple[str, Any]] = [("5", 5), ("null", None), ("[]", []), ("{}", {}), ("''", ""),
                                     ("NUL", "\x00"), ("100 KB", "z" * 100_000), ("true", True)]
    # fmt: on
    out = [
        (f"{name} {key} {label}", {"tool_name": name, "tool_input": {key: value}})
        for name, key in KEYS.items()
        for label, value in values
    ]
    for label, name in (("unknown tool", "Nope"), ("empty tool", ""), ("huge tool", "T" * 100_000),
                        ("tool with NUL", "Read\x00")):  # fmt: skip
        out.append((label, {"tool_name": name, "tool_input": {"file_path": "src/app.py"}}))
    return out


def mcp_lines() -> list[tuple[str, bytes]]:
    """Lines sent before `initialize`: none is a request the server can serve."""
    # fmt: off
    lines = [
        ("not json", b"not json"), ("open brace", b"{"), ("list", b"[]"), ("numbers", b"[1, 2]"),
        ("null", b"null"), ("number", b"1"), ("string", b'"str"'),
        ("jsonrpc 1.0", b'{"jsonrpc": "1.0", "id": 1, "method": "x"}'),
        ("no method", b'{"jsonrpc": "2.0", "id": 2}'),
        ("method 3", b'{"jsonrpc":"2.0","id":3,"method":3}'),
        ("id object", b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}'),
        ("params string", b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"x"}'),
        ("binary", b"\xff\xfe\x00\x01"), ("NULs", b"\x00" * 64), ("BOM", b'\xef\xbb\xbf{"a": 1}'),
        ("deep", b"[" * 100_000 + b"]" * 100_000), ("10 MB", b'"' + b"a" * 10_000_000 + b'"'),
        ("batch", b'[{"jsonrpc":"2.0","id":5,"method":"ping"}]'), ("NaN", b'{"id": NaN}'),
        ("CRLF", b'{"jsonrpc":"2.0","id":6,"method":"ping"}\r\n'),
    ]
    # fmt: on
    return [(label, raw if raw.endswith(b"\n") else raw + b"\n") for label, raw in lines]


def mcp_calls() -> list[tuple[str, str, Any]]:
    """(label, method, params) after `initialize`: bad tools, arguments and methods."""
    big = "b" * 2_000_000
    # fmt: off
    calls: list[tuple[str, str, Any]] = [
        ("unknown tool", "tools/call", {"name": "nosuch", "arguments": {}}),
        ("no name", "tools/call", {"arguments": {}}),
        ("arguments list", "tools/call", {"name": "get_memory", "arguments": [1]}),
        ("arguments null", "tools/call", {"name": "get_memory", "arguments": None}),
        ("unknown method", "nosuch/method", {}), ("resources/list", "resources/list", {}),
        ("prompts/list", "prompts/list", {}), ("params list", "tools/list", [1, 2]),
    ]
    tool_args: list[tuple[str, dict[str, Any]]] = [
        ("get_memory", {}), ("get_memory", {"id": 5}), ("get_memory", {"id": ["a"]}),
        ("get_memory", {"id": "../x"}), ("get_memory", {"id": "/etc/passwd"}),
        ("get_memory", {"id": "a" * 10_000}), ("get_memory", {"id": "\x00"}),
        ("save_memory", {}), ("save_memory", {"title": 5, "body": "x"}),
        ("save_memory", {"title": "x", "body": None}), ("save_memory", {"title": "x", "body": big}),
        ("save_memory", {"title": big, "body": "x"}),
        ("save_memory", {"title": "\x00", "body": "x"}),
        ("save_memory", {"title": "x", "body": "\x00"}),
        ("save_memory", {"title": "", "body": "x"}),
        ("save_memory", {"title": "x", "body": "x", "type": "nope"}),
        ("save_memory", {"title": "x", "body": "x", "tags": "x"}),
        ("save_memory", {"title": "x", "body": "x", "links": [1, 2]}),
        ("save_memory", {"title": "x", "body": "x", "links": ["../../etc/passwd"]}),
        ("save_memory", {"title": "x", "body": "x", "paths": ["/abs/**"]}),
        ("save_memory", {"title": "x", "body": "x", "confidence": "sure"}),
        ("save_memory", {"title": "x", "body": "x", "extra": {"deep": [[[[1]]]]}}),
        ("save_memory", {"title": "x" * 100, "body": "x", "tags": ["t"] * 10_000}),
        ("update_memory", {"id": "seed", "status": "active"}), ("update_memory", {"id": "nosuch"}),
        ("update_memory", {"id": "seed", "links": "x"}), ("update_memory", {"id": 5}),
        ("update_memory", {"id": "seed", "body": big}),
        ("search_memories", {}), ("search_memories", {"query": ""}),
        ("search_memories", {"query": "x", "limit": "ten"}),
        ("search_memories", {"query": "x", "limit": -1}),
        ("search_memories", {"query": "x", "limit": 10**30}),
        ("search_memories", {"query": "x" * 1_000_000}), ("search_memories", {"query": '"(('}),
        ("search_memories", {"query": "x", "type": "nope"}),
        ("memories_for_files", {"files": "x"}), ("memories_for_files", {"files": []}),
        ("memories_for_files", {"files": ["../../etc/passwd", "/etc/shadow"]}),
        ("memories_for_files", {"files": ["src/app.py"], "budget_tokens": -1}),
        ("memories_for_files", {"files": ["src/app.py"], "budget_tokens": 1e300}),
        ("memories_for_files", {"files": ["x"] * 50_000}),
        ("verify_memory", {"ids": "x"}), ("verify_memory", {"ids": []}),
        ("verify_memory", {"ids": ["seed"]}), ("verify_memory", {"ids": ["../x"]}),
        ("forget_memory", {"id": "../x"}), ("forget_memory", {}), ("list_stale", {"x": 1}),
    ]
    # fmt: on
    for name, args in tool_args:
        label = f"{name} {shorten(json.dumps(args), 60)}"
        calls.append((label, "tools/call", {"name": name, "arguments": args}))
    return calls
