#!/usr/bin/env python3
"""Time `memkit report` and the page it writes in headless Chromium, at store sizes N.

    python benchmarks/bench_report.py [--sizes 1000,10000] [--runs 3] [--keep DIR]

For each N, benchmarks/gen_store.py writes a realistic store of N memories into a
fresh git repository (a third linked to real symbols, a third path-scoped), then
it reports, as the median of --runs:

  memkit report     wall and CPU seconds (user + system) and peak memory of the
                    whole command; on a busy machine CPU seconds are the steadier figure
  page size         megabytes of the HTML file
  browser           seconds from navigation to the load event, and the main
                    thread's busy time (Chromium's TaskDuration metric) for that
                    load and for one filtering of every memory, in Debian's
                    Chromium driven by Playwright (skipped when either is missing)

Figures print as a table; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
MEMKIT = Path(sys.executable).with_name("memkit")
FLAGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip


def run_report(repo: Path, out: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of `memkit report`."""
    start = time.perf_counter()
    env = {**os.environ, "MEMKIT_TODAY": "2026-06-01"}
    cmd = [str(MEMKIT), "report", "-o", str(out)]
    proc = subprocess.Popen(cmd, cwd=repo, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"memkit report failed in {repo}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def browser_times(page: Path) -> tuple[float, float, float] | None:
    """Load seconds, and main-thread busy seconds for the load and for one filtering."""
    exe = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if exe is None:
        return None
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=FLAGS, chromium_sandbox=False)
        tab = b.new_page()
        cdp = tab.context.new_cdp_session(tab)
        cdp.send("Performance.enable")

        def busy() -> float:
            metrics = cdp.send("Performance.getMetrics")["metrics"]
            return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))

        start = time.perf_counter()
        tab.goto(page.as_uri(), wait_until="load")
        loaded = time.perf_counter() - start
        load_busy = busy()
        tab.fill("#q", "cache")
        tab.evaluate("document.getElementById('shown').textContent")
        filter_busy = busy() - load_busy
        b.close()
    return loaded, load_busy, filter_busy


def main() -> None:
    from gen_store import generate

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="build the stores here and keep them")
    args = ap.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="memkit-bench-report-"))
    print("     N  report s  CPU s  peak MB  page MB  load s  load busy s  filter busy s")
    for n in (int(x) for x in args.sizes.split(",")):
        repo = base / f"store-{n}"
        if not (repo / ".memory").is_dir():
            generate(n, repo)
        out = base / f"report-{n}.html"
        runs = [run_report(repo, out) for _ in range(args.runs)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        peak = max(r[2] for r in runs)
        size = out.stat().st_size / 1e6
        got = [browser_times(out) for _ in range(args.runs)]
        times = [t for t in got if t is not None]
        if times:
            load, busy, filt = (statistics.median(t[i] for t in times) for i in range(3))
            web = f"{load:6.2f}  {busy:11.2f}  {filt:13.2f}"
        else:
            web = "(no chromium or playwright)"
        print(f"{n:>6}  {wall:8.2f}  {cpu:5.2f}  {peak:7.0f}  {size:7.2f}  {web}")
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
