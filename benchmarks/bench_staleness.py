"""Speed of verify, check and diff on a real repository, each as a ratio to its floor in one run.

    python benchmarks/bench_staleness.py MIRROR [--links 1000] [--range 500] [--runs 3]
        [--baseline OTHER_MEMKIT] [--check-links 10000]

MIRROR is a git repository (a mirror made by `git clone --mirror` will do). It is cloned
at HEAD into a temporary folder, a store is made with LINKS memories each linking one
Python symbol (symbols reused when the project has fewer), and whole commands are timed
as new processes, alternating with their floors, median of RUNS:

- `memkit verify --all` against the floor: one Python process parsing each linked file
  once with ast; timed with the prints memkit keeps by content (prints.json) removed
  before each run (cold, as on a fresh clone) and kept (warm: the code is unchanged
  since the last verify); warm also against a second floor, the parses plus replacing
  every memory file atomically (temp file, rename, two flushes) once, the writes no
  verify of every memory can skip.
- `memkit check` with nothing changed (warm) against the floor: `python -c pass`.
- `memkit diff HEAD~RANGE HEAD` against `git diff HEAD~RANGE HEAD` (first parents), with
  an empty store, then with every memory linked and verified (cold and warm as above).
- with --check-links N: `memkit check` again once the store has N linked memories.

--baseline names another memkit executable (another checkout's, say) timed in the same
alternation, so a change is measured against what it replaces in one run. Both are
byte-compiled first and run without PYTHONDONTWRITEBYTECODE, as an installed memkit is.
Also printed: the CPU time of parsing the memory files' YAML once, in-process (the share
of `verify` that reading and writing 1,000 memories costs in YAML alone).

Prints names, commits and timings only.
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TODAY = dt.date(2026, 1, 1)
BIN = Path(sys.executable).parent


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def symbols(root: Path) -> list[tuple[str, str]]:
    """(path, qualified name) of module-level and class-level defs in tracked .py files."""
    out = []
    for path in git(root, "ls-files", "*.py").splitlines():
        try:
            tree = ast.parse((root / path).read_bytes())
        except (SyntaxError, ValueError, OSError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                out.append((path, node.name))
                if isinstance(node, ast.ClassDef):
                    out += [
                        (path, f"{node.name}.{m.name}")
                        for m in node.body
                        if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                    ]
    return out


def build(root: Path, links: int) -> list[str]:
    """Memories linking `links` symbols (unverified); returns the distinct linked files."""
    from memkit import memory as mm
    from memkit.store import Store, init

    if not (root / ".memory").is_dir():
        init(root)
    store = Store(root)
    pool = symbols(root)
    rng = random.Random(0)
    rng.shuffle(pool)
    files = set()
    for i in range(links):
        path, name = pool[i % len(pool)]
        files.add(path)
        store.add(mm.new(f"m{i}", "b", mid=f"m{i:05d}", today=TODAY, links=[f"{path}::{name}"]))
    return sorted(files)


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Wall time, CPU time (user + system) and system time of one run of `cmd`."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-500:]}")
    kernel = after.ru_stime - before.ru_stime
    return elapsed, after.ru_utime - before.ru_utime + kernel, kernel


REWRITE = """import ast, os, sys, glob
for f in sys.argv[1:]:
    ast.parse(open(f, 'rb').read())
names = sorted(glob.glob('.memory/**/*.md', recursive=True))
for n in names:
    data = open(n, 'rb').read()
    fd = os.open(n + '.floor.tmp', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, data)
    os.close(fd)
os.sync()
for n in names:
    os.replace(n + '.floor.tmp', n)
os.sync()
"""


def compare(
    label: str,
    cmds: list[tuple[str, list[str]]],
    floor: list[str],
    root: Path,
    env: dict[str, str],
    runs: int,
    before: list[str] | None = None,
) -> None:
    """Each command of `cmds` (name, argv) and the floor, alternating, median of `runs`."""
    times: dict[str, list[tuple[float, float, float]]] = {name: [] for name, _ in cmds}
    base: list[tuple[float, float, float]] = []
    for _ in range(runs):
        for name, cmd in cmds:
            if before:
                subprocess.run(before, cwd=root, env=env, capture_output=True, check=True)
            times[name].append(timed(cmd, root, env))
        base.append(timed(floor, root, env))
    b = statistics.median(w for w, _, _ in base)
    cb = statistics.median(c for _, c, _ in base)
    for name, _ in cmds:
        a = statistics.median(w for w, _, _ in times[name])
        ca = statistics.median(c for _, c, _ in times[name])
        sa = statistics.median(k for _, _, k in times[name])
        print(
            f"{label:<40} {name:<9} wall {a:7.3f} s / floor {b:6.3f} s = {a / b:5.1f}x   "
            f"cpu {ca:6.3f} s / {cb:6.3f} s = {ca / max(cb, 1e-3):5.1f}x (system {sa:5.3f} s)"
        )


def compiled(exe: str) -> None:
    """Byte-compile the memkit package `exe` runs (an installed memkit is)."""
    python = str(Path(exe).parent / "python")
    where = subprocess.run(
        [python, "-c", "import memkit, os; print(os.path.dirname(memkit.__file__))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run([python, "-m", "compileall", "-q", where], check=True, capture_output=True)


def yaml_share(root: Path) -> str:
    """CPU time of parsing every memory file once (cold), and of the verified texts."""
    from memkit.memory import parse_all

    files = sorted((root / ".memory").glob("m*.md"))
    texts = [(p.stem, p.read_bytes()) for p in files]
    start = time.process_time()
    for mid, data in texts:
        parse_all(data, mid=mid, path=f".memory/{mid}.md")
    return f"{time.process_time() - start:.3f} s CPU for {len(texts)} memory files"


def more_links(root: Path, first: int, links: int) -> None:
    """Memories m{first}.. up to `links` in all, linking symbols as build() does."""
    from memkit import memory as mm
    from memkit.store import Store

    store = Store(root)
    pool = symbols(root)
    random.Random(0).shuffle(pool)
    taken = {p.stem.casefold() for p in store.files()}
    for i in range(first, links):
        path, name = pool[i % len(pool)]
        mem = mm.new(f"m{i}", "b", mid=f"m{i:05d}", today=TODAY, links=[f"{path}::{name}"])
        store.add(mem, taken=taken)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mirror", type=Path)
    ap.add_argument("--links", type=int, default=1000)
    ap.add_argument("--range", type=int, default=500)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline", type=Path, help="another memkit executable to time alongside")
    ap.add_argument("--check-links", type=int, default=0, help="also time check at N links")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="memkit-bench-") as tmp:
        root = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", str(args.mirror.resolve()), str(root)], check=True)
        head = git(root, "rev-parse", "HEAD").strip()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["MEMKIT_TODAY"] = TODAY.isoformat()
        memkit = str(BIN / "memkit")
        names = [("memkit", memkit)]
        if args.baseline:
            names.append(("baseline", str(args.baseline.absolute())))
        for _, exe in names:
            compiled(exe)

        # Each memkit keeps its caches in a folder of its own: two versions sharing
        # .git/memkit/ would replace each other's parse cache at every alternation when
        # its format differs, and both would be timed cold.
        caches = {name: Path(tmp) / f"cache-{name}" for name, _ in names}

        def each(*argv: str) -> list[tuple[str, list[str]]]:
            return [
                (name, ["env", f"MEMKIT_CACHE_DIR={caches[name]}", exe, *argv])
                for name, exe in names
            ]

        commits = git(root, "rev-list", "--first-parent", "HEAD").split()
        base = commits[min(args.range, len(commits) - 1)]
        span = min(args.range, len(commits) - 1)
        subprocess.run([memkit, "init"], cwd=root, env=env, capture_output=True, check=True)
        git_diff = ["git", "diff", base, "HEAD"]
        diff = ("diff", base, "HEAD")
        compare(f"diff over {span} commits, no links", each(*diff), git_diff, root, env, args.runs)
        files = build(root, args.links)
        print(f"{args.mirror.resolve()} at {head[:12]}: {args.links} links into {len(files)} files")
        parse_once = [
            sys.executable,
            "-c",
            "import ast, sys\nfor f in sys.argv[1:]:\n    ast.parse(open(f, 'rb').read())",
            *files,
        ]
        # verify rewrites every memory each run: back to unverified first
        reset = ["git", "checkout", "-q", "--", "."]
        kept = " ".join(f"'{d}'/*/prints.json" for d in caches.values())
        cold = ["sh", "-c", f"git checkout -q -- . && rm -f {kept}"]
        git(root, "add", ".memory")
        git(root, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "store")
        print(f"YAML, unverified memories: {yaml_share(root)}")
        verify = each("verify", "--all")
        compare("verify --all (cold)", verify, parse_once, root, env, args.runs, cold)
        compare("verify --all (warm)", verify, parse_once, root, env, args.runs, reset)
        # The same against the work verify cannot skip: the parses, and replacing every
        # memory file atomically (temp file, rename, two flushes), in one process.
        compare("verify --all (warm), floor + writes", verify, [*parse_once[:2], REWRITE,
                *files], root, env, args.runs, reset)  # fmt: skip
        subprocess.run(each("verify", "--all")[0][1], cwd=root, env=env, capture_output=True)
        print(f"YAML, verified memories: {yaml_share(root)}")
        check = each("check")
        noop = [sys.executable, "-c", "pass"]
        for _, cmd in check:  # warm caches (files written within 2 s are not cached)
            time.sleep(2.1)
            subprocess.run(cmd, cwd=root, env=env, capture_output=True)
        compare("check (nothing changed)", check, noop, root, env, args.runs)
        label = f"diff over {span} commits, all linked"
        drop = ["sh", "-c", f"rm -f {kept}"]
        compare(f"{label} (cold)", each(*diff), git_diff, root, env, args.runs, drop)
        compare(f"{label} (warm)", each(*diff), git_diff, root, env, args.runs)
        if args.check_links > args.links:
            more_links(root, args.links, args.check_links)
            subprocess.run(each("verify", "--all")[0][1], cwd=root, env=env, capture_output=True)
            for _, cmd in check:
                time.sleep(2.1)
                subprocess.run(cmd, cwd=root, env=env, capture_output=True)
            label = f"check at {args.check_links} links"
            compare(label, check, noop, root, env, args.runs)


if __name__ == "__main__":
    main()
