"""How often do memory pull requests conflict when merged by plain git (no memkit installed)?

Builds a repository with a store of SEED memories and compiled files, then BRANCHES
branches from main, each adding (or, with --edit, editing) one memory with
`memkit add --commit` (which commits the regenerated compiled files, as the hook
would). Then merges them into main in turn with plain `git merge`, as a hosting
service's merge button does: no hooks, no merge driver. Counts merges that conflicted
and the files they conflicted in; a conflicted merge is settled with `memkit compile`
so the next merge starts from a current main. Prints one line per run.

    python benchmarks/bench_merge.py [--branches 10] [--seed-memories 30] [--runs 5] [--edit]
        [--layout default|agents-only]

--layout default compiles the default targets (AGENTS.md, CLAUDE.md in full,
.github/copilot-instructions.md, Cursor rules); agents-only is the merge-friendly set-up
docs/hooks.md recommends: `targets = ["agents", "claude"]` with `claude_mode = "import"`
(CLAUDE.md is the one line `@AGENTS.md`, so only AGENTS.md changes with the memories).

Run on demand, never in CI.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

WORDS = [
    *("cache", "retry", "token", "schema", "index", "queue", "worker", "client", "parser"),
    *("config", "deploy", "build", "session", "lock", "encoder", "router", "handler"),
    *("budget", "search", "import", "export", "metric", "alert"),
]
TYPES = ("decision", "convention", "gotcha", "procedure")


def sh(cwd: Path, *args: str, check: bool = True, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMKIT_TODAY": "2026-06-01", "GIT_CONFIG_NOSYSTEM": "1", **extra}
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stdout}{done.stderr}")
    return done


def memkit(cwd: Path, *args: str) -> None:
    sh(cwd, sys.executable, "-m", "memkit", *args)


def title(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(4)).capitalize() + f" {rng.randrange(10**4)}"


AGENTS_ONLY = '[compile]\ntargets = ["agents", "claude"]\nclaude_mode = "import"\n'


def setup(root: Path, seed: int, memories: int, layout: str = "default") -> random.Random:
    rng = random.Random(seed)
    sh(root, "git", "init", "-q", "-b", "main")
    sh(root, "git", "config", "user.name", "Bench")
    sh(root, "git", "config", "user.email", "bench@example.com")
    memkit(root, "init")
    if layout == "agents-only":
        conf = root / ".memory" / "config.toml"
        conf.write_text(conf.read_text("utf-8").replace("[compile]\n", AGENTS_ONLY, 1), "utf-8")
    for _ in range(memories):
        body = f"{title(rng)}.\n\nWhy: {title(rng)}."
        memkit(root, "add", title(rng), "--type", rng.choice(TYPES), "--body", body)
    memkit(root, "compile")
    sh(root, "git", "add", "-A")
    sh(root, "git", "commit", "-q", "-m", "seed")
    return rng


def branch(root: Path, name: str, rng: random.Random, edit: bool) -> None:
    sh(root, "git", "checkout", "-q", "-b", name, "main")
    if edit:
        ids = sorted(p.stem for p in (root / ".memory").glob("*.md"))
        mid = rng.choice(ids)
        word = rng.choice(WORDS)  # the editor appends a line to the body
        sh(root, sys.executable, "-m", "memkit", "edit", mid, "--commit",
           EDITOR=f"sed -i $a{name}-{word}")  # fmt: skip
    else:
        body = f"{title(rng)}.\n\nWhy: {title(rng)}."
        memkit(root, "add", title(rng), "--type", rng.choice(TYPES), "--body", body, "--commit")
    sh(root, "git", "checkout", "-q", "main")


BY_FILE: dict[str, int] = {}


def merge_all(root: Path, names: list[str]) -> tuple[int, int]:
    """(merges that conflicted, conflicted files), merging with plain git in turn."""
    conflicts = files = 0
    for name in names:
        done = sh(root, "git", "merge", "-q", "--no-edit", name, check=False)
        if done.returncode == 0:
            continue
        bad = sh(root, "git", "diff", "--name-only", "--diff-filter=U").stdout.split()
        conflicts += 1
        files += len(bad)
        for path in bad:
            BY_FILE[path] = BY_FILE.get(path, 0) + 1
        for path in bad:  # settle: take either side, then regenerate from the memories
            sh(root, "git", "checkout", "--theirs", "--", path)
        memkit(root, "compile")
        sh(root, "git", "add", "-A")
        sh(root, "git", "commit", "-q", "--no-edit")
    return conflicts, files


def run(seed: int, branches: int, memories: int, edit: bool, layout: str) -> tuple[int, int]:
    with tempfile.TemporaryDirectory(prefix="memkit-bench-merge-") as tmp:
        root = Path(tmp)
        rng = setup(root, seed, memories, layout)
        names = [f"pr-{i}" for i in range(branches)]
        for name in names:
            branch(root, name, rng, edit)
        return merge_all(root, names)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--branches", type=int, default=10)
    ap.add_argument("--seed-memories", type=int, default=30)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--edit", action="store_true", help="each branch edits a memory instead")
    ap.add_argument("--layout", choices=("default", "agents-only"), default="default")
    args = ap.parse_args()
    total = [0, 0]
    for seed in range(args.runs):
        merges, files = run(seed, args.branches, args.seed_memories, args.edit, args.layout)
        total[0] += merges
        total[1] += files
        print(f"run {seed}: {merges}/{args.branches} merges conflicted, {files} file(s)")
    n = args.runs
    print("conflicts by file:", ", ".join(f"{k} {v}" for k, v in sorted(BY_FILE.items())))
    print(
        f"mean: {total[0] / n:.1f} of {args.branches} merges conflicted, "
        f"{total[1] / n:.1f} conflicted files ({args.seed_memories} memories to start, "
        f"layout {args.layout})"
    )


if __name__ == "__main__":
    main()
