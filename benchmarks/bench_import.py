"""How `memkit import` grows with the number of sections in one instruction file.

    python benchmarks/bench_import.py [--sizes 300,600,1200,2400] [--rounds 3]

For each size N a new repository with an initialised store gets a markdown file of N
`## Rule` sections, and `memkit import FILE` runs on it as a real process (memkit
byte-compiled first). The table gives the median CPU time (user + system of the child)
and wall time per size, the time per section, and the exponent k of CPU = c * N^k
fitted on log-log between the sizes (1: linear). Import once walked the store for each
section it wrote, which made it quadratic: 2,000 sections took four times 1,000's twice
over. Sizes alternate inside each round (the machine is shared and noisy). Run on demand,
never in CI.
"""

from __future__ import annotations

import argparse
import compileall
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def repository(parent: Path, n: int) -> Path:
    """A repository with an initialised store and `rules.md` of `n` sections."""
    root = parent / f"repo-{n}"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Ada Lovelace")
    git(root, "config", "user.email", "ada@example.com")
    memkit(root, "init")
    text = "".join(f"## Rule {i}\n\nDo thing {i}.\n\n" for i in range(n))
    (root / "rules.md").write_text(text, encoding="utf-8")
    return root


def memkit(root: Path, *args: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one `memkit ARGS` process in `root`."""
    env = {**os.environ, "MEMKIT_TODAY": "2026-11-22"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "memkit", *args],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sizes", default="300,600,1200,2400", help="section counts, commas")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sizes = sorted({int(s) for s in args.sizes.split(",")})
    compileall.compile_dir(str(HERE.parent / "memkit"), quiet=1)
    tmp = Path(tempfile.mkdtemp(prefix="memkit-import-"))
    times: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
    for r in range(args.rounds):
        parent = tmp / f"round-{r}"
        parent.mkdir()
        for n in sizes if r % 2 == 0 else reversed(sizes):
            times[n].append(memkit(repository(parent, n), "import", "rules.md"))
    print(f"{'sections':>9} {'cpu s':>8} {'wall s':>8} {'cpu ms/section':>15} {'k':>6}")
    previous: tuple[int, float] | None = None
    for n in sizes:
        cpu = statistics.median(c for c, _ in times[n])
        wall = statistics.median(w for _, w in times[n])
        k = ""
        if previous is not None:
            k = f"{math.log(cpu / previous[1]) / math.log(n / previous[0]):6.2f}"
        print(f"{n:>9} {cpu:>8.2f} {wall:>8.2f} {1000 * cpu / n:>15.2f} {k:>6}")
        previous = (n, cpu)
    print(f"(repositories under {tmp})")


if __name__ == "__main__":
    main()
