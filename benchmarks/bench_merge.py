"""How often do memory pull requests conflict when merged by plain git (no memkit installed)?

Builds a repository with a store of SEED memories and its compiled files, then BRANCHES
branches from main, each adding one memory (or, with `--change edit`, appending a line
to a different existing memory) and committing it with the regenerated compiled files,
as memkit's hook or `--commit` would. Then merges them into main in turn with plain
`git merge`, as a hosting service's merge button does: no hooks, no merge driver.

For every merge it records whether git conflicted, and in which files; a clean merge is
then checked with `memkit compile --check` ("clean but stale": git merged without a
word, but the compiled files are not what memkit would write for the merged memories).
A conflicted or stale merge is settled with `memkit compile` and committed, so the next
merge starts from a current main.

    python benchmarks/bench_merge.py [--runs 5] [--branches 10] [--seed-memories 30]
        [--layout default|agents-only ...] [--change add|edit ...]
        [--budgets default|loose|tight ...] [--show]

Every combination of the layouts, changes and budgets given is measured in one run, the
combinations alternating inside each repetition (the machine is shared and noisy):

- layout `default`: the default targets (AGENTS.md, CLAUDE.md in full, Copilot's
  instructions, Cursor's rules); `agents-only`: `targets = ["agents", "claude"]` with
  `claude_mode = "import"` (CLAUDE.md is the line `@AGENTS.md`).
- budgets `default`: memkit's own defaults; `loose`: every budget far above the store
  (nothing is ever cut); `tight`: every file's budget below the seed store's size, so
  every addition moves the cut.

`--show` prints each conflicted region (the base's lines and both sides') to see which
lines conflict. `--before DIR` also measures the memkit of another checkout (for
example `git archive main | tar -x -C DIR`), alternating with this one inside each
repetition, so "before" and "after" come from one run. Run on demand, never in CI.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

WORDS = [
    *("cache", "retry", "token", "schema", "index", "queue", "worker", "client", "parser"),
    *("config", "deploy", "build", "session", "lock", "encoder", "router", "handler"),
    *("budget", "search", "import", "export", "metric", "alert"),
]
TYPES = ("decision", "convention", "gotcha", "procedure")
LAYOUTS = {
    "default": "",
    "agents-only": 'targets = ["agents", "claude"]\nclaude_mode = "import"\n',
}
BUDGETS = {
    "default": "",
    "loose": 'agents = "1048576 bytes"\nclaude = "100000 lines"\ncopilot = "1048576 bytes"\n'
    'cursor = "100000 lines"\n',
    "tight": 'agents = "4 KiB"\nclaude = "120 lines"\ncopilot = "4 KiB"\ncursor = "120 lines"\n',
}


IMPORT_FROM: list[str] = []  # a checkout whose memkit `python -m memkit` runs (--before)


def sh(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMKIT_TODAY": "2026-06-01", "GIT_CONFIG_NOSYSTEM": "1"}
    if IMPORT_FROM:
        env["PYTHONPATH"] = IMPORT_FROM[0]
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stdout}{done.stderr}")
    return done


def memkit(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return sh(cwd, sys.executable, "-m", "memkit", *args, check=check)


def title(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(4)).capitalize() + f" {rng.randrange(10**4)}"


def write_memory(root: Path, rng: random.Random) -> str:
    """A new memory file, as `memkit add` writes one; returns its id."""
    head = title(rng)
    mid = re.sub(r"[^a-z0-9]+", "-", head.lower()).strip("-")
    body = f"{title(rng)}.\n\nWhy: {title(rng)}.\n"
    text = (
        f"---\ntitle: {head}\ntype: {rng.choice(TYPES)}\nstatus: active\n"
        f"created: 2026-06-01\nupdated: 2026-06-01\n---\n\n{body}"
    )
    (root / ".memory" / f"{mid}.md").write_text(text, "utf-8")
    return mid


def setup(root: Path, seed: int, memories: int, layout: str, budgets: str) -> random.Random:
    rng = random.Random(seed)
    sh(root, "git", "init", "-q", "-b", "main")
    sh(root, "git", "config", "user.name", "Bench")
    sh(root, "git", "config", "user.email", "bench@example.com")
    memkit(root, "init")
    conf = root / ".memory" / "config.toml"
    extra = f"[compile]\n{LAYOUTS[layout]}"
    if BUDGETS[budgets]:
        extra += f"\n[compile.budgets]\n{BUDGETS[budgets]}"
    conf.write_text(conf.read_text("utf-8").replace("[compile]\n", extra, 1), "utf-8")
    for _ in range(memories):
        write_memory(root, rng)
    memkit(root, "compile")
    sh(root, "git", "add", "-A")
    sh(root, "git", "commit", "-q", "-m", "seed")
    return rng


def branch(root: Path, name: str, rng: random.Random, edit: str | None) -> None:
    """One pull request: a memory added (or `edit` changed) and the compiled files with it."""
    sh(root, "git", "checkout", "-q", "-b", name, "main")
    if edit:
        path = root / ".memory" / f"{edit}.md"
        text = path.read_text("utf-8")
        path.write_text(text + f"\nSee also the {rng.choice(WORDS)} notes of {name}.\n", "utf-8")
    else:
        write_memory(root, rng)
    memkit(root, "compile")
    sh(root, "git", "add", "-A")
    sh(root, "git", "commit", "-q", "-m", name)
    sh(root, "git", "checkout", "-q", "main")


@dataclass
class Tally:
    merges: int = 0
    conflicted: int = 0  # merges git stopped with a conflict
    stale: int = 0  # clean merges whose compiled files were not current
    files: Counter[str] = field(default_factory=Counter)
    runs: list[str] = field(default_factory=list)


def merge_all(root: Path, names: list[str], tally: Tally, show: bool) -> tuple[int, int]:
    conflicted = stale = 0
    for name in names:
        tally.merges += 1
        done = sh(root, "git", "merge", "-q", "--no-edit", name, check=False)
        if done.returncode == 0:
            if memkit(root, "compile", "--check", check=False).returncode == 0:
                continue
            stale += 1
            memkit(root, "compile")
            sh(root, "git", "add", "-A")
            sh(root, "git", "commit", "-q", "-m", f"regenerate after {name}")
            continue
        bad = sh(root, "git", "diff", "--name-only", "--diff-filter=U").stdout.split()
        conflicted += 1
        tally.files.update(bad)
        for path in bad:
            if show:
                print(f"--- {name}: {path}\n{regions(root / path)}")
            sh(root, "git", "checkout", "--theirs", "--", path)  # either side; compile remakes it
        memkit(root, "compile")
        sh(root, "git", "add", "-A")
        sh(root, "git", "commit", "-q", "--no-edit")
    return conflicted, stale


def regions(path: Path) -> str:
    """The conflicted regions of a file git left with markers, with two lines around each."""
    lines = path.read_text("utf-8").splitlines()
    keep: set[int] = set()
    start = None
    for i, line in enumerate(lines):
        if line.startswith("<<<<<<<"):
            start = i
        elif line.startswith(">>>>>>>") and start is not None:
            keep.update(range(max(0, start - 2), min(len(lines), i + 3)))
            start = None
    return "\n".join(f"  {lines[i]}" for i in sorted(keep))


def run(seed: int, args: argparse.Namespace, layout: str, change: str, budgets: str,
        tally: Tally) -> None:  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="memkit-bench-merge-") as tmp:
        root = Path(tmp)
        rng = setup(root, seed, args.seed_memories, layout, budgets)
        names = [f"pr-{i}" for i in range(args.branches)]
        ids = sorted(p.stem for p in (root / ".memory").glob("*.md"))
        edits = rng.sample(ids, len(names)) if change == "edit" else [None] * len(names)
        for name, edit in zip(names, edits, strict=True):
            branch(root, name, rng, edit)
        conflicted, stale = merge_all(root, names, tally, args.show)
    tally.conflicted += conflicted
    tally.stale += stale
    tally.runs.append(f"{conflicted}+{stale}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--branches", type=int, default=10)
    ap.add_argument("--seed-memories", type=int, default=30)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--layout", nargs="+", choices=tuple(LAYOUTS), default=["default"])
    ap.add_argument("--change", nargs="+", choices=("add", "edit"), default=["add"])
    ap.add_argument("--budgets", nargs="+", choices=tuple(BUDGETS), default=["default"])
    ap.add_argument("--show", action="store_true", help="print every conflicted region")
    ap.add_argument("--before", metavar="DIR", help="also measure the memkit in checkout DIR")
    args = ap.parse_args()
    versions = ["this", "before"] if args.before else ["this"]
    combos = list(itertools.product(args.layout, args.change, args.budgets))
    tallies = {(v, *c): Tally() for c in combos for v in versions}
    for seed in range(args.runs):
        for combo in combos:
            for version in versions:
                IMPORT_FROM[:] = [str(Path(args.before).resolve())] if version == "before" else []
                t = tallies[(version, *combo)]
                run(seed, args, *combo, t)
                print(f"run {seed} {version} {' '.join(combo)}: {t.runs[-1]}", flush=True)
    n, b = args.runs, args.branches
    print(f"{n} run(s), {b} branches each, {args.seed_memories} memories to start; per run: "
          "conflicted+stale merges")  # fmt: skip
    for (version, layout, change, budgets), t in tallies.items():
        by_file = ", ".join(f"{k} {v}" for k, v in sorted(t.files.items())) or "-"
        print(
            f"{version:6} {layout:11} {change:4} budgets {budgets:7}: "
            f"{t.conflicted / n:4.1f} of {b} merges "
            f"conflicted, {t.stale / n:4.1f} clean but stale  [{' '.join(t.runs)}]  "
            f"files: {by_file}"
        )


if __name__ == "__main__":
    main()
