#!/usr/bin/env python3
"""Store load and compile against the stat-and-read floor, this memkit beside an older one.

    python benchmarks/bench_load.py STORE... [--rounds 5] [--baseline DIR]

Each STORE is a store made by benchmarks/gen_store.py or benchmarks/real_store.py (for
example 1,000, 10,000 and 50,000 memories). DIR holds an older memkit package
(`git archive COMMIT memkit templates | tar -x -C DIR`), run with PYTHONPATH=DIR by this
interpreter; without it only this checkout is timed. Each round runs, in a new
shuffled order, as real processes and for each memkit: `compile` with the parse cache
cleared, `compile` with every derived cache cleared (parse cache, remembered budget
fits, records), `compile` with them warm, and an in-process probe that alternates a full store
load through the warm cache with the floor (stat and read every memory file), each
timed inside the same process after imports. The table gives medians of wall and CPU
time (user + system), the load's ratio to the floor, and with several stores the
exponent k of CPU = c * memories^k (least squares on log-log). Each memkit keeps its
parse cache in its own folder for each store (MEMKIT_CACHE_DIR).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_engines import run_env  # noqa: E402
from growth import fit  # noqa: E402

PY = sys.executable
# A full load (the process's memo of its last load forgotten) and the floor, alternating.
PROBE = """
import json, os, sys, time
from memkit.store import loading
from memkit.store.store import Store
root = sys.argv[1]
def floor():
    for d, _, fs in os.walk(os.path.join(root, ".memory")):
        for f in fs:
            p = os.path.join(d, f)
            os.stat(p)
            with open(p, "rb") as fh:
                fh.read()
def load():
    loading._LAST.clear()
    Store(root).load()
load()
out = {"load": [], "floor": []}
for _ in range(int(sys.argv[2])):
    for name, fn in (("load", load), ("floor", floor)):
        w, c = time.perf_counter(), time.process_time()
        fn()
        out[name].append((time.perf_counter() - w, time.process_time() - c))
print(json.dumps(out))
"""


def probe(root: Path, env: dict[str, str], repeat: int) -> dict[str, tuple[float, float]]:
    """In-process medians (wall, CPU) of a warm store load and of the floor."""
    argv = [PY, "-c", PROBE, str(root), str(repeat)]
    out = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    return {k: tuple(statistics.median(x[i] for x in v) for i in (0, 1)) for k, v in got.items()}


def _remove(path: Path) -> None:
    """Remove a derived file or folder of memkit's cache (parse cache, fits, indexes...)."""
    import shutil

    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("stores", type=Path, nargs="+")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="a folder holding an older memkit package")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="memkit-load-"))
    impls = {"this": {**os.environ}}
    compileall.compile_dir(str(HERE.parent / "memkit"), quiet=1)
    if args.baseline:
        compileall.compile_dir(str(args.baseline / "memkit"), quiet=1)
        impls["baseline"] = {**os.environ, "PYTHONPATH": str(args.baseline)}
    for env in impls.values():
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    sizes = {r: sum(1 for _ in (r / ".memory").rglob("*.md")) for r in args.stores}
    envs: dict[tuple[str, Path], dict[str, str]] = {}
    cases: dict[tuple[str, str, Path], tuple[list[str], Callable[[], None] | None]] = {}
    for n, root in enumerate(args.stores):
        for impl in impls:
            cache = tmp / f"{impl}-{n}"  # this memkit's parse cache for this store alone
            envs[(impl, root)] = {**impls[impl], "MEMKIT_CACHE_DIR": str(cache)}
            cases[("compile, cache cleared", impl, root)] = (
                [PY, "-m", "memkit", "compile"],
                lambda d=cache: [p.unlink() for p in d.glob("*/parsed.db")] and None,
            )
            cases[("compile, every cache cleared", impl, root)] = (
                [PY, "-m", "memkit", "compile"],
                lambda d=cache: [_remove(p) for p in d.glob("*/*")] and None,
            )
            cases[("compile, cache warm", impl, root)] = ([PY, "-m", "memkit", "compile"], None)
            run_env([PY, "-m", "memkit", "compile"], root, envs[(impl, root)], None)  # warm up
    got: dict[tuple[str, str, Path], list[tuple[float, ...]]] = {k: [] for k in cases}
    probes: dict[tuple[str, Path], list[dict[str, tuple[float, float]]]] = {}
    rng = random.Random(11)
    for _ in range(args.rounds):
        order = list(cases) + [("probe", impl, root) for impl in impls for root in args.stores]
        rng.shuffle(order)
        for key in order:
            name, impl, root = key
            if name == "probe":
                probes.setdefault((impl, root), []).append(probe(root, envs[(impl, root)], 3))
                continue
            argv, setup = cases[key]
            got[key].append(run_env(argv, root, envs[(impl, root)], setup))
    report(args.stores, sizes, impls, got, probes)


def report(
    stores: list[Path],
    sizes: dict[Path, int],
    impls: dict[str, dict[str, str]],
    got: dict[tuple[str, str, Path], list[tuple[float, ...]]],
    probes: dict[tuple[str, Path], list[dict[str, tuple[float, float]]]],
) -> None:
    rows: dict[tuple[str, str], dict[Path, tuple[float, float]]] = {}
    for (name, impl, root), runs in got.items():
        rows.setdefault((name, impl), {})[root] = (
            statistics.median(r[0] for r in runs),
            statistics.median(r[1] for r in runs),
        )
    for (impl, root), runs in probes.items():
        for what in ("load", "floor"):
            label = (
                "store load (in process)" if what == "load" else "floor: stat + read (in process)"
            )
            rows.setdefault((label, impl), {})[root] = (
                statistics.median(r[what][0] for r in runs),
                statistics.median(r[what][1] for r in runs),
            )
    print(f"load average {os.getloadavg()[0]:.1f}; medians, wall s / CPU s")
    growth = len({sizes[r] for r in stores}) > 1
    print("stores: " + ", ".join(f"{r.name} ({sizes[r]:,} memories)" for r in stores))
    head = "".join(f"{r.name[-17:]:>18}" for r in stores)
    print(f"{'':34}{'memkit':>9}{head}{'k (CPU)' if growth else '':>9}")
    for (name, impl), cells in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        line = f"{name:34}{impl:>9}"
        for root in stores:
            w, c = cells[root]
            line += f"{w:>9.3f} /{c:>7.3f}"
        pts = [(sizes[r], cells[r][1]) for r in stores]
        line += f"{fit(pts):>9.2f}" if growth else ""
        print(line)
    for impl in impls:
        for root in stores:
            load = rows[("store load (in process)", impl)][root]
            floor = rows[("floor: stat + read (in process)", impl)][root]
            print(f"{impl}, {root.name}: load / floor = {load[0] / floor[0]:.2f} "
                  f"wall, {load[1] / floor[1]:.2f} CPU")  # fmt: skip


if __name__ == "__main__":
    main()
