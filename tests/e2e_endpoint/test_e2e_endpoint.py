"""The end-to-end suite's recording model endpoint (e2e/endpoint.py), driven over real HTTP.

No agent runs here: a plain HTTP client sends each flavour's request, as the agents do,
and the test reads the SSE framing, the tool call chosen from the tools offered, the
plain answer once a tool result is in the conversation, and the JSON-lines record.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

E2E = Path(__file__).resolve().parents[2] / "e2e"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("e2e_endpoint_module", E2E / "endpoint.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


endpoint = _load()
TARGET = "/repo/src/api/handler.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    record = tmp_path / "requests.jsonl"
    srv = endpoint.serve(0, record, TARGET)
    try:
        yield srv.server_address[1], record
    finally:
        srv.shutdown()
        srv.server_close()


def _post(port: int, path: str, body: dict[str, Any]) -> tuple[int, str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    resp = conn.getresponse()
    text = resp.read().decode()
    conn.close()
    return resp.status, resp.getheader("Content-Type") or "", text


def _events(text: str) -> list[tuple[str | None, Any]]:
    """SSE frames (event name, data) - every frame ends with a blank line."""
    assert text.endswith("\n\n"), "the stream does not end with a complete frame"
    frames = []
    for block in text.strip("\n").split("\n\n"):
        event = None
        data = []
        for line in block.split("\n"):
            field, _, value = line.partition(": ")
            assert field in ("event", "data"), f"not an SSE line: {line!r}"
            if field == "event":
                event = value
            else:
                data.append(value)
        raw = "\n".join(data)
        frames.append((event, raw if raw == "[DONE]" else json.loads(raw)))
    return frames


def _records(record: Path) -> list[dict[str, Any]]:
    return list(endpoint.read_records(record))


def test_anthropic_stream_answers_a_read_call_then_text(server: tuple[int, Path]) -> None:
    port, record = server
    tools = [
        {"name": "Bash", "input_schema": {"properties": {"command": {}}}},
        {"name": "Read", "input_schema": {"properties": {"file_path": {}}}},
    ]
    first = {
        "model": "m",
        "stream": True,
        "tools": tools,
        "messages": [{"role": "user", "content": "MARK-A1"}],
    }
    status, ctype, text = _post(port, "/v1/messages?beta=true", first)
    assert (status, ctype) == (200, "text/event-stream")
    frames = _events(text)
    assert [e for e, _ in frames] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert all(d["type"] == e for e, d in frames)
    assert frames[1][1]["content_block"]["name"] == "Read"
    assert json.loads(frames[2][1]["delta"]["partial_json"]) == {"file_path": TARGET}
    assert frames[4][1]["delta"]["stop_reason"] == "tool_use"

    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x"}]}
    second = {**first, "messages": [*first["messages"], result]}
    frames = _events(_post(port, "/v1/messages", second)[2])
    assert frames[2][1]["delta"] == {"type": "text_delta", "text": endpoint.ANSWER}
    assert frames[4][1]["delta"]["stop_reason"] == "end_turn"

    recs = _records(record)
    assert [(r["flavour"], r["reply"]) for r in recs] == [
        ("anthropic", "tool:Read"),
        ("anthropic", "text"),
    ]
    assert recs[0]["body"]["messages"][0]["content"] == "MARK-A1"
    assert [r["seq"] for r in recs] == [1, 2]


def test_anthropic_without_stream_answers_one_json_message(server: tuple[int, Path]) -> None:
    port, _ = server
    status, ctype, text = _post(port, "/v1/messages", {"model": "m", "messages": []})
    assert (status, ctype) == (200, "application/json")
    assert json.loads(text)["content"] == [{"type": "text", "text": endpoint.ANSWER}]


def test_chat_stream_calls_read_file_and_ends_with_done(server: tuple[int, Path]) -> None:
    port, record = server
    tools = [
        {
            "type": "function",
            "function": {
                "name": "read_file",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            },
        }
    ]
    body = {
        "model": "m",
        "stream": True,
        "tools": tools,
        "messages": [{"role": "user", "content": "hi"}],
    }
    status, ctype, text = _post(port, "/v1/chat/completions", body)
    assert (status, ctype) == (200, "text/event-stream")
    frames = _events(text)
    assert frames[-1] == (None, "[DONE]")
    call = frames[0][1]["choices"][0]["delta"]["tool_calls"][0]
    assert call["function"]["name"] == "read_file"
    assert json.loads(call["function"]["arguments"]) == {"path": TARGET}
    assert frames[1][1]["choices"][0]["finish_reason"] == "tool_calls"

    body["messages"].append({"role": "tool", "tool_call_id": call["id"], "content": "x"})
    frames = _events(_post(port, "/v1/chat/completions", body)[2])
    assert frames[0][1]["choices"][0]["delta"]["content"] == endpoint.ANSWER
    assert [r["reply"] for r in _records(record)] == ["tool:read_file", "text"]


def test_a_shell_tool_runs_cat_in_the_shape_its_schema_asks(server: tuple[int, Path]) -> None:
    port, _ = server
    as_list = {"type": "object", "properties": {"command": {"type": "array"}}}
    tools = [{"type": "function", "function": {"name": "shell", "parameters": as_list}}]
    body = {"model": "m", "tools": tools, "messages": [{"role": "user", "content": "hi"}]}
    msg = json.loads(_post(port, "/v1/chat/completions", body)[2])["choices"][0]["message"]
    args = json.loads(msg["tool_calls"][0]["function"]["arguments"])
    assert args == {"command": ["cat", TARGET]}


@pytest.mark.parametrize(
    ("name", "schema", "arguments"),
    [
        ("read_files",
         {"properties": {"files": {"type": "array", "items": {"type": "object",
                                                              "properties": {"path": {}}}}}},
         {"files": [{"path": TARGET}]}),
        ("read", {"properties": {"paths": {"type": "array", "items": {"type": "string"}}}},
         {"paths": [TARGET]}),
        ("run_commands", {"properties": {"commands": {"type": "array"}}},
         {"commands": [f"cat {TARGET}"]}),
        ("view", {"properties": {"filePath": {"type": "string"}}}, {"filePath": TARGET}),
    ],
)  # fmt: skip
def test_read_arguments_follow_the_schema(
    name: str, schema: dict[str, Any], arguments: dict[str, Any]
) -> None:
    call = endpoint.choose_call({"edit": {}, name: schema}, TARGET)
    assert (call.name, call.arguments) == (name, arguments)


def test_a_read_tool_is_preferred_to_a_shell_tool() -> None:
    tools = {"Bash": {"properties": {"command": {}}}, "Read": {"properties": {"file_path": {}}}}
    assert endpoint.choose_call(tools, TARGET).name == "Read"
    assert endpoint.choose_call({"edit": {}}, TARGET) is None


def test_no_tools_offered_means_plain_text(server: tuple[int, Path]) -> None:
    port, record = server
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    msg = json.loads(_post(port, "/v1/chat/completions", body)[2])["choices"][0]["message"]
    assert msg == {"role": "assistant", "content": endpoint.ANSWER}
    assert _records(record)[0]["reply"] == "text"


def test_responses_stream_names_each_event_and_completes(server: tuple[int, Path]) -> None:
    port, record = server
    tools = [
        {
            "type": "function",
            "name": "exec_command",
            "parameters": {"properties": {"cmd": {"type": "string"}}},
        }
    ]
    body = {
        "model": "m",
        "stream": True,
        "tools": tools,
        "input": [{"type": "message", "role": "user", "content": "MARK-R1"}],
    }
    frames = _events(_post(port, "/v1/responses", body)[2])
    names = [e for e, _ in frames]
    assert names[0] == "response.created" and names[-1] == "response.completed"
    assert all(d["type"] == e for e, d in frames)
    assert [d["sequence_number"] for _, d in frames] == list(range(len(frames)))
    item = frames[-1][1]["response"]["output"][0]
    assert (item["type"], item["name"]) == ("function_call", "exec_command")
    assert json.loads(item["arguments"]) == {"cmd": f"cat {TARGET}"}

    body["input"].append({"type": "function_call_output", "call_id": "c", "output": "x"})
    frames = _events(_post(port, "/v1/responses", body)[2])
    assert ("response.output_text.delta", endpoint.ANSWER) in [
        (e, d.get("delta")) for e, d in frames
    ]
    assert [r["reply"] for r in _records(record)] == ["tool:exec_command", "text"]


def test_gemini_stream_and_plain_calls(server: tuple[int, Path]) -> None:
    port, record = server
    tools = [
        {
            "functionDeclarations": [
                {
                    "name": "read_file",
                    "parametersJsonSchema": {
                        "type": "object",
                        "properties": {"absolute_path": {"type": "string"}},
                    },
                }
            ]
        }
    ]
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": tools}
    path = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    status, ctype, text = _post(port, path, body)
    assert (status, ctype) == (200, "text/event-stream")
    [(event, data)] = _events(text)
    assert event is None
    part = data["candidates"][0]["content"]["parts"][0]
    assert part == {"functionCall": {"name": "read_file", "args": {"absolute_path": TARGET}}}

    body["contents"].append({"role": "user", "parts": [{"functionResponse": {"name": "x"}}]})
    status, ctype, text = _post(port, "/v1beta/models/gemini-2.5-pro:generateContent", body)
    assert ctype == "application/json"
    assert json.loads(text)["candidates"][0]["content"]["parts"] == [{"text": endpoint.ANSWER}]
    assert [(r["flavour"], r["reply"]) for r in _records(record)] == [
        ("gemini", "tool:read_file"),
        ("gemini", "text"),
    ]


def test_models_listing_and_unknown_paths_are_recorded(server: tuple[int, Path]) -> None:
    port, record = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for path in ("/v1/models", "/v1beta/models", "/nowhere"):
        conn.request("GET", path)
        resp = conn.getresponse()
        data = json.loads(resp.read())
        if path == "/nowhere":
            assert resp.status == 404
        else:
            assert resp.status == 200
            assert "test-model" in [m["id"] for m in data["data"]]
            assert "models/test-model" in [m["name"] for m in data["models"]]
    conn.close()
    assert [(r["path"], r["flavour"]) for r in _records(record)] == [
        ("/v1/models", "models"),
        ("/v1beta/models", "models"),
        ("/nowhere", "other"),
    ]


def test_a_body_that_is_not_json_is_recorded_not_lost(server: tuple[int, Path]) -> None:
    port, record = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/v1/chat/completions", b"{not json")
    assert conn.getresponse().status == 400
    conn.close()
    [rec] = _records(record)
    assert (rec["reply"], rec["body"]) == ("error", {"_unparsed": "{not json"})


def test_several_reads_follow_one_another(tmp_path: Path) -> None:
    """Given two paths, the first answer reads the first, the answer after its result the
    second, and the answer after both results is text."""
    paths = ["/repo/pkg/alpha/alpha.py", "/repo/pkg/beta/beta.py"]
    srv = endpoint.serve(0, tmp_path / "r.jsonl", paths)
    port = srv.server_address[1]
    try:
        tools = [{"name": "Read", "input_schema": {"properties": {"file_path": {}}}}]
        messages: list[dict[str, Any]] = [{"role": "user", "content": "read both"}]
        read = []
        for _ in range(3):
            body = {"model": "m", "stream": True, "tools": tools, "messages": messages}
            frames = _events(_post(port, "/v1/messages", body)[2])
            delta = frames[2][1]["delta"]
            if delta["type"] == "text_delta":
                break
            read.append(json.loads(delta["partial_json"])["file_path"])
            result = {"type": "tool_result", "tool_use_id": str(len(read)), "content": "x"}
            messages.append({"role": "user", "content": [result]})
    finally:
        srv.shutdown()
        srv.server_close()
    assert read == paths
    assert delta == {"type": "text_delta", "text": endpoint.ANSWER}
    assert [r["reply"] for r in _records(tmp_path / "r.jsonl")] == [
        "tool:Read",
        "tool:Read",
        "text",
    ]


def test_tool_results_are_counted_per_flavour() -> None:
    def result(n: int) -> dict[str, Any]:
        return {"type": "tool_result", "tool_use_id": str(n)}

    anthropic = {
        "messages": [
            {"role": "user", "content": [result(1)]},
            {"role": "user", "content": [result(2), {"type": "text"}]},
        ]
    }
    chat = {"messages": [{"role": "user"}, {"role": "tool"}, {"role": "tool"}]}
    responses = {"input": [{"type": "function_call_output"}, {"type": "message"}]}
    gemini = {"contents": [{"parts": [{"functionResponse": {}}, {"text": "x"}]}]}
    bodies = [("anthropic", anthropic), ("chat", chat), ("responses", responses),
              ("gemini", gemini), ("chat", {"messages": []})]  # fmt: skip
    counts = [endpoint.tool_results(f, b) for f, b in bodies]
    assert counts == [2, 2, 1, 1, 0]
