#!/usr/bin/env python3
"""How each store-wide command's cost grows with the number of memories: a fitted exponent.

    python benchmarks/growth.py STORE... [--rounds 3] [--only NAME,...]

Each STORE is a store of a different size grown by benchmarks/real_store.py from the
same mirror (for example 1,000, 10,000 and 50,000 memories). Each round runs every
command once on every store, in a new shuffled order, as real processes; the table
gives the median CPU time (user + system, the process and its children) and peak
memory of each, and the exponent k of CPU = c * memories^k fitted by least squares
on log-log (1: linear; below 1: fixed costs still weigh, or better than linear).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_engines import run_env  # noqa: E402
from real_store import ENV  # noqa: E402

PY = sys.executable
WORD = "fixture teardown order"


def cache_of(root: Path) -> Path:
    return root / ".git" / "memkit"


def commands(root: Path) -> dict[str, tuple[list[str], Callable[[], None] | None]]:
    cache = cache_of(root)
    src = next(p for p in ("src/_pytest/fixtures.py", "README.md") if (root / p).exists())

    def drop(*names: str) -> Callable[[], None]:
        def setup() -> None:
            for n in names:
                (cache / n).unlink(missing_ok=True)

        return setup

    m = [PY, "-m", "memkit"]
    return {
        "search (warm)": ([*m, "search", WORD], None),
        "index from nothing": ([*m, "index"], drop("search/index.db", "search/state.json")),
        "context --file": ([*m, "context", "--file", src], None),
        "list --json": ([*m, "list", "--json"], None),
        "validate": ([*m, "validate"], None),
        "check": ([*m, "check"], None),
        "compile (warm)": ([*m, "compile"], None),
        "compile (no parse cache)": ([*m, "compile"], drop("parsed.db")),
    }


def fit(points: list[tuple[float, float]]) -> float:
    """The slope of log(y) against log(x), least squares."""
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(max(y, 1e-4)) for _, y in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    den = sum((x - mx) ** 2 for x in xs)
    return num / den


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("stores", type=Path, nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated command names")
    args = ap.parse_args()
    env = {k: v for k, v in ENV.items() if k != "MEMKIT_CACHE_DIR"}
    sizes = {root: sum(1 for _ in (root / ".memory").rglob("*.md")) for root in args.stores}
    cases = {}
    for root in args.stores:
        for name, (argv, setup) in commands(root).items():
            if not args.only or name in args.only.split(","):
                cases[(name, root)] = (argv, setup)
    for root in args.stores:  # warm every cache first
        for argv in (["index"], ["list"], ["compile"], ["check"]):
            run_env([PY, "-m", "memkit", *argv], root, env, None)
    got: dict[tuple[str, Path], list[tuple[float, ...]]] = {k: [] for k in cases}
    rng = random.Random(5)
    for _ in range(args.rounds):
        order = list(cases)
        rng.shuffle(order)
        for key in order:
            argv, setup = cases[key]
            got[key].append(run_env(argv, key[1], env, setup))
    names = list(dict.fromkeys(name for name, _ in cases))
    print(f"{args.rounds} rounds, medians, load {os.getloadavg()[0]:.1f}; CPU s (peak MB)")
    head = "".join(f"{sizes[r]:>16,}" for r in args.stores)
    print(f"{'':26}{head}{'exponent':>10}")
    for name in names:
        cells, points = "", []
        for root in args.stores:
            runs = got[(name, root)]
            cpu = statistics.median(r[1] for r in runs)
            mb = max(r[2] for r in runs)
            cells += f"{cpu:>9.3f} ({mb:>3.0f})"
            points.append((sizes[root], cpu))
        print(f"{name:26}{cells}{fit(points):>10.2f}")


if __name__ == "__main__":
    main()
