#!/usr/bin/env python3
"""Every store-wide command against its floor, on a store grown from a real repository.

    python benchmarks/bench_floor.py MIRROR [--n 10000] [--rounds 5] [--dir DIR] [--semantic]

MIRROR is a git directory (see benchmarks/real_store.py, which grows the store: the
code of the mirror's HEAD and N memories from its commit messages). Each round runs
every command and every floor once, in a new shuffled order, as real processes, so
the machine's load hits them alike; the table gives each one's median wall time, CPU
time (user + system) and peak memory, and its ratio to its floor in the same run.

Floors: `python -c pass` (a bare interpreter), `git status`, reading every memory file
(stat and read, in one Python process), `grep -ril` over .memory/. Commands: warm
`search`, `context --file`, `list --json` and `validate` (a store load), `compile`
(warm, and with the parse cache cleared), `check`, `index` from nothing (the first
search's build), a `git commit` touching one memory or none with the pre-commit hook
against `git commit --no-verify`, and `search --semantic` with --semantic. Also the
index's size on disk against the memories' own.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from real_store import ENV, grow  # noqa: E402

PY = sys.executable
MEMKIT = [PY, "-m", "memkit"]
READ_ALL = (
    "import os\n"
    "for d, _, fs in os.walk('.memory'):\n"
    "    for f in fs:\n"
    "        p = os.path.join(d, f); os.stat(p); open(p, 'rb').read()\n"
)


def run(cmd: list[str], root: Path, setup: Callable[[], None] | None = None) -> tuple[float, ...]:
    """(wall s, CPU s, max RSS MB) of one process; `setup` runs first, untimed."""
    if setup:
        setup()
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=root, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"bench_floor: {' '.join(cmd)} exited {code}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("mirror", type=Path)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dir", type=Path, help="reuse (or create) the store here")
    ap.add_argument("--semantic", action="store_true", help="also time search --semantic")
    args = ap.parse_args()
    root = args.dir or Path(tempfile.mkdtemp(prefix="memkit-floor-"))
    if not (root / ".memory").is_dir():
        grow(args.mirror, args.n, root)
    mems = sorted((root / ".memory").rglob("*.md"))
    one = mems[len(mems) // 2]
    cache = root / Path(
        subprocess.run(
            [PY, "-c", "from memkit import cachedir; print(cachedir.cache_dir('.'))"],
            cwd=root, capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    src = next(p for p in ("src/_pytest/fixtures.py", "README.md") if (root / p).exists())
    word = "fixture teardown order"
    subprocess.run([*MEMKIT, "hooks", "install"], cwd=root, env=ENV, check=True,
                   capture_output=True)  # fmt: skip
    for warm in (["index"], ["compile"], ["list"], ["check"]):
        subprocess.run([*MEMKIT, *warm], cwd=root, env=ENV, capture_output=True)
    subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)
    subprocess.run(
        ["git", "commit", "-qm", "outputs", "--no-verify"], cwd=root, env=ENV, capture_output=True
    )  # fmt: skip (nothing to commit is fine)

    def touch() -> None:  # one memory's body gains or loses a trailing blank line
        text = one.read_text("utf-8")
        one.write_text(text[:-1] if text.endswith("\n\n") else text + "\n", "utf-8")
        subprocess.run(["git", "add", str(one)], cwd=root, env=ENV, check=True)

    def code_change() -> None:
        f = root / "bench-touched.txt"
        f.write_text(str(time.time_ns()))
        subprocess.run(["git", "add", str(f)], cwd=root, env=ENV, check=True)

    def drop_parse_cache() -> None:
        (cache / "parsed.db").unlink(missing_ok=True)

    def drop_index() -> None:  # the keyword index only: the vectors stay
        for name in ("index.db", "state.json"):
            (cache / "search" / name).unlink(missing_ok=True)

    commit = ["git", "commit", "-qm", "bench"]
    cases: dict[str, tuple[list[str], Callable[[], None] | None, str]] = {
        "python -c pass": ([PY, "-c", "pass"], None, ""),
        "git status": (["git", "status", "--porcelain"], None, ""),
        "read all memory files": ([PY, "-c", READ_ALL], None, ""),
        "grep -ril": (["grep", "-ril", "fixture", ".memory"], None, ""),
        "search (warm)": ([*MEMKIT, "search", word], None, "grep -ril"),
        "context --file": ([*MEMKIT, "context", "--file", src], None, "python -c pass"),
        "list --json": ([*MEMKIT, "list", "--json"], None, "read all memory files"),
        "validate": ([*MEMKIT, "validate"], None, "read all memory files"),
        "compile (warm)": ([*MEMKIT, "compile"], None, "read all memory files"),
        "compile (no parse cache)": (
            [*MEMKIT, "compile"],
            drop_parse_cache,
            "read all memory files",
        ),
        "check": ([*MEMKIT, "check"], None, "git status"),
        "index from nothing": ([*MEMKIT, "index"], drop_index, "read all memory files"),
        "commit, no hook, one memory": ([*commit, "--no-verify"], touch, ""),
        "commit + hook, one memory": (commit, touch, "commit, no hook, one memory"),
        "commit, no hook, no memory": ([*commit, "--no-verify"], code_change, ""),
        "commit + hook, no memory": (commit, code_change, "commit, no hook, no memory"),
    }
    if args.semantic:
        subprocess.run([*MEMKIT, "index", "--semantic"], cwd=root, env=ENV, check=True,
                       capture_output=True)  # fmt: skip
        cases["search --semantic"] = (
            [*MEMKIT, "search", "--semantic", word],
            None,
            "grep -ril",
        )
    got: dict[str, list[tuple[float, ...]]] = {k: [] for k in cases}
    rng = random.Random(7)
    for _ in range(args.rounds):
        order = list(cases)
        rng.shuffle(order)
        for name in order:
            cmd, setup, _ = cases[name]
            got[name].append(run(cmd, root, setup))
    subprocess.run([*MEMKIT, "index"], cwd=root, env=ENV, capture_output=True)
    med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in got.items()}
    print(f"{len(mems)} memories ({size_mb(root / '.memory'):.1f} MB) in {root}; "
          f"{args.rounds} rounds, medians; load {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"{'':28}{'wall s':>8}{'CPU s':>8}{'MB':>7}  vs floor (wall, CPU)")
    for name, (_, _, floor) in cases.items():
        w, c, m = med[name]
        line = f"{name:28}{w:8.3f}{c:8.3f}{m:7.0f}"
        if floor and floor in med:
            fw, fc, _ = med[floor]
            extra = "+" if floor.startswith("commit") else "x"
            if extra == "+":
                line += f"  {(w - fw) * 1000:+.0f} ms, {(c - fc) * 1000:+.0f} ms CPU"
            else:
                line += f"  {w / fw:.1f}x, {c / fc:.1f}x  ({floor})"
        print(line)
    print(f"index on disk {size_mb(cache / 'search'):.1f} MB "
          f"(memories {size_mb(root / '.memory'):.1f} MB)")  # fmt: skip


if __name__ == "__main__":
    main()
