"""Time `memkit log ID`, `show`, `log` and `diff` in a repository of 10,000 commits.

    .venv/bin/python benchmarks/bench_log.py [--commits 10000] [--memories 2500] [--runs 5]

Builds two repositories with `git fast-import` (seconds, not 10,000 `git commit`
processes): one whose memories share one folder, one whose memories are split into
25 subfolders. 70% of the commits change code, 30% change a memory, one in 50 is a
merge. The memory timed was created in the first commit and changed every 500
commits, so `memkit log` must walk the whole history. Prints
the median of --runs runs of each command (a fresh process each time): wall clock, and
CPU time (user + system), the figure to compare on a busy machine.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = "target-memory"


def memory_text(mid: str, version: int) -> bytes:
    return (
        f"---\ntitle: Memory {mid}\ntype: note\nstatus: active\n"
        f"created: 2026-01-01\n---\n\nVersion {version} of {mid}.\n"
    ).encode()


def stream(commits: int, memories: int, split: bool) -> bytes:
    """A fast-import stream for the whole history."""
    rnd = random.Random(42)
    mids = [TARGET] + [f"memory-{i:05d}" for i in range(1, memories)]

    def path(mid: str) -> str:
        n = mids.index(mid) if mid == TARGET else int(mid[-5:])
        return f".memory/topic-{n % 25:02d}/{mid}.md" if split else f".memory/{mid}.md"

    out: list[bytes] = []
    version = {m: 0 for m in mids}

    def commit(n: int, changes: list[tuple[str, bytes]], merge: int | None = None,
               ref: str = "refs/heads/main", parent: int | None = None) -> None:  # fmt: skip
        who = ["Ada Lovelace <ada@example.com>", "Alan Turing <alan@example.com>"][n % 2]
        stamp = 1_700_000_000 + n * 600
        msg = f"change {n}\n".encode()
        out.append(f"commit {ref}\nmark :{n}\nauthor {who} {stamp} +0000\n".encode())
        out.append(f"committer {who} {stamp} +0000\ndata {len(msg)}\n".encode() + msg)
        if parent is not None:
            out.append(f"from :{parent}\n".encode())
        if merge is not None:
            out.append(f"merge :{merge}\n".encode())
        for p, data in changes:
            out.append(f"M 100644 inline {p}\ndata {len(data)}\n".encode() + data + b"\n")

    commit(1, [(path(m), memory_text(m, 0)) for m in mids])
    side = commits + 10
    for n in range(2, commits + 1):
        if n % 500 == 0:
            version[TARGET] += 1
            changes = [(path(TARGET), memory_text(TARGET, version[TARGET]))]
        elif rnd.random() < 0.3:
            m = rnd.choice(mids[1:])
            version[m] += 1
            changes = [(path(m), memory_text(m, version[m]))]
        else:
            f = rnd.randrange(500)
            changes = [(f"src/pkg{f % 20}/mod{f}.py", f"VALUE = {n}\n".encode())]
        if n % 50 == 0:  # a merged side branch
            side += 1
            commit(side, [(f"side/f{n}.txt", b"x\n")], ref="refs/heads/side", parent=n - 1)
            commit(n, changes, merge=side, parent=n - 1)
        else:
            commit(n, changes, parent=n - 1 if n > 2 else 1)
    return b"".join(out)


def build(root: Path, commits: int, memories: int, split: bool) -> None:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, check=True,
                   input=stream(commits, memories, split))  # fmt: skip
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=root, check=True)
    (root / ".memory" / ".gitignore").write_text(".cache/\n")


def median_ms(cmd: list[str], cwd: Path, runs: int) -> tuple[float, float]:
    """Median wall and CPU (user + system) milliseconds of a fresh process per run.

    CPU time is the figure to compare on a busy machine: wall time includes waiting for
    a core.
    """
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
        walls.append((time.perf_counter() - t) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        cpus.append(cpu * 1000)
    return statistics.median(walls), statistics.median(cpus)


def in_process_ms(root: Path, runs: int) -> tuple[float, float]:
    """memory_log (history.provenance) without start-up costs."""
    from memkit.history.provenance import memory_log
    from memkit.store import Store

    store = Store(root)
    memory_log(store, TARGET)  # imports and the parse cache
    walls, cpus = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        memory_log(store, TARGET)
        walls.append((time.perf_counter() - t) * 1000)
        cpus.append((time.process_time() - c) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--commits", type=int, default=10_000)
    ap.add_argument("--memories", type=int, default=2_500)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    memkit = str(Path(sys.executable).with_name("memkit"))
    env_note = f"{args.commits} commits, {args.memories} memories, median of {args.runs} runs"
    print(f"memkit log/show/diff: {env_note}")
    tmp = Path(tempfile.mkdtemp(prefix="memkit-bench-"))
    try:
        for split in (False, True):
            root = tmp / ("split" if split else "flat")
            t = time.perf_counter()
            build(root, args.commits, args.memories, split)
            layout = "25 subfolders" if split else "one folder"
            print(f"\n{layout}: built in {time.perf_counter() - t:.1f} s")
            cases = {
                f"log {TARGET}": ["log", TARGET],
                f"show {TARGET}": ["show", TARGET],
                "log (latest 20 commits)": ["log"],
                "diff HEAD~100 HEAD": ["diff", "HEAD~100", "HEAD"],
                "--version (start-up)": ["--version"],
            }
            print(f"  {'':<36}{'wall':>9}{'cpu':>9}")
            for name, argv in cases.items():
                wall, cpu = median_ms([memkit, *argv], root, args.runs)
                print(f"  {name:<36}{wall:6.0f} ms{cpu:6.0f} ms")
            wall, cpu = in_process_ms(root, args.runs)
            print(f"  {'memory_log() in process':<36}{wall:6.0f} ms{cpu:6.0f} ms")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    main()
