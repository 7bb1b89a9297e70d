"""Speed of verify, check and diff on a real repository, each as a ratio to its floor in one run.

    python benchmarks/bench_staleness.py MIRROR [--links 1000] [--range 500] [--runs 3]

MIRROR is a git repository (a mirror made by `git clone --mirror` will do). It is cloned
at HEAD into a temporary folder, a store is made with LINKS memories each linking one
Python symbol (symbols reused when the project has fewer), and whole commands are timed
as new processes, alternating with their floors, median of RUNS:

- `memkit verify --all` against the floor: one Python process parsing each linked file
  once with ast.
- `memkit check` with nothing changed (warm) against the floor: `python -c pass`.
- `memkit diff HEAD~RANGE HEAD` against `git diff HEAD~RANGE HEAD` (first parents).

Prints names, commits and timings only.
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TODAY = dt.date(2026, 1, 1)
BIN = Path(sys.executable).parent


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def symbols(root: Path) -> list[tuple[str, str]]:
    """(path, qualified name) of module-level and class-level defs in tracked .py files."""
    out = []
    for path in git(root, "ls-files", "*.py").splitlines():
        try:
            tree = ast.parse((root / path).read_bytes())
        except (SyntaxError, ValueError, OSError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                out.append((path, node.name))
                if isinstance(node, ast.ClassDef):
                    out += [
                        (path, f"{node.name}.{m.name}")
                        for m in node.body
                        if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                    ]
    return out


def build(root: Path, links: int) -> list[str]:
    """Memories linking `links` symbols (unverified); returns the distinct linked files."""
    from memkit import memory as mm
    from memkit.store import Store, init

    init(root)
    store = Store(root)
    pool = symbols(root)
    rng = random.Random(0)
    rng.shuffle(pool)
    files = set()
    for i in range(links):
        path, name = pool[i % len(pool)]
        files.add(path)
        store.add(mm.new(f"m{i}", "b", mid=f"m{i:05d}", today=TODAY, links=[f"{path}::{name}"]))
    return sorted(files)


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-500:]}")
    return elapsed


def compare(
    label: str,
    cmd: list[str],
    floor: list[str],
    root: Path,
    env: dict[str, str],
    runs: int,
    before: list[str] | None = None,
) -> None:
    mine, base = [], []
    for _ in range(runs):
        if before:
            subprocess.run(before, cwd=root, env=env, capture_output=True, check=True)
        mine.append(timed(cmd, root, env))
        base.append(timed(floor, root, env))
    a, b = statistics.median(mine), statistics.median(base)
    print(f"{label:<34} {a:8.3f} s   floor {b:7.3f} s   ratio {a / b:6.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mirror", type=Path)
    ap.add_argument("--links", type=int, default=1000)
    ap.add_argument("--range", type=int, default=500)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="memkit-bench-") as tmp:
        root = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", str(args.mirror.resolve()), str(root)], check=True)
        head = git(root, "rev-parse", "HEAD").strip()
        files = build(root, args.links)
        print(f"{args.mirror.resolve()} at {head[:12]}: {args.links} links into {len(files)} files")
        env = {**os.environ, "MEMKIT_TODAY": TODAY.isoformat()}
        memkit = str(BIN / "memkit")
        parse_once = [
            sys.executable,
            "-c",
            "import ast, sys\nfor f in sys.argv[1:]:\n    ast.parse(open(f, 'rb').read())",
            *files,
        ]
        # verify rewrites every memory each run: back to unverified first
        reset = ["git", "checkout", "-q", "--", "."]
        git(root, "add", ".memory")
        git(root, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "store")
        compare(
            "verify --all", [memkit, "verify", "--all"], parse_once, root, env, args.runs, reset
        )
        subprocess.run([memkit, "verify", "--all"], cwd=root, env=env, capture_output=True)
        subprocess.run([memkit, "check"], cwd=root, env=env, capture_output=True)  # warm caches
        noop = [sys.executable, "-c", "pass"]
        compare("check (nothing changed)", [memkit, "check"], noop, root, env, args.runs)
        commits = git(root, "rev-list", "--first-parent", "HEAD").split()
        base = commits[min(args.range, len(commits) - 1)]
        compare(
            f"diff over {min(args.range, len(commits) - 1)} commits",
            [memkit, "diff", base, "HEAD"],
            ["git", "diff", base, "HEAD"],
            root,
            env,
            args.runs,
        )


if __name__ == "__main__":
    main()
