#!/usr/bin/env python3
"""memkit's speed goals, several memkit installs side by side on the same real store.

    python benchmarks/bench_goals.py MIRROR [--n 10000] [--small 1000] [--rounds 5]
                                    [--dir DIR] [--only TEXT ...] [--times] [NAME=PYTHON ...]

PYTHON is an interpreter with a memkit installed (a virtual environment's bin/python);
this interpreter is always "this". MIRROR is a git directory the stores grow from
(benchmarks/real_store.py): one store of --small and one of --n memories, made once
under DIR (reused when present), then copied once per install so that each keeps its
own derived files and runs its own `hooks install`. `--only TEXT` times only the goals
whose case holds TEXT (`--only session-start --only "one memory"`) and their floors.
Each round runs every case of every install once, in a new shuffled order, as real
processes, after one round that warms every cache and is not counted; the table gives
the median wall and CPU time (user + system) and the goal's figure, all from the same run
(`--times` adds every case's medians in ms):

- a commit touching nothing memkit cares about: ms added over `git commit --no-verify`
  (goal +30 ms, at both sizes);
- a commit changing one memory's text (a word at the end of its body, added or taken
  away in turn): ms added (goal +80 ms at --small); the hook validates it, compiles and
  stops the commit for review;
- the same commit after `memkit compile`, everything staged (another memory): the
  commit the hook lets through (goal +80 ms at --small);
- `memkit search` warm at --n: times `python -c pass` (goal 5x);
- each Claude Code hook process (`memkit-hook session-start`, `user-prompt-submit` with a
  prompt that finds nothing and one that finds memories, `pre-tool-use`, fed the JSON
  Claude Code sends) at --n: times `python -c pass` (3x);
- a no-op `memkit compile` at --n: times a `cat` of every memory file (goal 2x), and
  times reading every memory file in one Python process (benchmarks/bench_floor.py's).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_store import ENV, grow

# git must not start `gc --auto` in the background: the store's first commit of 10,000
# files would, and the copies would then be timed repacking (grow uses ENV too).
ENV.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="gc.auto", GIT_CONFIG_VALUE_0="0")
# memkit runs byte-compiled, as pip installs it: with PYTHONDONTWRITEBYTECODE an install
# never cached compiles every module it imports in every process, and loses to one cached.
ENV.pop("PYTHONDONTWRITEBYTECODE", None)

READ_ALL = "import pathlib\nfor p in pathlib.Path('.memory').rglob('*.md'): p.read_bytes()"
CAT = "find .memory -name '*.md' -print0 | xargs -0 cat > /dev/null"


@dataclass(frozen=True)
class Case:
    name: str
    argv: list[str]
    root: Path
    stdin: str = ""
    setup: Callable[[], None] | None = None


def timed(case: Case) -> tuple[float, float]:
    """(wall s, CPU s) of one process; its setup runs first, untimed."""
    if case.setup:
        case.setup()
    start = time.perf_counter()
    proc = subprocess.Popen(
        case.argv,
        cwd=case.root,
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None
    proc.stdin.write(case.stdin.encode())
    proc.stdin.close()
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"bench_goals: {' '.join(case.argv)} in {case.root} failed")
    return wall, ru.ru_utime + ru.ru_stime


def prepare(base: Path, copy: Path, py: str) -> None:
    """A copy of `base` with this install's hook, outputs and indexes, committed."""
    if not copy.exists():
        shutil.copytree(base, copy, symlinks=True)
        subprocess.run(["git", "config", "gc.auto", "0"], cwd=copy, check=True)
    for args in (["hooks", "install"], ["compile"], ["index"], ["check"]):
        subprocess.run([py, "-m", "memkit", *args], cwd=copy, env=ENV, capture_output=True)
    valid = subprocess.run([py, "-m", "memkit", "validate"], cwd=copy, env=ENV, capture_output=True)
    if valid.returncode:  # a hook refusing a broken memory is not the case being timed
        sys.exit(
            f"{copy}: invalid memories; remove the copy to make it again\n{valid.stdout.decode()}"
        )
    subprocess.run(["git", "add", "-A"], cwd=copy, env=ENV, check=True)
    subprocess.run(
        ["git", "commit", "-qm", "outputs", "--no-verify"], cwd=copy, env=ENV, capture_output=True
    )


def cases(name: str, py: str, root: Path, quiet: Path, big: bool) -> list[Case]:
    """The goal's cases for one install. Only the commits touching a memory run in `root`;
    everything else runs in `quiet`, a copy whose memories nothing changes behind the
    hooks' back (a memory changed without the hook makes the next hook, search or
    session start rebuild its index, and that is not the case being timed)."""
    hook = str(Path(py).parent / "memkit-hook")
    mems = sorted((root / ".memory").rglob("*.md"))
    one = mems[len(mems) // 2]

    # A word of its body in, then out (text compile gives agents), always between the
    # same two texts: an edit worked out from the file's text as it is would drift.
    original = one.read_text("utf-8")
    edited = original.rstrip("\n") + " (edited)\n"

    def touch() -> None:
        now = one.read_text("utf-8")
        one.write_text(original if now == edited else edited, "utf-8")
        subprocess.run(["git", "add", str(one)], cwd=root, env=ENV, check=True)

    # The commit that follows `memkit compile` (or the hook's own first run): another
    # memory edited the same way, compiled, and everything staged.
    two = mems[len(mems) // 2 + 1]
    two_original = two.read_text("utf-8")
    two_edited = two_original.rstrip("\n") + " (edited)\n"

    def compiled() -> None:
        now = two.read_text("utf-8")
        two.write_text(two_original if now == two_edited else two_edited, "utf-8")
        subprocess.run([py, "-m", "memkit", "compile"], cwd=root, env=ENV, capture_output=True)
        subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)

    def code() -> None:
        (quiet / "bench-touched.txt").write_text(str(time.time_ns()))
        subprocess.run(["git", "add", "bench-touched.txt"], cwd=quiet, env=ENV, check=True)

    size = "n" if big else "small"
    commit = ["git", "commit", "-qm", "bench"]
    out = [  # each commit with the hook and without, in the copy its change belongs to
        Case(f"{name} {size} commit {how}, {what}", argv, where, setup=setup)
        for what, where, setup in (
            ("nothing", quiet, code),
            ("one memory", root, touch),
            ("one memory, compiled", root, compiled),
        )
        for how, argv in (("--no-verify", [*commit, "--no-verify"]), ("+ hook", commit))
    ]
    if not big:
        return out
    src = next(
        str(p.relative_to(root)) for p in sorted(root.rglob("*.py")) if ".git" not in p.parts
    )
    start = f"bench-{name}-start"
    # Each run starts its sessions afresh: a copy reused from earlier runs would carry
    # their receipts, and every hook reads its session's (1,630 lines cost a third more).
    for old in (quiet / ".git" / "memkit" / "receipts").glob(f"bench-{name}*.jsonl"):
        old.unlink()
    base = {"session_id": f"bench-{name}", "transcript_path": "/tmp/bench.jsonl", "cwd": str(quiet)}
    events = {
        # A session start opens a new session: one of its own, with no receipts from the
        # rounds before (a receipts file grown over every round would be timed instead).
        "session-start": {
            **base,
            "session_id": start,
            "hook_event_name": "SessionStart",
            "source": "startup",
        },
        "user-prompt-submit": {
            **base,
            "hook_event_name": "UserPromptSubmit",
            "prompt": "How do we handle the decorator options?",
        },
        "pre-tool-use": {
            **base,
            "hook_event_name": "PreToolUse",
            "tool_name": "Edit",
            "tool_input": {"file_path": str(quiet / src), "old_string": "a", "new_string": "b"},
        },
    }
    # A prompt that finds memories: the hook ranks, reads its session's receipts and gives
    # them (a session of its own, afresh each run, or the second run would give nothing).
    finds = f"bench-{name}-finds"
    found = {
        **base,
        "session_id": finds,
        "hook_event_name": "UserPromptSubmit",
        "prompt": "fix the shell completion for zsh",
    }
    out += [
        Case(f"{name} n python -c pass", [py, "-c", "pass"], quiet),
        Case(f"{name} n cat every memory", ["sh", "-c", CAT], quiet),
        Case(f"{name} n search (warm)", [py, "-m", "memkit", "search", "option"], quiet),
        Case(f"{name} n read every memory in Python", [py, "-c", READ_ALL], quiet),
        Case(f"{name} n compile (no-op)", [py, "-m", "memkit", "compile"], quiet),
    ]
    kept = quiet / ".git" / "memkit" / "receipts"
    receipts = kept / f"{start}.jsonl"
    out += [
        Case(
            f"{name} n hook {e}",
            [hook, e],
            quiet,
            json.dumps(p),
            setup=(lambda: receipts.unlink(missing_ok=True)) if e == "session-start" else None,
        )
        for e, p in events.items()
    ]
    out.append(
        Case(
            f"{name} n hook user-prompt-submit, finding memories",
            [hook, "user-prompt-submit"],
            quiet,
            json.dumps(found),
            setup=lambda: (kept / f"{finds}.jsonl").unlink(missing_ok=True),
        )
    )
    return out


GOALS = [  # (case, floor, goal, unit): "+" is ms added, "x" a ratio
    ("small commit + hook, nothing", "small commit --no-verify, nothing", 30, "+"),
    ("n commit + hook, nothing", "n commit --no-verify, nothing", 30, "+"),
    ("small commit + hook, one memory", "small commit --no-verify, one memory", 80, "+"),
    (
        "small commit + hook, one memory, compiled",
        "small commit --no-verify, one memory, compiled",
        80,
        "+",
    ),
    ("n commit + hook, one memory", "n commit --no-verify, one memory", 0, "+"),
    ("n search (warm)", "n python -c pass", 5, "x"),
    ("n hook session-start", "n python -c pass", 3, "x"),
    ("n hook user-prompt-submit", "n python -c pass", 3, "x"),
    ("n hook user-prompt-submit, finding memories", "n python -c pass", 3, "x"),
    ("n hook pre-tool-use", "n python -c pass", 3, "x"),
    ("n compile (no-op)", "n cat every memory", 2, "x"),
    ("n compile (no-op)", "n read every memory in Python", 2, "x"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("mirror", type=Path)
    ap.add_argument("installs", nargs="*", help="NAME=PYTHON")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--small", type=int, default=1_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/memkit-goals"))
    ap.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="TEXT",
        help="time only the goals whose case holds TEXT (repeatable), with their floors",
    )
    ap.add_argument(
        "--times", action="store_true", help="also print each case's median wall and CPU time"
    )
    args = ap.parse_intermixed_args()
    goals = [g for g in GOALS if not args.only or any(t in g[0] for t in args.only)]
    if not goals:
        ap.error(f"no goal's case holds {' or '.join(map(repr, args.only))}")
    wanted = {case for g in goals for case in g[:2]}
    installs = dict(x.split("=", 1) for x in args.installs) | {"this": sys.executable}
    todo: list[Case] = []
    for size, big in ((args.small, False), (args.n, True)):
        if not any(c.startswith("small " if not big else "n ") for c in wanted):
            continue
        base = args.dir / f"store-{size}"
        if not (base / ".memory").is_dir():
            grow(args.mirror, size, base)
            subprocess.run(["git", "config", "gc.auto", "0"], cwd=base, check=True)
        for name, py in installs.items():
            copy, quiet = args.dir / f"{name}-{size}", args.dir / f"{name}-{size}-quiet"
            prepare(base, copy, py)
            prepare(base, quiet, py)
            made = cases(name, py, copy, quiet, big)
            todo += [c for c in made if c.name.removeprefix(f"{name} ") in wanted]
    got: dict[str, list[tuple[float, float]]] = {c.name: [] for c in todo}
    rng = random.Random(7)
    for round in range(args.rounds + 1):  # the first round warms every cache and is not counted
        rng.shuffle(todo)
        for case in todo:
            figure = timed(case)
            if round:
                got[case.name].append(figure)
    med = {
        k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for k, v in got.items()
    }
    print(
        f"{args.small} and {args.n} memories grown from {args.mirror.name}; {args.rounds} "
        f"rounds, medians; load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':44}{'wall':>9}{'CPU':>9}   goal")
    for name in installs:
        for what, floor, goal, unit in goals:
            w, c = med[f"{name} {what}"]
            fw, fc = med[f"{name} {floor}"]
            if unit == "+":
                fig = f"{(w - fw) * 1000:+7.0f} ms{(c - fc) * 1000:+7.0f} ms"
                want = f"+{goal} ms" if goal else ""
            else:
                fig = f"{w / fw:8.1f}x{c / fc:8.1f}x"
                want = f"{goal}x"
            print(f"{name + ' ' + what:44}{fig}   {want} {'' if unit == '+' else floor[2:]}")
    if args.times:  # the figures the goals are made of, for a before/after in absolute terms
        print(f"{'':44}{'wall':>9}{'CPU':>9}   (medians, ms)")
        for case, (w, c) in sorted(med.items()):
            print(f"{case:44}{w * 1000:9.0f}{c * 1000:9.0f}")


if __name__ == "__main__":
    main()
