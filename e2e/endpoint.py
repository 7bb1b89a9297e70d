"""A local stand-in for a model API that records every request an agent sends.

It speaks four flavours, each streamed (SSE) when the request asks for a stream:
Anthropic Messages (`POST .../v1/messages`), OpenAI Chat Completions
(`POST .../chat/completions`), OpenAI Responses (`POST .../responses`) and Gemini
(`POST .../models/M:generateContent` and `:streamGenerateContent`). `GET .../models`
lists a few models in a shape each flavour accepts.

Every request (method, path, JSON body) is appended to a JSON-lines file. To see what
an agent adds when it touches a file, the first answer of a conversation that offers
tools (a request with tools and no tool result yet) is a call of the agent's own read
tool on `read_path` (or of its shell tool running `cat`); given several paths, each
answer after a tool's result reads the next; every other answer is text.

    python3 e2e/endpoint.py --port 4010 --record /tmp/requests.jsonl --read src/api/handler.py
"""

from __future__ import annotations

import argparse
import json
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ANSWER = "Done."
MODELS = ("claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro", "gemini-2.5-flash", "test-model")
READ_TOOLS = ("Read", "read_file", "read", "view", "ReadFile", "read_text_file", "readFile",
              "read_files")  # fmt: skip
SHELL_TOOLS = (
    "Bash",
    "bash",
    "run_commands",
    "shell",
    "shell_command",
    "exec_command",
    "run_shell_command",
    "run_terminal_cmd",
    "execute_command",
    "Shell",
    "terminal",
)
PATH_KEYS = ("file_path", "absolute_path", "path", "filePath", "filepath", "file", "filename",
             "files", "paths", "file_paths")  # fmt: skip
SHELL_KEYS = ("command", "cmd", "commandLine", "commands")


@dataclass(frozen=True)
class ToolCall:
    """One call the endpoint answers with: the tool, its JSON arguments."""

    name: str
    arguments: dict[str, Any]


def flavour_of(method: str, path: str) -> str:
    """The API a request belongs to, from its method and path ("other" when none)."""
    bare = path.split("?", 1)[0]
    if method == "GET":
        return "models" if "/models" in bare and ":" not in bare.rsplit("/", 1)[-1] else "other"
    if bare.endswith("/messages/count_tokens"):
        return "anthropic-count"
    if bare.endswith("/messages"):
        return "anthropic"
    if bare.endswith("/chat/completions"):
        return "chat"
    if bare.endswith("/responses"):
        return "responses"
    if bare.endswith(":streamGenerateContent") or bare.endswith(":generateContent"):
        return "gemini"
    if bare.endswith(":countTokens"):
        return "gemini-count"
    return "other"


def offered_tools(flavour: str, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The tools a request offers: name -> JSON schema of its arguments ({} when none)."""
    out: dict[str, dict[str, Any]] = {}
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict):
            continue
        if flavour == "gemini":
            for decl in tool.get("functionDeclarations") or tool.get("function_declarations") or []:
                schema = decl.get("parametersJsonSchema") or decl.get("parameters") or {}
                out[str(decl.get("name"))] = schema
        elif flavour == "chat":
            fn = tool.get("function") or {}
            out[str(fn.get("name"))] = fn.get("parameters") or {}
        elif flavour == "anthropic":
            out[str(tool.get("name"))] = tool.get("input_schema") or {}
        elif flavour == "responses" and tool.get("name"):
            out[str(tool["name"])] = tool.get("parameters") or {}
    return out


def tool_results(flavour: str, body: dict[str, Any]) -> int:
    """How many tools' answers the conversation already holds (0 on its first turn)."""
    if flavour == "anthropic":
        return sum(
            isinstance(block, dict) and block.get("type") == "tool_result"
            for msg in body.get("messages") or []
            if isinstance(msg.get("content"), list)
            for block in msg["content"]
        )
    if flavour == "chat":
        return sum(msg.get("role") == "tool" for msg in body.get("messages") or [])
    if flavour == "responses":
        items = body.get("input")
        return sum(
            isinstance(it, dict) and str(it.get("type", "")).endswith("_call_output")
            for it in (items if isinstance(items, list) else [])
        )
    if flavour == "gemini":
        return sum(
            "functionResponse" in part or "function_response" in part
            for content in body.get("contents") or []
            for part in content.get("parts") or []
        )
    return 0


def has_tool_result(flavour: str, body: dict[str, Any]) -> bool:
    """Whether the conversation already holds a tool's answer (so it is not its first turn)."""
    return tool_results(flavour, body) > 0


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def _path_value(schema: Any, target: str) -> Any:
    """`target` in the shape a path argument's schema asks: a string, a list, a list of
    objects holding a path (`{"files": [{"path": ...}]}`)."""
    if not isinstance(schema, dict) or schema.get("type") != "array":
        return target
    items = schema.get("items")
    inner = _props(items) if isinstance(items, dict) else {}
    key = next((k for k in PATH_KEYS if k in inner), None)
    return [{key: target}] if key else [target]


def choose_call(tools: dict[str, dict[str, Any]], target: str) -> ToolCall | None:
    """A call reading `target` (an absolute path) with the agent's own read or shell tool."""
    for name in READ_TOOLS:
        if name in tools:
            props = _props(tools[name])
            key = next((k for k in PATH_KEYS if k in props), next(iter(props), "file_path"))
            return ToolCall(name, {key: _path_value(props.get(key), target)})
    for name in SHELL_TOOLS:
        if name in tools:
            props = _props(tools[name])
            key = next((k for k in SHELL_KEYS if k in props), "command")
            kind = props.get(key, {}).get("type") if isinstance(props.get(key), dict) else None
            value: Any = f"cat {target}"
            if kind == "array":  # an argv (`["cat", path]`), or a list of command lines
                value = [value] if key == "commands" else ["cat", target]
            return ToolCall(name, {key: value})
    return None


def _sse(event: str | None, data: Any) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def _anthropic(body: dict[str, Any], call: ToolCall | None) -> tuple[dict[str, Any], list[bytes]]:
    mid = f"msg_{uuid.uuid4().hex[:20]}"
    usage = {"input_tokens": 10, "output_tokens": 5}
    model = body.get("model", MODELS[0])
    if call:
        block: dict[str, Any] = {
            "type": "tool_use",
            "id": f"toolu_{uuid.uuid4().hex[:20]}",
            "name": call.name,
            "input": call.arguments,
        }
        delta = {"type": "input_json_delta", "partial_json": json.dumps(call.arguments)}
        start = {**block, "input": {}}
    else:
        block = {"type": "text", "text": ANSWER}
        delta = {"type": "text_delta", "text": ANSWER}
        start = {"type": "text", "text": ""}
    stop = "tool_use" if call else "end_turn"
    whole = {
        "id": mid,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }
    events = [
        _sse(
            "message_start",
            {"type": "message_start", "message": {**whole, "content": [], "stop_reason": None}},
        ),
        _sse(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": start},
        ),
        _sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _sse(
            "message_delta",
            {
                "type": "message_delta",
                "usage": {"output_tokens": 5},
                "delta": {"stop_reason": stop, "stop_sequence": None},
            },
        ),
        _sse("message_stop", {"type": "message_stop"}),
    ]
    return whole, events


def _chat(body: dict[str, Any], call: ToolCall | None) -> tuple[dict[str, Any], list[bytes]]:
    cid = f"chatcmpl-{uuid.uuid4().hex[:20]}"
    head = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", MODELS[1]),
    }
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if call:
        tc = {
            "id": f"call_{uuid.uuid4().hex[:20]}",
            "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
        }
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [tc]}
        delta: dict[str, Any] = {"role": "assistant", "tool_calls": [{"index": 0, **tc}]}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": ANSWER}
        delta = {"role": "assistant", "content": ANSWER}
        finish = "stop"
    whole = {
        **head,
        "object": "chat.completion",
        "usage": usage,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    chunks = [
        {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
        {**head, "choices": [], "usage": usage},
    ]
    return whole, [_sse(None, c) for c in chunks] + [b"data: [DONE]\n\n"]


def _responses(body: dict[str, Any], call: ToolCall | None) -> tuple[dict[str, Any], list[bytes]]:
    rid = f"resp_{uuid.uuid4().hex[:20]}"
    if call:
        item: dict[str, Any] = {
            "type": "function_call",
            "id": f"fc_{uuid.uuid4().hex[:20]}",
            "call_id": f"call_{uuid.uuid4().hex[:20]}",
            "name": call.name,
            "arguments": json.dumps(call.arguments),
            "status": "completed",
        }
    else:
        item = {
            "type": "message",
            "id": f"msg_{uuid.uuid4().hex[:20]}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": ANSWER, "annotations": []}],
        }
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    base = {
        "id": rid,
        "object": "response",
        "created_at": int(time.time()),
        "model": body.get("model", MODELS[1]),
        "status": "in_progress",
        "output": [],
    }
    whole = {**base, "status": "completed", "output": [item], "usage": usage}
    seq = iter(range(100))

    def ev(kind: str, **data: Any) -> bytes:
        return _sse(kind, {"type": kind, "sequence_number": next(seq), **data})

    events = [ev("response.created", response=base), ev("response.in_progress", response=base)]
    events.append(ev("response.output_item.added", output_index=0, item=item))
    if not call:
        events.append(
            ev(
                "response.output_text.delta",
                output_index=0,
                content_index=0,
                item_id=item["id"],
                delta=ANSWER,
            )
        )
    events.append(ev("response.output_item.done", output_index=0, item=item))
    events.append(ev("response.completed", response=whole))
    return whole, events


def _gemini(body: dict[str, Any], call: ToolCall | None) -> tuple[dict[str, Any], list[bytes]]:
    config = body.get("generationConfig") or {}
    if call:
        part: dict[str, Any] = {"functionCall": {"name": call.name, "args": call.arguments}}
    elif config.get("responseMimeType") == "application/json":
        part = {"text": "{}"}
    else:
        part = {"text": ANSWER}
    whole = {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": MODELS[2],
    }
    return whole, [_sse(None, whole)]


ANSWERS = {"anthropic": _anthropic, "chat": _chat, "responses": _responses, "gemini": _gemini}


def models_listing() -> dict[str, Any]:
    """One body every flavour's model listing accepts (OpenAI, Anthropic and Gemini keys)."""
    return {
        "object": "list",
        "data": [
            {
                "id": m,
                "object": "model",
                "type": "model",
                "created": 0,
                "owned_by": "e2e",
                "display_name": m,
                "created_at": "2025-01-01T00:00:00Z",
            }
            for m in MODELS
        ],
        "has_more": False,
        "models": [
            {
                "name": f"models/{m}",
                "displayName": m,
                "supportedGenerationMethods": ["generateContent"],
            }
            for m in MODELS
        ],
    }


class Recorder:
    """Appends each request to a JSON-lines file (thread-safe) and decides the answers."""

    def __init__(self, record: Path, read_path: str | Sequence[str] | None) -> None:
        self.record = record
        self.read_paths = (read_path,) if isinstance(read_path, str) else tuple(read_path or ())
        self.lock = threading.Lock()
        self.seq = 0

    def log(self, entry: dict[str, Any]) -> None:
        """Append one request (numbered in arrival order)."""
        with self.lock:
            self.seq += 1
            line = json.dumps({"seq": self.seq, "time": time.time(), **entry})
            with self.record.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")

    def call_for(self, flavour: str, body: dict[str, Any]) -> ToolCall | None:
        """The tool call to answer with, or None for plain text: a read of the first of
        `read_paths`, then, once the conversation holds N tools' answers, of the N+1th."""
        done = tool_results(flavour, body) if flavour in ANSWERS else len(self.read_paths)
        if done >= len(self.read_paths):
            return None
        return choose_call(offered_tools(flavour, body), self.read_paths[done])


def wants_stream(flavour: str, path: str, body: dict[str, Any]) -> bool:
    """Whether the client asked for a stream (Gemini says so in its path)."""
    if flavour == "gemini":
        return ":streamGenerateContent" in path
    return bool(body.get("stream"))


class Handler(BaseHTTPRequestHandler):
    """Answers one HTTP request for the Recorder in `server.recorder`."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the JSON-lines file is the log."""

    @property
    def recorder(self) -> Recorder:
        """The server's recorder."""
        return self.server.recorder  # type: ignore[attr-defined,no-any-return]

    def _send_json(self, status: int, data: Any) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _send_stream(self, events: list[bytes]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for event in events:
            self.wfile.write(event)
            self.wfile.flush()
        self.close_connection = True

    def do_GET(self) -> None:
        """Model listings; anything else is a recorded 404."""
        flavour = flavour_of("GET", self.path)
        self.recorder.log({"method": "GET", "path": self.path, "flavour": flavour})
        if flavour == "models":
            self._send_json(200, models_listing())
        else:
            self._send_json(404, {"error": {"message": f"no {self.path} here"}})

    def do_POST(self) -> None:
        """Record the body, then answer in the request's flavour."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = None
        flavour = flavour_of("POST", self.path)
        if not isinstance(body, dict):
            self.recorder.log(
                {
                    "method": "POST",
                    "path": self.path,
                    "flavour": flavour,
                    "reply": "error",
                    "body": {"_unparsed": raw.decode("utf-8", "replace")},
                }
            )
            self._send_json(400, {"error": {"message": "the body is not a JSON object"}})
            return
        call = self.recorder.call_for(flavour, body)
        self.recorder.log(
            {
                "method": "POST",
                "path": self.path,
                "flavour": flavour,
                "reply": f"tool:{call.name}" if call else "text",
                "body": body,
            }
        )
        if flavour == "anthropic-count":
            self._send_json(200, {"input_tokens": 10})
        elif flavour == "gemini-count":
            self._send_json(200, {"totalTokens": 10})
        elif flavour in ANSWERS:
            whole, events = ANSWERS[flavour](body, call)
            if wants_stream(flavour, self.path, body):
                self._send_stream(events)
            else:
                self._send_json(200, whole)
        else:
            self._send_json(404, {"error": {"message": f"no {self.path} here"}})


def serve(
    port: int, record: Path, read_path: str | Sequence[str] | None, host: str = "127.0.0.1"
) -> ThreadingHTTPServer:
    """A started server (in a daemon thread) on host:port; port 0 picks a free one."""
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    server.recorder = Recorder(record, read_path)  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


def read_records(record: Path) -> Iterator[dict[str, Any]]:
    """The requests a run recorded, in order."""
    if record.is_file():
        for line in record.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def main() -> None:
    """Serve until interrupted."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=4010)
    ap.add_argument("--record", type=Path, required=True, help="JSON-lines file to append to")
    ap.add_argument(
        "--read",
        dest="read_path",
        action="append",
        help="absolute path a tool call reads (repeat: one after the other)",
    )
    args = ap.parse_args()
    server = serve(args.port, args.record, args.read_path)
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
