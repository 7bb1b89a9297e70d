"""`memkit mcp` driven over stdio with raw JSON-RPC lines, for benchmarks/adversarial.py.

Raw lines rather than the SDK's client: the benchmark sends garbage too, kills the server
in the middle of a call, and must notice a request that never gets an answer.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from adv_common import cap_memory, kill_group


class Mcp:
    """`memkit mcp` driven with raw JSON-RPC lines (one request at a time, or garbage)."""

    def __init__(
        self, root: Path, env: dict[str, str], argv: list[str] | None = None, capped: bool = False
    ) -> None:
        self.err_path = root.parent / f".mcp-stderr-{os.getpid()}-{id(self)}"
        self._err = open(self.err_path, "wb")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            argv or [sys.executable, "-P", "-m", "memkit", "mcp"],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            start_new_session=True,
            preexec_fn=cap_memory if capped else None,
        )
        self.replies: queue.Queue[Any] = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.replies.put(json.loads(line))
            except ValueError:
                self.replies.put({"unparsable": line.decode("utf-8", "replace")})
        self.replies.put(None)  # end of output

    def send(self, raw: bytes) -> bool:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(raw)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def request(self, method: str, params: Any, timeout: float = 60) -> Any:
        """The reply to one request; None when the server died, "timeout" when too slow."""
        rid = self.next_id
        self.next_id += 1
        line = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        if not self.send((json.dumps(line) + "\n").encode()):
            return None
        return self.wait_for(rid, timeout)

    def wait_for(self, rid: Any, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            try:
                msg = self.replies.get(timeout=left)
            except queue.Empty:
                return "timeout"
            if msg is None:
                self.replies.put(None)
                return None
            if isinstance(msg, dict) and msg.get("id") == rid and "method" not in msg:
                return msg

    def next_message(self, timeout: float) -> Any:
        """Whatever the server writes next; None when it died, "timeout" when it says nothing."""
        try:
            msg = self.replies.get(timeout=timeout)
        except queue.Empty:
            return "timeout"
        if msg is None:
            self.replies.put(None)
        return msg

    def notify(self, method: str, params: Any = None) -> None:
        line: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            line["params"] = params
        self.send((json.dumps(line) + "\n").encode())

    def initialize(self, timeout: float = 60) -> bool:
        reply = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "adversarial", "version": "0"},
            },
            timeout,
        )
        if not isinstance(reply, dict) or "result" not in reply:
            return False
        self.notify("notifications/initialized")
        return True

    def call(self, tool: str, args: dict[str, Any], timeout: float = 60) -> tuple[str, str]:
        """(status, text): status is ok, error (a tool error), rpc-error, timeout or dead."""
        reply = self.request("tools/call", {"name": tool, "arguments": args}, timeout)
        if reply is None:
            return "dead", ""
        if reply == "timeout":
            return "timeout", ""
        if "error" in reply:
            return "rpc-error", json.dumps(reply["error"])
        result = reply.get("result", {})
        text = "".join(c.get("text", "") for c in result.get("content", []))
        return ("error" if result.get("isError") else "ok"), text

    def close(self, timeout: float = 30) -> tuple[int | None, str]:
        """(exit code or None when it had to be killed, stderr)."""
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            code: int | None = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(self.proc)
            code = None
        self._err.close()
        err = self.err_path.read_text("utf-8", "replace")
        self.err_path.unlink(missing_ok=True)
        return code, err
