"""Time `memkit check` on a generated repository: 5,000 source files, 1,000 symbol links.

    python benchmarks/bench_check.py [--files 5000] [--links 1000] [--runs 5] [--dir DIR]

Prints the median wall time of the whole `memkit check` command (a new process each
run): cold (no parse cache), with nothing changed, and with 10 and 100 linked files
changed in the work tree.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TODAY = dt.date(2026, 1, 1)

SOURCE = '''"""Module {n}."""

import os


def load_{n}(path, retries=3):
    """Load item {n}."""
    for _ in range(retries):
        if os.path.exists(path):
            return open(path).read()
    return None


class Service{n}:
    """Service number {n}."""

    def start(self, port: int = {n}) -> bool:
        self.port = port
        return port > 0

    def stop(self) -> None:
        self.port = None
'''


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def build(root: Path, files: int, links: int) -> list[str]:
    """A committed repository and a store whose memories link to `links` symbols."""
    from memkit import memory as mm
    from memkit.staleness import fingerprint
    from memkit.store import Store, init

    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Bench")
    git(root, "config", "user.email", "bench@example.com")
    paths = [f"pkg{n // 100:02d}/mod{n:05d}.py" for n in range(files)]
    for n, rel in enumerate(paths):
        (root / rel).parent.mkdir(exist_ok=True)
        (root / rel).write_text(SOURCE.format(n=n), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "code")
    init(root)
    store = Store(root)
    step = max(1, files // links)
    linked = []
    for i in range(links):
        n = (i * step) % files
        symbol = ("Service{n}.start", "load_{n}", "Service{n}")[i % 3].format(n=n)
        link = f"{paths[n]}::{symbol}"
        mem = mm.new(f"Memory {i}", "text", mid=f"m{i:05d}", today=TODAY, links=[link])
        store.add(dataclasses.replace(mem, verified=fingerprint(root, [link], today=TODAY)))
        linked.append(paths[n])
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "memories")
    return linked


def time_check(root: Path, runs: int, cold: bool = False) -> str:
    """Median wall and CPU (user + system) time of `memkit check`, as text."""
    import resource

    walls, cpus = [], []
    for _ in range(runs):
        if cold:
            shutil.rmtree(root / ".memory" / ".cache", ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        env = {**os.environ, "MEMKIT_TODAY": "2026-01-01"}
        cmd = [sys.executable, "-m", "memkit", "check"]
        subprocess.run(cmd, cwd=root, capture_output=True, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return f"wall {statistics.median(walls):.3f} s  cpu {statistics.median(cpus):.3f} s"


def change(root: Path, paths: list[str]) -> None:
    for rel in paths:
        full = root / rel
        full.write_text(full.read_text("utf-8").replace("port > 0", "port >= 0"), "utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--links", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", type=Path, help="where to build (default: a temporary directory)")
    args = ap.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="memkit-bench-"))
    root = base / "repo"
    start = time.perf_counter()
    linked = build(root, args.files, args.links)
    print(
        f"built {args.files} files, {args.links} symbol links in "
        f"{time.perf_counter() - start:.1f} s at {root}"
    )
    print(f"memkit check, median of {args.runs} runs:")
    print(f"  cold (no parse cache)      {time_check(root, args.runs, cold=True)}")
    print(f"  nothing changed            {time_check(root, args.runs)}")
    distinct = sorted(set(linked))
    change(root, distinct[:10])
    print(f"  10 linked files changed    {time_check(root, args.runs)}")
    change(root, distinct[10:100])
    print(f"  100 linked files changed   {time_check(root, args.runs)}")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "change 100 files")
    print(f"  100 changed, committed     {time_check(root, args.runs)}")
    if args.dir is None:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
