#!/usr/bin/env python3
"""The pre-commit hook's process on the fast path, several memkit versions side by side.

    python benchmarks/bench_hook_versions.py [--memories N] [--rounds R] [NAME=DIR ...]

Each DIR holds another memkit package (`git archive REV memkit templates | tar -x -C
DIR`); this checkout is always "this". Generates one store (benchmarks/gen_store.py),
copies it once per version so that each keeps its own derived index, installs in
each copy the hook script *that version* writes (so a change to the script counts),
stages a file no memory links to, and runs the hook processes and a bare Python
start in rotating order, R rounds. Prints the median wall clock and CPU time of each,
and the median per round of its CPU time over the bare start's (the steadiest figure
on a shared machine). No `MEMKIT_CACHE_DIR`: each copy's private folder is its own.
bench_hook.py times whole commits; this isolates what the hook process itself costs.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_hook import INSTALL
from gen_store import generate

HERE = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
ENV |= {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}  # fmt: skip


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("versions", nargs="*", help="NAME=DIR: a folder holding a memkit package")
    args = ap.parse_args()
    versions: dict[str, str | None] = {"this": None}
    for spec in args.versions:
        name, _, folder = spec.partition("=")
        if not (Path(folder) / "memkit" / "__init__.py").is_file():
            sys.exit(f"bench_hook_versions: {folder} holds no memkit package (memkit/__init__.py)")
        versions[name] = str(Path(folder).resolve())
    import compileall

    for folder in [str(HERE), *(v for v in versions.values() if v)]:
        compileall.compile_dir(os.path.join(folder, "memkit"), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        # no background `git gc --auto` after the store's commit: it would pack objects
        # while the store is being copied
        os.environ |= {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "gc.auto",
                       "GIT_CONFIG_VALUE_0": "0"}  # fmt: skip
        store = generate(args.memories, Path(tmp) / "store")
        runs: dict[str, tuple[list[str], Path, dict[str, str]]] = {}
        for name, folder in versions.items():
            repo = Path(tmp) / name
            shutil.copytree(store, repo, symlinks=True)
            env = {**ENV, "PYTHONPATH": folder} if folder else ENV
            subprocess.run([sys.executable, "-P", "-c", INSTALL], cwd=repo, env=env, check=True)
            (repo / "NOTES.txt").write_text("a change no memory is about\n", "utf-8")
            subprocess.run(["git", "add", "NOTES.txt"], cwd=repo, env=env, check=True)
            runs[name] = ([str(repo / ".git" / "hooks" / "pre-commit")], repo, env)
        runs["bare python"] = ([sys.executable, "-c", "pass"], Path(tmp), ENV)
        # a real store's files are older than the two seconds within which a change is not
        # trusted (the hook's index, and its date for the script: memkit.githooks.index.vouch)
        time.sleep(2.1)
        for argv, repo, env in runs.values():  # the first run of each builds its index
            subprocess.run(argv, cwd=repo, env=env, check=True, capture_output=True)
        wall: dict[str, list[float]] = {name: [] for name in runs}
        used: dict[str, list[float]] = {name: [] for name in runs}
        names = list(runs)
        for i in range(args.rounds):
            for name in names[i % len(names) :] + names[: i % len(names)]:
                argv, repo, env = runs[name]
                start, start_cpu = time.perf_counter(), cpu()
                done = subprocess.run(argv, cwd=repo, env=env, capture_output=True)
                wall[name].append(time.perf_counter() - start)
                used[name].append(cpu() - start_cpu)
                if done.returncode != 0 or done.stderr:
                    sys.exit(f"bench_hook_versions: {name}: {done.stderr.decode()[-500:]}")
    bare = used["bare python"]
    print(f"pre-commit hook process, fast path, {args.memories} memories, {args.rounds} rounds")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    print(f"{'':<14}{'wall':>10}{'CPU':>10}{'CPU over bare start, per round':>34}")
    for name in names:
        over = statistics.median(c - b for c, b in zip(used[name], bare, strict=True)) * 1000
        print(
            f"{name:<14}{statistics.median(wall[name]) * 1000:>8.1f}ms"
            f"{statistics.median(used[name]) * 1000:>8.1f}ms{over:>32.1f}ms"
        )


if __name__ == "__main__":
    main()
