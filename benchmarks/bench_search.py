#!/usr/bin/env python3
"""Time memkit's search index on a generated store (default 10,000 memories).

    python benchmarks/bench_search.py [--n 10000] [--runs 5] [--keep DIR]

Prints, each the median of several runs: a full build (`memkit index --rebuild`),
a whole `memkit search` command with an up-to-date index (p50/p95 over queries),
the update after 10 memories changed (whole `memkit index` command and in-process),
and in-process query latency before and after 100 rounds of 10-memory updates.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen_store import generate

QUERIES = [
    "retry the invoice",
    "validate user session",
    "billing cache tenant",
    "transaction partial writes",
    '"typed token client"',
    "tag:auth timeout",
    "type:gotcha log payload",
    "UTC templates display",
    "migration idempotent rerun",
    "AuthService.validate_user",
    "sync order asynchronously",
    "in-memory fake deterministic",
]
MEMKIT = [sys.executable, "-m", "memkit"]


CPU: list[float] = []  # CPU seconds (user + system) of each timed command, in order


def timed(cmd: list[str], root: Path) -> float:
    """Wall-clock seconds of a command; its CPU seconds are appended to CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=root, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def cpu_median(n: int) -> str:
    return f"(CPU {statistics.median(CPU[-n:]) * 1000:.0f} ms)"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def touch(root: Path, files: list[Path], round_: int) -> None:
    for f in files:
        with f.open("a", encoding="utf-8") as out:
            out.write(f"\nRevised in round {round_}: retry the invoice sync later.\n")
    time.sleep(0.05)  # past the index's window for files modified during a scan


def in_process_queries(root: Path, rounds: int) -> list[float]:
    from memkit.search import search
    from memkit.store import Store

    store = Store(root)
    day = dt.date(2026, 11, 1)
    out = []
    for _ in range(rounds):
        for q in QUERIES:
            start = time.process_time()
            search(store, q, today=day, limit=10)
            out.append(time.process_time() - start)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", type=Path, help="Generate the store here and keep it.")
    args = ap.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="memkit-bench-search-")) / "repo"
    if not (root / ".memory").is_dir():
        generate(args.n, root, commit=False)
    files = sorted((root / ".memory").rglob("rule-*.md"))
    print(f"{len(files)} memories in {root}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")

    builds = [timed([*MEMKIT, "index", "--rebuild"], root) for _ in range(max(1, args.runs // 2))]
    print(
        f"full build (memkit index --rebuild): median {statistics.median(builds):.2f} s "
        f"(CPU {statistics.median(CPU[-len(builds) :]):.2f} s)"
    )

    timed([*MEMKIT, "index"], root)
    per_query, per_cpu = [], []
    for q in QUERIES:
        per_query.append(
            statistics.median(timed([*MEMKIT, "search", q], root) for _ in range(args.runs))
        )
        per_cpu.append(statistics.median(CPU[-args.runs :]))
    print(
        f"memkit search, whole command: p50 {pct(per_query, 0.5) * 1000:.0f} ms, "
        f"p95 {pct(per_query, 0.95) * 1000:.0f} ms "
        f"(CPU p50 {pct(per_cpu, 0.5) * 1000:.0f} ms, p95 {pct(per_cpu, 0.95) * 1000:.0f} ms)"
    )
    help_cmd = statistics.median(timed([*MEMKIT, "--version"], root) for _ in range(args.runs))
    print(f"  (python + memkit --version alone: {help_cmd * 1000:.0f} ms {cpu_median(args.runs)})")

    updates, in_proc = [], []
    for r in range(args.runs):
        touch(root, files[r * 10 : r * 10 + 10], r)
        updates.append(timed([*MEMKIT, "index"], root))
    print(
        "update after 10 changed memories (memkit index): "
        f"median {statistics.median(updates) * 1000:.0f} ms {cpu_median(args.runs)}"
    )
    from memkit.search import Index
    from memkit.store import Store

    index = Index(Store(root))
    in_cpu = []
    for r in range(args.runs):
        touch(root, files[500 + r * 10 : 510 + r * 10], r)
        start, start_cpu = time.perf_counter(), time.process_time()
        index.refresh(full=True)  # edits in place change no folder: compare every file
        in_proc.append(time.perf_counter() - start)
        in_cpu.append(time.process_time() - start_cpu)
    print(
        "update after 10 changed memories (in-process): "
        f"median {statistics.median(in_proc) * 1000:.0f} ms "
        f"(CPU {statistics.median(in_cpu) * 1000:.0f} ms)"
    )

    before = in_process_queries(root, 3)
    rounds = 100
    refresh = []
    for r in range(rounds):
        touch(root, files[1000 + r * 10 : 1010 + r * 10], r)
        start = time.perf_counter()
        index.refresh(full=True)
        refresh.append(time.perf_counter() - start)
    after = in_process_queries(root, 3)
    print(
        "in-process query (CPU time, index refresh included): "
        f"p50 {pct(before, 0.5) * 1000:.1f} ms / "
        f"p95 {pct(before, 0.95) * 1000:.1f} ms; "
        f"after {rounds} updates of 10: p50 {pct(after, 0.5) * 1000:.1f} ms / "
        f"p95 {pct(after, 0.95) * 1000:.1f} ms"
    )
    print(
        f"  those {rounds} updates: median {statistics.median(refresh) * 1000:.0f} ms, "
        f"max {max(refresh) * 1000:.0f} ms; index on disk now "
        f"{index.db_path.stat().st_size / 1e6:.1f} MB"
    )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
