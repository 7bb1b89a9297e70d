#!/usr/bin/env python3
"""Shared team stores cost: a project of 1,000 memories reading two team stores of
5,000 each, against the same 11,000 memories in one store.

    python benchmarks/stores_bench.py OUTDIR [--rounds N] [--project P] [--team T]

Builds both set-ups under OUTDIR (git repositories, bare remotes on local paths, `memkit
sync`), warms the caches, then times `memkit compile --check`, `memkit search` and
`memkit list` on each, alternating the two set-ups in every round, and prints the median
of each and their ratio (shared / single). The machine is shared: trust ratios from one
run, not absolute times.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_store import AREAS, _memory, _module

ENV = {**os.environ, "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
       "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
       "MEMKIT_TODAY": "2026-11-01"}  # fmt: skip
MEMKIT = [sys.executable, "-m", "memkit"]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, env=ENV, capture_output=True)


def _repo(out: Path, ids: range, files: int) -> Path:
    """A git repository with `files` sources and the memories numbered `ids`."""
    random.seed(ids.start + 7)
    out.mkdir(parents=True)
    _git(out, "init", "-q", "-b", "main")
    sources = []
    for i in range(files):
        area = AREAS[i % len(AREAS)]
        text, symbols = _module(area, i)
        path = f"src/{area}/mod_{i:05d}.py"
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text)
        sources.append((path, symbols))
    today = dt.date(2026, 11, 1)
    for i in ids:
        rel, text = _memory(i, sources, today)
        path = out / ".memory" / f"{rel}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    _git(out, "add", "-A")
    _git(out, "commit", "-q", "-m", f"{len(ids)} memories")
    return out


def _memkit(root: Path, *args: str, ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    done = subprocess.run([*MEMKIT, "--root", str(root), *args], env=ENV, capture_output=True,
                          text=True, check=False)  # fmt: skip
    took = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"memkit {' '.join(args)} in {root}: {done.returncode}\n{done.stderr}")
    return took


def build(out: Path, project: int, team: int) -> tuple[Path, Path]:
    if out.exists():
        shutil.rmtree(out)
    files = 200
    single = _repo(out / "single", range(0, project + 2 * team), files)
    shared = _repo(out / "project", range(0, project), files)
    config = []
    for k, name in enumerate(("acme", "beta")):
        start = project + k * team
        work = _repo(out / name, range(start, start + team), files)
        bare = out / f"{name}.git"
        _git(out, "clone", "-q", "--bare", str(work), str(bare))
        config += [f"[stores.{name}]", f'url = "{bare}"', 'ref = "main"', ""]
    (shared / ".memory" / "config.toml").write_text("\n".join(config))
    _memkit(shared, "sync")
    for root in (single, shared):
        _memkit(root, "compile")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "compiled")
    return single, shared


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--project", type=int, default=1000)
    ap.add_argument("--team", type=int, default=5000)
    args = ap.parse_args()
    single, shared = build(args.out, args.project, args.team)
    commands = {
        "compile --check": ("compile", "--check"),
        "search": ("search", "retry invoice transaction"),
        "list": ("list",),
    }
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(2):  # warm caches: parse cache, search index, team store caches
        for root in (single, shared):
            for cmd in commands.values():
                _memkit(root, *cmd)
    for r in range(args.rounds):
        order = (single, shared) if r % 2 == 0 else (shared, single)
        for name, cmd in commands.items():
            for root in order:
                times.setdefault((name, root.name), []).append(_memkit(root, *cmd))
    total = args.project + 2 * args.team
    print(f"{args.project} project + 2 x {args.team} team memories vs {total} in one store, "
          f"{args.rounds} rounds, median seconds")  # fmt: skip
    print(f"{'command':<18}{'one store':>12}{'shared':>12}{'ratio':>8}")
    for name in commands:
        one = statistics.median(times[(name, "single")])
        two = statistics.median(times[(name, "project")])
        print(f"{name:<18}{one:>12.3f}{two:>12.3f}{two / one:>8.2f}")


if __name__ == "__main__":
    main()
