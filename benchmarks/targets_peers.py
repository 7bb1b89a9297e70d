#!/usr/bin/env python3
"""Output size, determinism and budget compliance of memkit compile, ruler and rulesync.

    python benchmarks/targets_peers.py [--sizes 100,1000] [--runs 3] [--peers DIR]

The same N synthetic rules (PEERS/gen_rules.py: about 120 words each, a third
path-scoped) for each tool, targets Claude Code, AGENTS.md and Cursor (memkit's
defaults plus none else; then memkit with all its targets on). For each tool:

  time      whole command, median of --runs, fresh copy each run, tools alternated
  bytes     every file the tool wrote
  codex     bytes of AGENTS.md (Codex stops at 32,768 for the whole chain)
  claude    lines Claude Code loads at start: CLAUDE.md plus what it @-imports, plus
            .claude/rules files without `paths` (budget: about 200)
  cursor    rules Cursor loads always (AGENTS.md and alwaysApply rules): how many
            rule texts arrive twice or more, and the longest rule file (budget 500 lines)
  same      two fresh runs give byte-identical files
  no-op     a second run in place rewrites no file (mtimes kept)

Each rule's text carries its heading `Rule NNNN:`, which is how arrivals are counted.
Needs `ruler` and `rulesync` on PATH (PEERS/README.md). Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_compile import MEMKIT, PEERS, memkit_store, timed  # noqa: E402

SKIP = {".git", ".memory", ".ruler", ".rulesync", "node_modules"}
ALL_TARGETS = '["agents", "claude", "cursor", "copilot", "gemini", "windsurf", "cline", "kiro"]'


def written(root: Path) -> dict[str, bytes]:
    out = {}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP)
        for name in sorted(files):
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            if rel not in ("rulesync.jsonc",):
                out[rel] = p.read_bytes()
    return out


def claude_lines(root: Path) -> int:
    """Lines Claude Code loads at start: CLAUDE.md, its @imports (once), unscoped rules."""
    seen: set[Path] = set()

    def load(path: Path, depth: int) -> int:
        if depth > 5 or path in seen or not path.is_file():
            return 0
        seen.add(path)
        text = path.read_text("utf-8", "replace")
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)  # Claude strips HTML comments
        n = text.count("\n")
        for m in re.finditer(r"^@(\S+)\s*$", text, re.M):
            n += load((path.parent / m.group(1)).resolve(), depth + 1)
        return n

    total = load((root / "CLAUDE.md").resolve(), 0)
    for rule in sorted((root / ".claude" / "rules").rglob("*.md")):
        if "paths:" not in rule.read_text("utf-8", "replace").split("\n---", 1)[0]:
            total += load(rule.resolve(), 0)
    return total


def cursor_always(root: Path) -> tuple[int, int, int]:
    """(rule texts Cursor reads twice or more, distinct ones, the longest rule file's lines)."""
    texts = []
    if (root / "AGENTS.md").is_file():
        texts.append((root / "AGENTS.md").read_text("utf-8", "replace"))
    longest = 0
    for rule in sorted((root / ".cursor" / "rules").rglob("*.mdc")):
        text = rule.read_text("utf-8", "replace")
        longest = max(longest, text.count("\n"))
        if re.search(r"^alwaysApply: true", text, re.M):
            texts.append(text)
    seen = Counter(m for t in texts for m in re.findall(r"Rule (\d{4}):", t))
    return sum(1 for c in seen.values() if c > 1), len(seen), longest


def run_tool(name: str, src: Path, work: Path) -> tuple[Path, list[str]]:
    dest = work / name
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, symlinks=True)
    cmd = {
        "ruler": ["ruler", "apply", "--no-mcp"],
        "rulesync": ["rulesync", "generate", "--silent"],
    }.get(name.split(":")[0], [str(MEMKIT), "compile"])
    return dest, cmd


def measure(n: int, runs: int, work: Path) -> list[list[str]]:
    subprocess.run([sys.executable, str(PEERS / "gen_rules.py"), str(n), str(work)], check=True)
    memkit_store(work / f"rulesync-{n}" / ".rulesync" / "rules", work / "memkit")
    every = work / "memkit-all"
    shutil.copytree(work / "memkit", every)
    (every / ".memory" / "config.toml").write_text(f"[compile]\ntargets = {ALL_TARGETS}\n")
    sources = {
        "memkit": work / "memkit",
        "memkit:all": every,
        "ruler": work / f"ruler-{n}",
        "rulesync": work / f"rulesync-{n}",
    }
    times: dict[str, list[float]] = {k: [] for k in sources}
    for _ in range(runs):  # alternate the tools within each round
        for name, src in sources.items():
            dest, cmd = run_tool(name, src, work / "runs")
            times[name].append(timed(cmd, dest)[0])
    rows = []
    for name, src in sources.items():
        a, cmd = run_tool(name, src, work / "a")
        subprocess.run(cmd, cwd=a, check=True, capture_output=True)
        b, _ = run_tool(name, src, work / "b")
        subprocess.run(cmd, cwd=b, check=True, capture_output=True)
        files_a, files_b = written(a), written(b)
        same = files_a == files_b
        before = {p: (a / p).stat().st_mtime_ns for p in files_a}
        subprocess.run(cmd, cwd=a, check=True, capture_output=True)
        noop = all((a / p).stat().st_mtime_ns == t for p, t in before.items())
        twice, distinct, longest = cursor_always(a)
        agents = len(files_a.get("AGENTS.md", b""))
        digest = hashlib.sha256(b"".join(files_a[p] for p in sorted(files_a))).hexdigest()[:8]
        rows.append([
            name, str(n), f"{statistics.median(times[name]):.2f}",
            str(len(files_a)), f"{sum(map(len, files_a.values())):,}",
            f"{agents:,}" + (" OVER" if agents > 32768 else ""),
            str(claude_lines(a)) + (" OVER" if claude_lines(a) > 200 else ""),
            f"{twice}/{distinct}", str(longest) + (" OVER" if longest > 500 else ""),
            "yes" if same else "NO", "yes" if noop else "NO", digest,
        ])  # fmt: skip
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    for tool in ("ruler", "rulesync"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not on PATH; see {PEERS / 'README.md'}")
    head = ["tool", "N", "time s", "files", "bytes", "codex AGENTS.md", "claude lines",
            "cursor twice/rules", "longest rule", "same", "no-op", "sha"]  # fmt: skip
    print(" | ".join(head), flush=True)
    for n in (int(x) for x in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="targets-peers-") as tmp:
            for row in measure(n, args.runs, Path(tmp)):
                print(" | ".join(row), flush=True)


if __name__ == "__main__":
    main()
