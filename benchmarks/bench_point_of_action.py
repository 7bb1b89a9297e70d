#!/usr/bin/env python3
"""Whole-process latency of the Claude Code hooks that give memories, as Claude Code runs them.

    python benchmarks/bench_point_of_action.py [--sizes 1000 10000] [--runs 15] [--work DIR]
                                               [--before REPO]

For each size a store is generated (benchmarks/gen_store.py), the memories linked to
one source file verified (`memkit verify`) and that file then changed (so giving them
asks the staleness engine), the derived index warmed by one SessionStart, and then,
alternating commands in rounds so machine noise hits all alike, a new process per call
of the installed `memkit-hook EVENT` console script (what the launcher in
.claude/settings.json runs):

- `python -c pass`: the floor, a bare interpreter start (same interpreter, same venv);
- pre-tool-use, nothing to give: an Edit of a file no memory is about;
- pre-tool-use, giving: an Edit of a file memories are linked to and scoped to, in a
  new session each time (something is given; verified ones asked for staleness);
- pre-tool-use, already given: the same Edit again and again in one session (after
  the session budget is spent nothing more is given);
- post-tool-use Read: journal line plus the lookup;
- post-tool-use Bash: what every other tool call costs (journal only);
- user-prompt-submit: retrieval for a prompt;
- session-start: the startup context (every memory file's stamp compared);
- session-start, compact: after a compaction of a session that touched a file (the
  touched files' memories named by the index);
- pre-tool-use, index rebuilt: an Edit right after a memory file was touched (the
  index no longer holds: one store load and a rebuild).

With --before REPO, the same calls of the memkit at REPO's HEAD (an earlier version)
are timed in the same rounds (rows `before: ...`).

Prints wall-clock p50 / p95 / max and CPU-time p50 (user + system of the process, less
sensitive to a busy machine) in milliseconds. Never run in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_store import generate

PY = sys.executable
BIN = Path(PY).parent
ENV = {**os.environ, "MEMKIT_TODAY": "2026-11-22"}


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(args: list[str], data: str, cwd: Path) -> tuple[float, float]:
    """(wall ms, CPU ms) of one process (`PYTHONPATH=DIR` first: another memkit's copy)."""
    env = ENV
    if args[0].startswith("PYTHONPATH="):
        env = {**ENV, "PYTHONPATH": args[0].split("=", 1)[1]}
        args = args[1:]
    c, start = cpu(), time.perf_counter()
    done = subprocess.run(args, input=data, capture_output=True, text=True, cwd=cwd, env=env)
    took = time.perf_counter() - start
    if done.returncode != 0 or done.stderr:
        raise SystemExit(f"{args}: {done.stderr}")
    return took * 1000, (cpu() - c) * 1000


def linked_file(root: Path) -> tuple[str, list[str]]:
    """A source file some memories link to, and those memories' ids."""
    import re

    links: dict[str, list[str]] = {}
    for path in (root / ".memory").rglob("*.md"):
        for target in re.findall(r"^- (src/[^:\n]+)::", path.read_text(), re.MULTILINE):
            links.setdefault(target, []).append(path.stem)
    best = max(sorted(links), key=lambda f: len(links[f]))
    return best, links[best]


def prepare(root: Path) -> str:
    """Verify the memories linked to one file, commit, then change that file."""
    target, ids = linked_file(root)
    memkit = [str(BIN / "memkit")]
    subprocess.run([*memkit, "verify", *ids], cwd=root, env=ENV, check=True,
                   capture_output=True)  # fmt: skip
    subprocess.run(["git", "commit", "-qam", "verified"], cwd=root, check=True, env={
        **ENV, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x"})  # fmt: skip
    with open(root / target, "a") as f:
        f.write("\n\ndef added_later():\n    return 1\n")
    text = (root / target).read_text()
    (root / target).write_text(text.replace("return item or", "return item and", 1))
    return target


def baseline(repo: Path, work: Path) -> list[str]:
    """The command running another memkit's hooks: `repo`'s HEAD copied to `work`,
    byte-compiled, run as its `memkit-hook` script does."""
    import compileall
    import io
    import tarfile

    out = work / "baseline"
    if not out.exists():
        data = subprocess.run(["git", "-C", str(repo), "archive", "HEAD", "memkit"],
                              check=True, capture_output=True).stdout  # fmt: skip
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(out, filter="data")
        compileall.compile_dir(out / "memkit", quiet=1)
    code = "import sys; from memkit.agents.claude.hook import main; sys.exit(main())"
    return [f"PYTHONPATH={out}", PY, "-c", code]


def cases(root: Path, target: str, old: list[str] | None) -> dict[str, tuple[list[str], object]]:
    hook = [str(BIN / "memkit-hook")]
    counter = iter(range(10**9))
    touched = next((root / ".memory").glob("*.md"))

    def base(event: str, sid: str = "bench") -> dict[str, object]:
        return {"session_id": sid, "cwd": str(root), "hook_event_name": event,
                "transcript_path": str(root / "t.jsonl")}  # fmt: skip

    def edit(file: str, sid: str = "bench") -> str:
        tool_input = {"file_path": str(root / file), "old_string": "a", "new_string": "b"}
        return json.dumps(
            {**base("PreToolUse", sid), "tool_name": "Edit", "tool_input": tool_input}
        )

    def giving() -> str:
        return edit(target, f"fresh-{next(counter)}")

    read = {**base("PostToolUse"), "tool_name": "Read", "tool_input": {"file_path": "README.md"}}
    bash = {**base("PostToolUse"), "tool_name": "Bash", "tool_input": {"command": "pytest -q"}}
    prompt = {**base("UserPromptSubmit"), "prompt": "why does the invoice cache retry tokens?"}
    compact = {**base("SessionStart", "compacted"), "source": "compact"}
    subprocess.run(
        [*hook, "post-tool-use"],
        input=json.dumps({**read, "session_id": "compacted", "tool_input": {"file_path": target}}),
        capture_output=True,
        cwd=root,
        env=ENV,
        text=True,
    )  # fmt: skip  (a session that touched the target, then compacts)

    def rebuilt() -> str:
        os.utime(touched)  # a memory changed in place: the next SessionStart-free call
        os.utime(touched.parent)  # sees its folder changed and rebuilds
        return edit("README.md", f"rebuilt-{next(counter)}")

    subprocess.run(
        [*hook, "pre-tool-use"],
        input=edit(target),
        capture_output=True,
        cwd=root,
        env=ENV,
        text=True,
    )  # fmt: skip  (the "already given" session)
    before = {} if old is None else {
        "before: pre-tool-use, nothing": ([*old, "pre-tool-use"], edit("README.md")),
        "before: post-tool-use Read": ([*old, "post-tool-use"], json.dumps(read)),
        "before: post-tool-use Bash": ([*old, "post-tool-use"], json.dumps(bash)),
        "before: user-prompt-submit": ([*old, "user-prompt-submit"], json.dumps(prompt)),
        "before: session-start": ([*old, "session-start"],
                                  json.dumps({**base("SessionStart", "old"), "source": "startup"})),
    }  # fmt: skip
    return before | {
        "python -c pass": ([PY, "-c", "pass"], ""),
        "pre-tool-use, nothing to give": ([*hook, "pre-tool-use"], edit("README.md")),
        "pre-tool-use, giving": ([*hook, "pre-tool-use"], giving),
        "pre-tool-use, already given": ([*hook, "pre-tool-use"], edit(target)),
        "post-tool-use Read": ([*hook, "post-tool-use"], json.dumps(read)),
        "post-tool-use Bash": ([*hook, "post-tool-use"], json.dumps(bash)),
        "user-prompt-submit": ([*hook, "user-prompt-submit"], json.dumps(prompt)),
        "session-start": ([*hook, "session-start"],
                          json.dumps({**base("SessionStart", "start"), "source": "startup"})),
        "session-start, compact": ([*hook, "session-start"], json.dumps(compact)),
        "pre-tool-use, index rebuilt": ([*hook, "pre-tool-use"], rebuilt),
    }  # fmt: skip


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument(
        "--before",
        type=Path,
        default=None,
        metavar="REPO",
        help="Also time the hooks of the memkit at REPO's HEAD (rows `before:`).",
    )
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="memkit-poa-"))
    # Byte-code compiled as pip does when it installs (PYTHONDONTWRITEBYTECODE would
    # otherwise make every hook compile the modules it imports from source).
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "memkit", quiet=1)
    print(f"{'case':34} {'memories':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cpu p50':>8}")
    for n in args.sizes:
        root = work / f"store-{n}"
        if not root.exists():
            generate(n, root)
            prepare(root)
        target, _ = linked_file(root)
        start = json.dumps({"session_id": "warm", "cwd": str(root), "source": "startup",
                            "hook_event_name": "SessionStart"})  # fmt: skip
        timed([str(BIN / "memkit-hook"), "session-start"], start, root)  # warm
        old = baseline(args.before, work) if args.before else None
        table = cases(root, target, old)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in table}
        for _ in range(args.runs):
            for name, (argv, data) in table.items():
                text = data() if callable(data) else data
                times[name].append(timed(argv, str(text), root))
            for name in ("session-start", "before: session-start"):  # untimed: the next round
                if name in table:  # does not pay for the rebuild case's change
                    timed(table[name][0], str(table[name][1]), root)
        for name, got in times.items():
            xs, cs = [w for w, _ in got], [c for _, c in got]
            print(f"{name:34} {n:>8} {pct(xs, 0.5):>8.1f} {pct(xs, 0.95):>8.1f} "
                  f"{max(xs):>8.1f} {pct(cs, 0.5):>8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
