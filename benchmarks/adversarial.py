#!/usr/bin/env python3
"""Replay a whole adversarial run against memkit and print its figures.

    python benchmarks/adversarial.py [--quick] [--dir DIR] [--keep] [--json OUT]

Builds everything in a temp dir (real git repositories, real `memkit` processes run as
`sys.executable -P -m memkit`: as the console script, with the work tree off the import
path) and runs these sections:

1. kill -9 per write path: every writing command, the MCP server, the pre-commit hook
   under `git commit` and the Stop hook are killed with SIGKILL at their I/O calls; each
   file must be its old or its new version, the store must validate, git must pass fsck
   and still commit, and running the command again must work.
2. concurrency: 16 CLI writers, two MCP servers, Claude Code hooks and git commits on one
   store at once; every acknowledged write must be in the final state.
3. secrets: 81 realistic fake secrets through every way into the store.
4. hostile repositories: one per threat item of docs/reliability.md, every command run
   over each; code execution, reads and writes outside the repository, hangs, tracebacks.
5. bad input: bad CLI invocations, bad hook payloads, garbage to the MCP server.
6. team stores and served repositories: tree bombs, big blobs, remote-helper
   transports, pins (benchmarks/adv_stores.py).
7. pull-request and agent inputs: pathological globs, resumed edits, unlabelled
   secrets (benchmarks/adv_inputs.py).
8. what a pull request can change through the work tree: links between tracked files,
   harvest settings, report overrides, file names that are not UTF-8, review markdown
   (benchmarks/adv_tree.py).
9. what agents are given: deep paths through the point-of-action lookup (1, 4 and 64 KB),
   and separators, controls and bidi on every route into an agent (benchmarks/adv_agenttext.py).

Prints one line per section, then the details and examples of every figure that is not 0;
exits 1 if any figure that must be 0 is not. `--quick` is a reduced run (a few minutes on
two cores); the full run takes about 20 minutes there.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import adv_agenttext
import adv_badinput
import adv_concurrency
import adv_crash
import adv_hostile
import adv_inputs
import adv_secrets
import adv_stores
import adv_tree
from adv_common import ROOT, Section, isolated_env


def header(quick: bool) -> str:
    from memkit import __version__

    git = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    return (
        f"memkit {__version__} adversarial run{' (quick)' if quick else ''}: "
        f"{dt.datetime.now().isoformat(timespec='seconds')}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {git}, {platform.system()} "
        f"{platform.release()}"
    )


def sections(
    a: argparse.Namespace, base: Path, env: dict[str, str]
) -> list[tuple[int, str, Callable[[], Section], Callable[[Section], str]]]:
    jobs = a.jobs or os.cpu_count() or 2
    seconds = a.seconds or (20 if a.quick else 180)
    return [
        (
            1,
            "kill -9 per write path",
            lambda: adv_crash.run_section(base, env, quick=a.quick, cap=a.crash_points, jobs=jobs),
            adv_crash.summary,
        ),
        (
            2,
            "concurrency",
            lambda: adv_concurrency.run_section(
                base, env, seconds=seconds, writers=a.writers, hang=a.hang
            ),
            adv_concurrency.summary,
        ),
        (
            3,
            "secrets through every write path",
            lambda: adv_secrets.run_section(base, env, quick=a.quick, jobs=jobs),
            adv_secrets.summary,
        ),
        (
            4,
            "hostile repositories",
            lambda: adv_hostile.run_section(base, env, quick=a.quick, jobs=jobs, timeout=a.timeout),
            adv_hostile.summary,
        ),
        (
            5,
            "bad input",
            lambda: adv_badinput.run_section(
                base, env, quick=a.quick, jobs=jobs, timeout=min(a.timeout, 30)
            ),
            adv_badinput.summary,
        ),
        (
            6,
            "team stores and served repos",
            lambda: adv_stores.run_section(base, env, timeout=a.timeout),
            adv_stores.summary,
        ),
        (
            7,
            "pull-request and agent inputs",
            lambda: adv_inputs.run_section(base, env),
            adv_inputs.summary,
        ),
        *adv_tree.sections(a, base, env),
        *adv_agenttext.sections(a, base, env),
    ]


def report(done: list[tuple[Section, str]]) -> list[str]:
    """The lines after the table: details and examples of every figure that is not 0."""
    lines = []
    for section, _ in done:
        lines.append(f"\n== {section.number}. {section.title}")
        lines += [f"  {d}" for d in section.details]
        for f in section.figures.values():
            if f.value and f.examples:
                must = " (must be 0)" if f.zero else ""
                lines.append(f"  {f.name}: {f.value}{must}, e.g.")
                lines += [f"    - {x}" for x in f.examples]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a reduced run (a few minutes)")
    ap.add_argument("--dir", type=Path, help="work here (kept) instead of a temp dir")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    ap.add_argument("--json", type=Path, help="also write every figure and example here")
    ap.add_argument("--sections", default="1,2,3,4,5,6,7,8,9", help="which sections, e.g. 1,3")
    ap.add_argument(
        "--crash-points",
        type=int,
        default=36,
        help="kill points per write path, spread over its I/O calls (0: all)",
    )
    ap.add_argument("--seconds", type=float, help="concurrency run (default 180, quick 20)")
    ap.add_argument("--writers", type=int, default=16, help="concurrent CLI writers")
    ap.add_argument("--hang", type=float, default=120, help="a process slower than this hangs")
    ap.add_argument("--timeout", type=float, default=60, help="per command in sections 4-5")
    ap.add_argument("--jobs", type=int, help="parallel processes in sections 3-5 (default: cores)")
    a = ap.parse_args()
    base = a.dir.resolve() if a.dir else Path(tempfile.mkdtemp(prefix="memkit-adversarial-"))
    base.mkdir(parents=True, exist_ok=True)
    env = isolated_env(base)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    wanted = {int(x) for x in a.sections.split(",") if x.strip()}
    print(header(a.quick), flush=True)
    print(f"{'#':>2}  {'section':<34} {'time':>6}  figures", flush=True)
    done: list[tuple[Section, str]] = []
    started = time.monotonic()
    for number, title, go, summarise in sections(a, base, env):
        if number not in wanted:
            continue
        t0 = time.monotonic()
        try:
            section = go()
            line = summarise(section)
        except Exception:  # a bug in the benchmark: say so, and go on with the others
            section = Section(number, title)
            section.fig("benchmark errors").add(traceback.format_exc().strip().replace("\n", " | "))
            line = "the benchmark itself failed (see below)"
        section.seconds = time.monotonic() - t0
        done.append((section, line))
        print(f"{number:>2}  {title:<34} {section.seconds:>5.0f}s  {line}", flush=True)
    for line in report(done):
        print(line)
    failed = [(s, f) for s, _ in done for f in s.failed()]
    print(
        f"\nwall time: {time.monotonic() - started:.0f} s; work dir: "
        f"{base if a.dir or a.keep else '(removed)'}"
    )
    if failed:
        print(
            "must be 0 but are not: "
            + "; ".join(f"{s.number}. {f.name} = {f.value}" for s, f in failed)
        )
    else:
        print("every figure that must be 0 is 0")
    if a.json:
        a.json.write_text(
            json.dumps(
                {"header": header(a.quick), "sections": [s.to_json() for s, _ in done]}, indent=2
            )
            + "\n",
            encoding="utf-8",
        )
    if not a.dir and not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
