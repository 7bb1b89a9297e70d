#!/usr/bin/env python3
"""Time `memkit compile` against ruler and rulesync on the same rules, side by side.

    python benchmarks/bench_compile.py [--sizes 100,1000,10000] [--runs 5]
                                       [--peers-max 1000] [--peers DIR] [--keep DIR]

For each N, the peers' generator (PEERS/gen_rules.py) writes N synthetic rules, a
third path-scoped; the same texts become N memkit memories (title from the
description, `paths` from the globs, "**/*" meaning always on). Then, alternating
the tools within one run, it times the whole command (median of --runs, a fresh
copy for every cold run) and reports peak memory:

  memkit compile         cold: no outputs and no parse cache yet (four targets)
  memkit compile         no-op: nothing changed since the last run
  memkit compile --check nothing to do
  memkit compile         on benchmarks/gen_store.py's store of N (links to real
                         symbols, so the staleness check runs too), cold and no-op
  ruler apply / rulesync generate (three targets each), and their checks.

Peers run when `ruler` and `rulesync` are on PATH (see PEERS/README.md) and N is
at most --peers-max. Figures print as a table; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEMKIT = Path(sys.executable).with_name("memkit")
PEERS = Path(os.environ.get("MEMKIT_PEERS", "/work/shared/peers"))
# Measure memkit as installed, with its modules' bytecode cached (pip writes it for a
# wheel); PYTHONDONTWRITEBYTECODE would recompile every module on every run.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one command, run to completion."""
    import time

    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=ENV)  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{' '.join(cmd)} exited {code} in {cwd}:\n{err}")
    return elapsed, usage.ru_maxrss / 1024


def memkit_store(rules: Path, out: Path) -> None:
    """The rulesync rules as memkit memories in a git repository at `out`."""
    mem = out / ".memory"
    mem.mkdir(parents=True)
    (mem / "config.toml").write_text(
        '[compile]\ntargets = ["agents", "claude", "cursor", "copilot"]\n'
    )
    (mem / ".gitignore").write_text(".cache/\n")
    for src in sorted(rules.glob("*.md")):
        text = src.read_text("utf-8")
        _, front, body = text.split("---\n", 2)
        desc = re.search(r'^description: "(.*)"$', front, re.M)
        globs = re.search(r"^globs: \[(.*)\]$", front, re.M)
        paths = [g.strip().strip('"') for g in globs.group(1).split(",")] if globs else []
        paths = [p for p in paths if p != "**/*"]
        fm = [f'title: "{desc.group(1) if desc else src.stem}"', "type: convention"]
        if paths:
            fm += ["paths:", *[f"- '{p}'" for p in paths]]
        (mem / src.name).write_text("---\n" + "\n".join(fm) + "\n---\n" + body)
    subprocess.run(["git", "init", "-q"], cwd=out, check=True)


Case = tuple[str, Callable[[], Path], list[str], tuple[int, ...], bool]  # name, dir, cmd, ok, fresh


def bench(n: int, runs: int, work: Path, peers: bool) -> dict[str, tuple[float, float]]:
    subprocess.run([sys.executable, str(PEERS / "gen_rules.py"), str(n), str(work)], check=True)
    memkit_store(work / f"rulesync-{n}" / ".rulesync" / "rules", work / f"memkit-{n}")
    sys.path.insert(0, str(HERE))
    from gen_store import generate  # a realistic store: links to real symbols, folders, tags

    generate(n, work / f"store-{n}")
    counter = iter(range(10**6))

    def fresh(name: str) -> Callable[[], Path]:
        def make() -> Path:
            dst = work / f"run-{next(counter)}"
            shutil.copytree(work / name, dst, symlinks=True)
            return dst

        return make

    def ready(name: str, cmd: list[str]) -> Callable[[], Path]:
        path = fresh(name)()
        timed(cmd, path)  # outputs (and memkit's parse cache) in place
        return lambda: path

    mk = str(MEMKIT)
    cases: list[Case] = [
        ("memkit compile (cold)", fresh(f"memkit-{n}"), [mk, "compile"], (0,), True),
        ("memkit compile (no-op)", ready(f"memkit-{n}", [mk, "compile"]), [mk, "compile"],
         (0,), False),
    ]  # fmt: skip
    warm = cases[-1][1]
    cases.append(("memkit compile --check", warm, [mk, "compile", "--check"], (0,), False))
    cases.append(("memkit --version (startup)", warm, [mk, "--version"], (0,), False))
    cases += [
        ("memkit, gen_store (cold)", fresh(f"store-{n}"), [mk, "compile"], (0,), True),
        ("memkit, gen_store (no-op)", ready(f"store-{n}", [mk, "compile"]), [mk, "compile"],
         (0,), False),
    ]  # fmt: skip
    if peers:
        ruler, sync = ["ruler", "apply", "--no-mcp"], ["rulesync", "generate", "--silent"]
        cases += [
            ("ruler apply", fresh(f"ruler-{n}"), ruler, (0,), True),
            ("ruler apply --dry-run", ready(f"ruler-{n}", ruler), [*ruler, "--dry-run"], (0,),
             False),
            ("rulesync generate", fresh(f"rulesync-{n}"), sync, (0,), True),
            ("rulesync generate --check", ready(f"rulesync-{n}", sync),
             ["rulesync", "generate", "--check"], (0, 1), False),
        ]  # fmt: skip
    times: dict[str, list[float]] = {}
    mems: dict[str, list[float]] = {}
    for _ in range(runs):  # alternate the tools: one run of each case per round
        for name, prepare, cmd, ok, is_fresh in cases:
            path = prepare()
            t, m = timed(cmd, path, ok)
            times.setdefault(name, []).append(t)
            mems.setdefault(name, []).append(m)
            if is_fresh:
                shutil.rmtree(path, ignore_errors=True)
    print(f"  memkit AGENTS.md: {(warm() / 'AGENTS.md').stat().st_size:,} bytes")
    return {k: (statistics.median(v), max(mems[k])) for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peers-max", type=int, default=1000)
    ap.add_argument("--keep", type=Path, help="work in this directory and keep it")
    args = ap.parse_args()
    subprocess.run([str(MEMKIT), "--version"], env=ENV, check=True, capture_output=True)
    have_peers = bool(shutil.which("ruler") and shutil.which("rulesync"))
    if not have_peers:
        print("ruler/rulesync not on PATH: timing memkit only (see the peers README)")
    rows = []
    for n in (int(x) for x in args.sizes.split(",")):
        work = args.keep / str(n) if args.keep else Path(tempfile.mkdtemp(prefix=f"bench-{n}-"))
        work.mkdir(parents=True, exist_ok=True)
        print(f"N = {n:,} ({args.runs} runs each)", flush=True)
        res = bench(n, args.runs, work, have_peers and n <= args.peers_max)
        rows += [(n, name, t, m) for name, (t, m) in res.items()]
        for name, (t, m) in res.items():
            print(f"  {name:<28} {t:>7.3f} s {m:>6.0f} MB", flush=True)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'N':>6}  {'command':<28} {'median s':>9} {'peak MB':>8}")
    for n, name, t, m in rows:
        print(f"{n:>6}  {name:<28} {t:>9.3f} {m:>8.0f}")


if __name__ == "__main__":
    main()
