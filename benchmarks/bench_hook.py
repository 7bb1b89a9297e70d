#!/usr/bin/env python3
"""Time what memkit's pre-commit hook adds to a `git commit`, with 1,000 memories.

    python benchmarks/bench_hook.py [--memories N] [--runs R] [--keep DIR] [--verified]
        [--baseline DIR]

Generates a store (benchmarks/gen_store.py), installs the hook, then times real
`git commit` runs (median of R) for:

- fast path: the commit touches no memory and no linked code;
- linked code: the commit changes a file a memory links to (staleness check);
- memory edit, compiled by hand: the commit changes a memory and the compiled files
  `memkit compile` regenerated for it (validation, compile finding nothing left to do,
  staleness);
- memory edit, after the hook's first run: the same, the way a hand edit is committed
  with the hook installed: the first `git commit` validated the memory, regenerated the
  compiled files and stopped; this is the commit that follows (the hook's answer for
  known memories, memkit.githooks.fastpath.nothing_to_do);
- index rebuild: the first commit after a memory changed on disk.

Each against the same commit made with `--no-verify` (no hook). Prints the figures.
With --baseline DIR (a folder holding another memkit package, e.g. made with `git
archive REV memkit templates | tar -x -C DIR`), that version's hook is timed too, on
the same store, alternating with this one commit by commit (an even number of runs
gives each version the first turn equally often), each with the hook script it
installs (put in place before each of its commits, untimed). The baseline keeps its
derived files in a cache folder of its own (MEMKIT_CACHE_DIR); this version keeps them
in `.git/memkit/`, where its script's own check looks (memkit/githooks/precheck.awk).
With --verified, every memory with links is first verified against them (`memkit
verify --all`), as in a store that uses staleness checks: compiling then asks the
staleness engine, which opens the repository.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen_store import generate

# The hook runs memkit byte-compiled, as pip installs it; PYTHONDONTWRITEBYTECODE in the
# caller's environment would make every timed commit compile memkit's modules again.
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


INSTALL = (
    "from pathlib import Path; from memkit.githooks.install import install; install(Path('.'))"
)
HOOKS = ("pre-commit", "pre-merge-commit")
SCRIPTS: dict[str, dict[str, str]] = {}  # version -> hook -> the script it installs


def use_script(repo: Path, version: str) -> None:
    """Put the hook scripts `version` installs in place (untimed)."""
    for hook, text in SCRIPTS[version].items():
        (repo / ".git" / "hooks" / hook).write_text(text)


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, env=ENV, capture_output=True)


def cpu() -> float:
    """CPU seconds used by finished child processes (git and the hook it runs)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed_commit(repo: Path, *flags: str, env: dict[str, str] = ENV) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one `git commit`."""
    start, start_cpu = time.perf_counter(), cpu()
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "bench", *flags], cwd=repo, env=env, capture_output=True
    )
    elapsed, used = time.perf_counter() - start, cpu() - start_cpu
    if done.returncode != 0:
        sys.exit(f"bench_hook: the commit failed:\n{done.stdout.decode()}{done.stderr.decode()}")
    return elapsed, used


Change = Callable[[int, dict[str, str]], None]


def median_ms(
    repo: Path, runs: int, change: Change, *flags: str, env: dict[str, str] = ENV
) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of `runs` commits, each after `change(i)`."""
    return medians_ms(repo, runs, change, {"": env}, *flags)[""]


def medians_ms(
    repo: Path, runs: int, change: Change, envs: dict[str, dict[str, str]], *flags: str
) -> dict[str, tuple[float, float]]:
    """median_ms for each version (name -> environment), alternating commit by commit."""
    wall: dict[str, list[float]] = {name: [] for name in envs}
    used: dict[str, list[float]] = {name: [] for name in envs}
    names = list(envs)
    for i in range(runs):
        for name in names if i % 2 == 0 else names[::-1]:
            if len(envs) > 1:  # each version's own hook script
                use_script(repo, name)
            change(i, envs[name])
            w, c = timed_commit(repo, *flags, env=envs[name])
            wall[name].append(w)
            used[name].append(c)
    return {
        name: (statistics.median(wall[name]) * 1000, statistics.median(used[name]) * 1000)
        for name in envs
    }


def compile_outputs(repo: Path, env: dict[str, str] = ENV) -> None:
    subprocess.run(
        [sys.executable, "-m", "memkit", "compile"],
        cwd=repo,
        check=True,
        capture_output=True,
        env=env,
    )


def backdate(mdir: Path) -> None:
    """Memories written seconds ago are distrusted by the caches; real ones are older."""
    old = time.time() - 3600
    for path in mdir.rglob("*.md"):
        os.utime(path, (old, old))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--keep", type=Path, help="Generate into this (new) directory and keep it.")
    ap.add_argument("--verified", action="store_true", help="Verify every linked memory first.")
    ap.add_argument("--baseline", type=Path, help="A folder holding another memkit package.")
    args = ap.parse_args()
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "memkit", quiet=1)
    if args.baseline:
        if not (args.baseline / "memkit" / "__init__.py").is_file():
            sys.exit(f"bench_hook: {args.baseline} holds no memkit package (memkit/__init__.py)")
        compileall.compile_dir(args.baseline / "memkit", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        repo = generate(args.memories, args.keep or Path(tmp) / "repo")
        versions = {"this": ENV}
        if args.baseline:
            versions = {
                "this": ENV,
                "baseline": {
                    **ENV,
                    "MEMKIT_CACHE_DIR": str(Path(tmp) / "cache-baseline"),
                    "PYTHONPATH": str(args.baseline.absolute()),
                },
            }
        run(repo, args.memories, args.runs, verified=args.verified, versions=versions)


def run(
    repo: Path,
    n: int,
    runs: int,
    *,
    verified: bool = False,
    versions: dict[str, dict[str, str]] | None = None,
) -> None:
    versions = versions or {"this": ENV}
    mdir = repo / ".memory"
    if verified:
        subprocess.run([sys.executable, "-m", "memkit", "verify", "--all"], cwd=repo,
                       check=True, capture_output=True)  # fmt: skip
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--no-verify", "-m", "verified")
    backdate(mdir)
    for name, env in versions.items():  # the scripts each version installs
        subprocess.run([sys.executable, "-P", "-c", INSTALL], cwd=repo, env=env, check=True)
        SCRIPTS[name] = {h: (repo / ".git" / "hooks" / h).read_text() for h in HOOKS}
    linked_mem = next(p for p in sorted(mdir.rglob("*.md")) if "\nlinks:\n" in p.read_text())
    linked = re.search(r"\nlinks:\n- ([^:\n]+)", linked_mem.read_text())
    assert linked is not None
    code = repo / linked.group(1)
    notes = repo / "NOTES.txt"

    def touch_notes(i: int, env: dict[str, str]) -> None:
        notes.write_text(f"note {i} {time.time_ns()}\n")
        git(repo, "add", "NOTES.txt")

    def touch_code(i: int, env: dict[str, str]) -> None:
        code.write_text(code.read_text().replace("return value", f"return value  # {i}", 1))
        git(repo, "add", str(code))

    def touch_memory(i: int, env: dict[str, str]) -> None:
        linked_mem.write_text(linked_mem.read_text() + f"\nMore text {i}.\n")
        compile_outputs(repo, env)  # `memkit compile` by hand before committing
        git(repo, "add", "-A")

    def touch_memory_hook_first(i: int, env: dict[str, str]) -> None:
        linked_mem.write_text(linked_mem.read_text() + f"\nEdited {i}.\n")
        git(repo, "add", str(linked_mem))
        # the first `git commit` after the edit: the hook validates the memory, regenerates
        # the compiled files and stops the commit so that they are reviewed
        subprocess.run([repo / ".git" / "hooks" / "pre-commit"], cwd=repo, env=env,
                       capture_output=True)  # fmt: skip
        git(repo, "add", "-A")

    def touch_memory_unstaged(i: int, env: dict[str, str]) -> None:
        linked_mem.write_text(linked_mem.read_text() + f"\nUnstaged {i}.\n")
        touch_notes(i, env)

    for env in versions.values():
        compile_outputs(repo, env)
    git(repo, "add", "-A")
    timed_commit(repo, "--no-verify")  # the compiled files, and warm caches
    # backdate() set each memory file's change time (ctime) to now, and a change within
    # two seconds is not trusted (the hook's index, which the script trusts by change
    # times: memkit.githooks.index.vouch): a real store's files are older
    time.sleep(2.1)
    kind = "linked memories verified" if verified else "no memory verified"
    print(f"git commit with the memkit pre-commit hook, {n} memories ({kind}), median of {runs}")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; bare python start")
    print(f" {bare_python_ms():.0f} ms: on a busy machine the CPU column is the steadier one)")
    print(f"{'':<56}{'-------- wall clock --------':>30}{'-- CPU --':>12}")
    print(f"{'scenario':<56}{'no hook':>10}{'hook':>10}{'added':>10}{'added':>12}")
    for name, change in (
        ("fast path: nothing linked, no memory", touch_notes),
        ("linked code changed (staleness check)", touch_code),
        ("memory changed, compiled by hand", touch_memory),
        ("memory changed, after the hook's first run", touch_memory_hook_first),
        ("index rebuild: a memory changed on disk", touch_memory_unstaged),
    ):
        base, base_cpu = median_ms(repo, runs, change, "--no-verify")
        for version, (hook, hook_cpu) in medians_ms(repo, runs, change, versions).items():
            added, added_cpu = hook - base, hook_cpu - base_cpu
            label = name if len(versions) == 1 else f"{name} [{version}]"
            print(f"{label:<56}{base:>8.0f}ms{hook:>8.0f}ms{added:>8.0f}ms{added_cpu:>10.0f}ms")
    use_script(repo, "this")  # the processes alone: this version's hook
    touch_notes(runs, ENV)
    time.sleep(2.1)  # let the last memory edit settle, then rebuild the index once
    subprocess.run([repo / ".git" / "hooks" / "pre-commit"], cwd=repo, env=ENV, check=True)
    print(f"\nthe processes alone, fast path (median of {runs * 2} runs)")
    for name, argv in (
        ("bare python start", [sys.executable, "-c", "pass"]),
        ("git diff --cached --name-only", ["git", "diff", "--cached", "--name-only", "-z"]),
        ("installed pre-commit hook", [str(repo / ".git" / "hooks" / "pre-commit")]),
    ):
        wall, used = process_ms(repo, argv, runs * 2)
        print(f"{name:<42}{wall:>8.0f}ms wall{used:>8.0f}ms CPU")


def process_ms(repo: Path, argv: list[str], runs: int) -> tuple[float, float]:
    wall, used = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), cpu()
        subprocess.run(argv, cwd=repo, env=ENV, check=True, capture_output=True)
        wall.append(time.perf_counter() - start)
        used.append(cpu() - start_cpu)
    return statistics.median(wall) * 1000, statistics.median(used) * 1000


def bare_python_ms() -> float:
    times = []
    for _ in range(9):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


if __name__ == "__main__":
    main()
