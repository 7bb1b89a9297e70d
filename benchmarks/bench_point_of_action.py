#!/usr/bin/env python3
"""Whole-process latency of the Claude Code hooks that give memories, as Claude Code runs them.

    python benchmarks/bench_point_of_action.py [--sizes 1000 10000] [--runs 15] [--work DIR]

For each size a store is generated (benchmarks/gen_store.py), the derived index warmed
by one SessionStart, and then, alternating commands in rounds so machine noise hits all
alike, a new process per call of `python -m memkit.agents.claude EVENT` (what the
installed `memkit-hook` runs):

- `python -c pass`: the floor, a bare interpreter start;
- pre-tool-use, nothing to give: an Edit of a file no memory is about;
- pre-tool-use, giving: an Edit of a file memories are linked to, in a new session each
  time (so something is given, staleness checked for linked ones);
- pre-tool-use, already given: the same Edit again in the same session;
- post-tool-use Read: journal line plus the lookup;
- post-tool-use Bash: what every other tool call costs (journal only);
- user-prompt-submit: retrieval for a prompt;
- session-start: the startup context.

Prints p50 / p95 / max in milliseconds. Never run in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_store import generate

PY = sys.executable
ENV = {**os.environ, "MEMKIT_TODAY": "2026-11-22"}


def timed(args: list[str], data: str, cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, input=data, capture_output=True, text=True, cwd=cwd, env=ENV)
    took = time.perf_counter() - start
    if done.returncode != 0 or done.stderr:
        raise SystemExit(f"{args}: {done.stderr}")
    return took * 1000


def linked_file(root: Path) -> str:
    """A source file some active memory links to (from the derived index)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from memkit.agents import recall

    index = recall.load(root)
    assert index is not None, "the index was not built"
    return max(index["files"], key=lambda f: len(index["files"][f]))


def cases(root: Path, n: int) -> dict[str, tuple[list[str], object]]:
    hook = [PY, "-m", "memkit.agents.claude"]
    target = linked_file(root)
    counter = iter(range(10**9))

    def base(event: str, sid: str = "bench") -> dict[str, object]:
        return {"session_id": sid, "cwd": str(root), "hook_event_name": event,
                "transcript_path": str(root / "t.jsonl")}  # fmt: skip

    def edit(file: str, sid: str = "bench") -> str:
        tool_input = {"file_path": str(root / file), "old_string": "a", "new_string": "b"}
        return json.dumps(
            {**base("PreToolUse", sid), "tool_name": "Edit", "tool_input": tool_input}
        )

    def giving() -> str:
        return edit(target, f"fresh-{next(counter)}")

    read = {**base("PostToolUse"), "tool_name": "Read", "tool_input": {"file_path": "README.md"}}
    bash = {**base("PostToolUse"), "tool_name": "Bash", "tool_input": {"command": "pytest -q"}}
    prompt = {**base("UserPromptSubmit"), "prompt": "why does the invoice cache retry tokens?"}
    subprocess.run(
        [*hook, "pre-tool-use"],
        input=edit(target),
        capture_output=True,
        cwd=root,
        env=ENV,
        text=True,
    )  # fmt: skip  (the "already given" session)
    return {
        "python -c pass": ([PY, "-c", "pass"], ""),
        "pre-tool-use, nothing to give": ([*hook, "pre-tool-use"], edit("README.md")),
        "pre-tool-use, giving": ([*hook, "pre-tool-use"], giving),
        "pre-tool-use, already given": ([*hook, "pre-tool-use"], edit(target)),
        "post-tool-use Read": ([*hook, "post-tool-use"], json.dumps(read)),
        "post-tool-use Bash": ([*hook, "post-tool-use"], json.dumps(bash)),
        "user-prompt-submit": ([*hook, "user-prompt-submit"], json.dumps(prompt)),
        "session-start": ([*hook, "session-start"],
                          json.dumps({**base("SessionStart", "start"), "source": "startup"})),
    }  # fmt: skip


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--work", type=Path, default=None)
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="memkit-poa-"))
    print(f"{'case':34} {'memories':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for n in args.sizes:
        root = work / f"store-{n}"
        if not root.exists():
            generate(n, root)
        start = json.dumps({"session_id": "warm", "cwd": str(root), "source": "startup",
                            "hook_event_name": "SessionStart"})  # fmt: skip
        timed([PY, "-m", "memkit.agents.claude", "session-start"], start, root)  # warm
        table = cases(root, n)
        times: dict[str, list[float]] = {name: [] for name in table}
        for _ in range(args.runs):
            for name, (argv, data) in table.items():
                text = data() if callable(data) else data
                times[name].append(timed(argv, str(text), root))
        for name, xs in times.items():
            print(f"{name:34} {n:>8} {pct(xs, 0.5):>8.1f} {pct(xs, 0.95):>8.1f} {max(xs):>8.1f}")


if __name__ == "__main__":
    main()
