#!/usr/bin/env python3
"""Time `memkit hook post-tool-use` as Claude Code runs it: a whole new process per call.

    python benchmarks/bench_agent_hooks.py [--runs N] [--memories M]

Makes a store of M memories (benchmarks/gen_store.py) in a temporary git repository,
then pipes realistic PostToolUse payloads (Read, Edit, Bash) into fresh processes,
and prints the median, min and max wall time per call, plus the Stop handler's.
The goal for PostToolUse is at most 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_store import generate

_SCRIPT = Path(sys.executable).parent / "memkit"
MEMKIT = [str(_SCRIPT)] if _SCRIPT.exists() else [shutil.which("memkit") or "memkit"]
LEAN = [sys.executable, "-m", "memkit.agents.claude"]


def payloads(root: Path, sid: str) -> list[dict[str, object]]:
    base = {"session_id": sid, "transcript_path": "/tmp/t.jsonl", "cwd": str(root),
            "hook_event_name": "PostToolUse", "tool_response": {"success": True}}  # fmt: skip
    src = sorted((root / "src").rglob("*.py"))[:3]
    out: list[dict[str, object]] = []
    for f in src:
        out.append({**base, "tool_name": "Read", "tool_input": {"file_path": str(f)}})
        out.append({**base, "tool_name": "Edit", "tool_input": {
            "file_path": str(f), "old_string": "pass", "new_string": "return None"}})  # fmt: skip
        out.append({**base, "tool_name": "Bash", "tool_input": {"command": "pytest -q"}})
    return out


CPU: dict[int, list[float]] = {}


def timed(args: list[str], data: str, cwd: Path) -> float:
    """Wall time of one process in ms; its CPU time (user + system) goes to CPU[id(args)]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, input=data, cwd=cwd, capture_output=True, text=True, check=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    CPU.setdefault(id(args), []).append(cpu)
    return wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--memories", type=int, default=500)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        generate(opts.memories, root)
        os.environ["MEMKIT_TODAY"] = "2026-11-22"
        bare_args = [sys.executable, "-c", "pass"]
        bare = [timed(bare_args, "", root) for _ in range(10)]
        calls = payloads(root, "bench-session")
        cli, lean = [], []
        cli_args, lean_args = [*MEMKIT, "hook", "post-tool-use"], [*LEAN, "post-tool-use"]
        for i in range(opts.runs):  # interleaved, so load on the machine hits both alike
            data = json.dumps(calls[i % len(calls)])
            cli.append(timed(cli_args, data, root))
            lean.append(timed(lean_args, data, root))
        stop = {"session_id": "bench-session", "cwd": str(root), "hook_event_name": "Stop",
                "transcript_path": "/tmp/t.jsonl", "stop_hook_active": False}  # fmt: skip
        stop_args = [*MEMKIT, "hook", "stop"]
        stops = [timed(stop_args, json.dumps(stop), root) for _ in range(5)]
    print(f"{opts.memories} memories, {opts.runs} runs each, goal for post-tool-use <= 100 ms")
    print(f"load average before: {os.getloadavg()[0]:.2f} (wall time suffers on a busy machine)")
    report("python -c pass", bare, CPU[id(bare_args)])
    report("memkit hook post-tool-use", cli, CPU[id(cli_args)])
    report("python -m memkit.agents.claude post-tool-use", lean, CPU[id(lean_args)])
    report("memkit hook stop (draft saved)", stops, CPU[id(stop_args)])


def report(name: str, times: list[float], cpu: list[float]) -> None:
    print(f"{name:<45} wall median {statistics.median(times):6.1f} ms"
          f"  min {min(times):6.1f}  max {max(times):6.1f}"
          f"  | cpu median {statistics.median(cpu):6.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
