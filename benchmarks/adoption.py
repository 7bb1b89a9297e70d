"""What each agent reads before and after a real project adopts memkit.

Usage: python benchmarks/adoption.py MIRROR... [--memkit CMD] [--keep DIR]

Each MIRROR is a git repository (a bare mirror or a work tree). Its instruction files
at HEAD (AGENTS.md, CLAUDE.md and GEMINI.md at any depth, Cursor, Copilot and Claude
Code rules; symbolic links as links) are copied into a fresh git repository, then:

    memkit init; memkit import --adopt; memkit compile

For each agent the table gives, over every place it may work (the root, each folder
holding an instruction file, a path each rule's globs match; benchmarks/agent_reads.py
models what it loads there, independently of memkit's own model):
- bytes read in full before and after, summed over those places (Codex stops at
  32 KiB for its AGENTS.md chain: what lies beyond is not read);
- places where it reads fewer bytes after than before although it was within its
  limit before ("less");
- the memories `memkit compile --explain AGENT` says it gets in full, shortened to a
  title, or left out.
The files are never stored in this repository; only names and commits are printed.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agent_reads import AGENTS, Tree, loaded, probes

LIMITS = {"codex": 32 * 1024}  # the agents' own limits on what they read (bytes)
READERS = (*AGENTS, "gemini")  # Gemini CLI: GEMINI.md from the root down to the folder
_FILES = re.compile(
    r"(?:^|/)(?:AGENTS|CLAUDE|GEMINI)\.md$|(?:^|/)\.cursor/rules/.+\.mdc$|^\.cursorrules$"
    r"|^\.github/copilot-instructions\.md$|^\.github/instructions/.+\.instructions\.md$"
    r"|(?:^|/)\.claude/rules/.+\.md$"
)
ENV = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.com",
       "MEMKIT_TODAY": "2026-11-28", "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip


def git(cwd: Path | str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, env=ENV,
                          check=True).stdout  # fmt: skip


def copy_out(mirror: Path, dest: Path) -> str:
    """The instruction files of `mirror` at HEAD, written under `dest`; HEAD's commit."""
    commit = git(mirror, "rev-parse", "HEAD").decode().strip()
    for row in git(mirror, "ls-tree", "-r", "-z", commit).split(b"\0"):
        if not row:
            continue
        meta, _, path = row.decode().partition("\t")
        mode, _, oid = meta.split()
        if "node_modules/" in path or not _FILES.search(path):
            continue
        out = dest / path
        out.parent.mkdir(parents=True, exist_ok=True)
        data = git(mirror, "cat-file", "blob", oid)
        if mode == "120000":
            os.symlink(data.decode(), out)
        else:
            out.write_bytes(data)
    return commit


def explain(memkit: list[str], root: Path, agent: str) -> tuple[int, int, int]:
    """(in full, shortened, left out) memories, as `memkit compile --explain` says."""
    done = subprocess.run([*memkit, "compile", "--explain", agent], cwd=root, env=ENV,
                          capture_output=True, text=True)  # fmt: skip
    lines = done.stdout.splitlines()
    full = sum(" in full in " in ln for ln in lines)
    short = sum(" title only in " in ln for ln in lines)
    cut = sum(" left out " in ln and ln.startswith("  ") for ln in lines)
    return full, short, cut


def run(memkit: list[str], root: Path, *args: str) -> None:
    subprocess.run([*memkit, *args], cwd=root, env=ENV, capture_output=True, check=True)


def measure(mirror: Path, memkit: list[str], work: Path) -> None:
    root = work / mirror.resolve().parent.name.replace("+", "-")
    root.mkdir(parents=True)
    commit = copy_out(mirror, root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "instruction files")
    before_tree = Tree.read(root)
    run(memkit, root, "init")
    run(memkit, root, "import", "--adopt")
    run(memkit, root, "compile")
    places = probes([before_tree, Tree.read(root)], [])
    before = reads_of(before_tree, places)
    after = reads_of(Tree.read(root), places)
    print(f"\n{mirror}  {commit}  ({len(places)} places)")
    print(f"{'agent':<16}{'bytes before':>14}{'bytes after':>13}{'less':>6}"
          f"{'full':>6}{'short':>7}{'cut':>5}")  # fmt: skip
    lost = []
    for agent in READERS:
        b, a = before[agent], after[agent]
        limit = LIMITS.get(agent)
        less = [p for p in places if a[p] < b[p] and (limit is None or b[p] < limit)]
        lost += [f"{agent} at {p}: {b[p]:,} -> {a[p]:,} bytes" for p in less]
        full, short, cut = explain(memkit, root, agent)
        print(f"{agent:<16}{sum(b.values()):>14,}{sum(a.values()):>13,}{len(less):>6}"
              f"{full:>6}{short:>7}{cut:>5}")  # fmt: skip
    for line in lost:
        print(f"  less: {line}")


def _loads(tree: Tree, agent: str, probe: str) -> list[str]:
    if agent != "gemini":
        return loaded(tree, agent, probe)
    parts = probe.split("/")[:-1]
    chain = ["/".join([*parts[:i], "GEMINI.md"]) for i in range(len(parts) + 1)]
    return [f for f in chain if f in tree.text]


def reads_of(tree: Tree, places: list[str]) -> dict[str, dict[str, int]]:
    """{agent: {place: bytes it reads in full there}}."""
    out: dict[str, dict[str, int]] = {}
    for agent in READERS:
        out[agent] = {}
        for probe in places:
            size = sum(len(tree.text[f].encode()) + 2 for f in _loads(tree, agent, probe))
            out[agent][probe] = min(size, LIMITS.get(agent, size))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mirrors", nargs="+", type=Path)
    parser.add_argument("--memkit", default=str(Path(sys.executable).with_name("memkit")),
                        help="the command to run (default: this environment's memkit)")  # fmt: skip
    parser.add_argument("--keep", type=Path, help="work here and keep the repositories")
    args = parser.parse_args()
    memkit = shlex.split(args.memkit)
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        for mirror in args.mirrors:
            measure(mirror, memkit, work)


if __name__ == "__main__":
    main()
