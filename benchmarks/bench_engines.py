#!/usr/bin/env python3
"""Two keyword engines side by side in one run: this checkout's and another checkout's memkit.

    python benchmarks/bench_engines.py MIRROR OTHER [--n 10000] [--rounds 5] [--dir DIR]

MIRROR is a git directory (benchmarks/real_store.py grows the store from it); OTHER is
a directory holding another version's `memkit/` package (for the whoosh engine:
`git archive a011684 memkit | tar -x -C OTHER`; its dependencies must be installed in
this interpreter). Each engine gets its own cache folder (MEMKIT_CACHE_DIR) on the
same store. Each round runs every case of both engines once, in a new shuffled order,
as real processes: the first search's build (`memkit index` with no index), a warm
`memkit search` (each round another query), a search after one memory was replaced
(an update), and the bare interpreter and `memkit --version` as floors. Prints each
case's median wall time, CPU time (user + system) and peak memory, and each engine's
index size on disk against the memories' own.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_floor import size_mb  # noqa: E402
from real_store import ENV, grow  # noqa: E402

PY = sys.executable
QUERIES = [
    "fixture teardown order",
    "parametrize ids",
    "capture output on windows",
    "deprecation warning plugin",
    "assertion rewrite import hook",
    "tmp_path cleanup",
    "junitxml report",
    "skip marker reason",
]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("mirror", type=Path)
    ap.add_argument("other", type=Path, help="a folder holding the other version's memkit/")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dir", type=Path, help="reuse (or create) the store here")
    ap.add_argument("--this", type=Path, default=HERE.parent, help="this version's folder")
    args = ap.parse_args()
    root = args.dir or Path(tempfile.mkdtemp(prefix="memkit-engines-"))
    if not (root / ".memory").is_dir():
        grow(args.mirror, args.n, root)
    mems = sorted((root / ".memory").rglob("*.md"))
    caches = Path(tempfile.mkdtemp(prefix="memkit-engines-cache-"))
    engines = {"this": args.this.resolve(), "other": args.other.resolve()}
    envs = {
        name: {**ENV, "PYTHONPATH": str(code), "MEMKIT_CACHE_DIR": str(caches / name)}
        for name, code in engines.items()
    }
    for env in envs.values():
        subprocess.run([PY, "-m", "memkit", "index"], cwd=root, env=env, check=True,
                       capture_output=True)  # fmt: skip
    turn = {"n": 0}

    def query() -> list[str]:
        turn["n"] += 1
        return ["search", QUERIES[turn["n"] % len(QUERIES)]]

    def replace_one() -> None:  # a new file renamed over one memory: its folder changes
        one = mems[(turn["n"] * 7919) % len(mems)]
        text = one.read_text("utf-8")
        tmp = one.with_name(f".{one.name}.tmp")
        tmp.write_text(text[:-1] if text.endswith("\n\n") else text + "\n", "utf-8")
        os.replace(tmp, one)

    cases: dict[str, tuple[str | None, Callable[[], list[str]], Callable[[], None] | None]] = {
        "python -c pass": (None, lambda: ["-c", "pass"], None),
    }
    for name in engines:
        [project] = (caches / name).iterdir()  # MEMKIT_CACHE_DIR has a folder per project
        search_dir = project / "search"
        cases[f"{name}: memkit --version"] = (name, lambda: ["-m", "memkit", "--version"], None)
        cases[f"{name}: build (index)"] = (
            name,
            lambda: ["-m", "memkit", "index"],
            lambda d=search_dir: shutil.rmtree(d, ignore_errors=True),  # type: ignore[misc]
        )
        cases[f"{name}: search (warm)"] = (name, lambda: ["-m", "memkit", *query()], None)
        cases[f"{name}: search (1 replaced)"] = (
            name,
            lambda: ["-m", "memkit", *query()],
            replace_one,
        )
    got: dict[str, list[tuple[float, ...]]] = {k: [] for k in cases}
    rng = random.Random(11)
    for _ in range(args.rounds):
        order = list(cases)
        rng.shuffle(order)
        for case in order:
            engine, argv, setup = cases[case]
            env = envs[engine] if engine else ENV
            if engine and case.endswith("(warm)"):  # warm: whatever ran before is indexed
                subprocess.run([PY, "-m", "memkit", "index"], cwd=root, env=env,
                               capture_output=True)  # fmt: skip
            got[case].append(run_env([PY, *argv()], root, env, setup))
    med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in got.items()}
    print(f"{len(mems)} memories ({size_mb(root / '.memory'):.1f} MB) in {root}; "
          f"{args.rounds} rounds, medians; load {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"this: {engines['this']}; other: {engines['other']}")
    print(f"{'':32}{'wall s':>8}{'CPU s':>8}{'MB':>7}")
    for case in cases:
        w, c, m = med[case]
        print(f"{case:32}{w:8.3f}{c:8.3f}{m:7.0f}")
    for name in engines:
        [project] = (caches / name).iterdir()
        print(f"{name}: index on disk {size_mb(project / 'search'):.1f} MB")
    shutil.rmtree(caches, ignore_errors=True)


def run_env(
    cmd: list[str], root: Path, env: dict[str, str], setup: Callable[[], None] | None
) -> tuple[float, ...]:
    """(wall s, CPU s, max RSS MB) of one process; `setup` runs first, untimed."""
    if setup:
        setup()
    start = time.perf_counter()
    # posix_spawn (no fork of this big process): the child's peak memory is its own
    null = os.open(os.devnull, os.O_WRONLY)
    here = os.getcwd()
    os.chdir(root)
    try:
        acts = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
        pid = os.posix_spawn(cmd[0], cmd, env, file_actions=acts)
    finally:
        os.chdir(here)
        os.close(null)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"bench_engines: {' '.join(cmd)} failed")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


if __name__ == "__main__":
    main()
