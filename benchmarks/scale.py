#!/usr/bin/env python3
"""Every command on a large store: 50,000 memories in a 20,000-file repository.

    python benchmarks/scale.py [--memories 50000] [--files 20000] [--dir DIR]

Generates the repository with benchmarks/gen_store.py, then runs each memkit command
as a real process (cold: no parse cache or search index yet, then warm), checking its
exit code, and prints wall time and peak memory (max RSS) for each, the slowest command,
and how much memory each 1,000 more memories cost (against a store a tenth of the size).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_store import generate  # noqa: E402

# (label, args, allowed exit codes)
COMMANDS: list[tuple[str, list[str], set[int]]] = [
    ("validate", ["validate"], {0, 1}),
    ("list", ["list", "--json"], {0}),
    ("show", ["show", "{id}"], {0}),
    ("add", ["add", "Scale probe", "--body", "added at scale", "--tag", "scale"], {0}),
    ("edit", ["edit", "{id}"], {0}),
    ("check", ["check", "--json"], {0, 1}),
    ("verify", ["verify", "{id}"], {0}),
    ("compile", ["compile"], {0}),
    ("compile --check", ["compile", "--check"], {0, 1}),
    ("index", ["index"], {0}),
    ("search", ["search", "retry session", "--json"], {0, 1}),
    ("context", ["context", "-f", "{file}", "-q", "retry"], {0}),
    ("log", ["log", "-n", "5"], {0}),
    ("diff", ["diff", "HEAD"], {0, 1}),
    ("revert", ["revert", "{id}"], {0, 2}),
    ("import", ["import", "--dry-run", "IMPORT.md"], {0}),
    ("rm", ["rm", "scale-probe"], {0}),
]


WRAPPER = """
import json, os, resource, subprocess, sys, time
t = time.perf_counter()
r = subprocess.run(json.loads(sys.argv[1]), capture_output=True, text=True)
secs = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(json.dumps([secs, peak, r.returncode, r.stderr.strip()[-300:]]))
"""


def run(root: Path, args: list[str]) -> tuple[float, int, int, str]:
    """(seconds, peak RSS in MB of that one command, exit code, stderr tail)."""
    import json

    argv = json.dumps([sys.executable, "-m", "memkit", *args])
    out = subprocess.run(
        [sys.executable, "-c", WRAPPER, argv],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "MEMKIT_ROOT": str(root), "EDITOR": "touch"},
        timeout=3600,
    )
    secs, peak, code, err = json.loads(out.stdout)
    return float(secs), int(peak), int(code), str(err)


def measure(root: Path, label: str) -> list[tuple[str, float, int, int, str]]:
    files = sorted((root / ".memory").rglob("*.md"))
    mid = files[len(files) // 2].stem
    src = sorted((root / "src").rglob("*.py"))[0].relative_to(root).as_posix()
    (root / "IMPORT.md").write_text("# Rules\n\n## Use UTC\n\nAlways UTC.\n", encoding="utf-8")
    rows = []
    for name, args, ok in COMMANDS:
        argv = [a.format(id=mid, file=src) for a in args]
        secs, rss, code, err = run(root, argv)
        status = "ok" if code in ok else f"FAILED (exit {code}: {err})"
        rows.append((name, secs, rss, code, status))
        print(f"  [{label}] {name:<16} {secs:8.2f} s  {rss:5d} MB  {status}", flush=True)
    return rows


def rss_of(root: Path, args: list[str]) -> int:
    return run(root, args)[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=50_000)
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--dir", type=Path)
    a = ap.parse_args()
    base = a.dir or Path(tempfile.mkdtemp(prefix="memkit-scale-"))
    big, small = base / "big", base / "small"
    t = time.perf_counter()
    generate(a.memories, big, files=a.files)
    generate(a.memories // 10, small, files=a.files // 10)
    print(f"generated {a.memories} memories / {a.files} files in {time.perf_counter() - t:.0f} s")
    rows = measure(big, "big")
    failed = [r for r in rows if r[4] != "ok"]
    slowest = max(rows, key=lambda r: r[1])
    print(f"slowest command: {slowest[0]} ({slowest[1]:.2f} s)")
    print(f"commands failed: {len(failed)}")
    for args in (["validate"], ["list", "--json"], ["compile", "--check"], ["search", "retry"]):
        rb, rs = rss_of(big, args), rss_of(small, args)
        extra = (rb - rs) / (a.memories - a.memories // 10) * 1000
        print(f"memory {' '.join(args):<16} {rb:5d} MB at {a.memories}, {rs:5d} MB at "
              f"{a.memories // 10}: {extra:.2f} MB more per 1,000 memories")  # fmt: skip
    if a.dir is None:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
