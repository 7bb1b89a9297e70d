"""Section 1 of benchmarks/adversarial.py: SIGKILL every write path at its I/O calls.

A `sitecustomize.py` put on PYTHONPATH counts the calls memkit's own code makes into
builtins and other libraries (the approach of tests/test_crash.py) in any Python process
that inherits ADV_CRASH_*: a `memkit` command, the MCP server, the hook Claude Code
runs, the pre-commit hook `git commit` runs. A clean run lists the calls; each trial
then copies a fresh repository and kills a new run at one call with SIGKILL, and checks:
every file is its old or its new version, files no run changes are intact, the store
validates, `git fsck` passes, git can still commit, and running the command again works.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adv_common import (
    SID,
    Run,
    Section,
    git,
    hook,
    memkit,
    rmtree,
    run,
    work_tree,
    write,
)
from adv_crash_paths import EDITOR, PATHS, READS, SITECUSTOMIZE, STRIDE, WRITES, Path_, template
from adv_mcp import Mcp

# memkit's temporary files: `.NAME.RANDOM.tmp` beside the file (memkit.atomicwrite), and
# whatever is inside a batch's `.memkit-RANDOM.tmp/` folder (memkit.fsutil)
TEMP = re.compile(r"(^|/)\.[^/]+\.[A-Za-z0-9_]{8,}\.tmp$|(^|/)\.memkit-[0-9a-f]+\.tmp(/|$)")


class Crash:
    def __init__(self, base: Path, env: dict[str, str]) -> None:
        import memkit as pkg

        self.base = base / "crash"
        self.base.mkdir(parents=True, exist_ok=True)
        hookdir = self.base / "sitehook"
        write(hookdir / "sitecustomize.py", SITECUSTOMIZE)
        self.env = env
        self.pkg = str(Path(pkg.__file__).parent)
        pythonpath = os.pathsep.join(filter(None, [str(hookdir), env.get("PYTHONPATH")]))
        self.crash_env = {
            **env,
            "PYTHONPATH": pythonpath,
            "ADV_CRASH_PKG": self.pkg,
            "EDITOR": f"{sys.executable} {write(self.base / 'editor.py', EDITOR)}",
        }
        self.log = self.base / "calls.txt"
        self.hit = self.base / "hit"
        self.first = ""  # the template's first commit, where `revert --to` goes

    # ---------------------------------------------------------------- repositories

    def fresh(self, src: Path, dst: Path) -> Path:
        rmtree(dst.parent)
        dst.parent.mkdir(parents=True)
        shutil.copytree(src, dst, symlinks=True)
        return dst

    # ---------------------------------------------------------------- running

    def args(self, p: Path_) -> list[str]:
        return [self.first if a == "FIRST" else a for a in p.args]

    def go(
        self,
        p: Path_,
        repo: Path,
        at: int = 0,
        *,
        log: bool = False,
        hit: Path | None = None,
        steps: list[dict[str, bytes]] | None = None,
    ) -> Run:
        env = dict(self.env) if at < 0 else dict(self.crash_env)
        if at >= 0:
            env["ADV_CRASH_AT"] = str(at)
            env["ADV_CRASH_HIT"] = str(hit or self.hit)
            if log:
                env["ADV_CRASH_LOG"] = str(self.log)
        else:
            env["EDITOR"] = self.crash_env["EDITOR"]
        if p.driver == "cli":
            return memkit(repo, env, *self.args(p), stdin=p.stdin, timeout=120)
        if p.driver == "stop":
            payload = {
                "session_id": SID,
                "cwd": str(repo),
                "hook_event_name": "Stop",
                "transcript_path": str(repo / "nope.jsonl"),
            }
            return hook(repo, env, "stop", payload, timeout=120)
        if p.driver == "git-commit":
            return run(
                ["git", "commit", "-q", "--allow-empty", "-m", "staged rule"],
                cwd=repo,
                env=env,
                timeout=120,
            )
        return self._mcp(repo, env, steps)

    def _mcp(self, repo: Path, env: dict[str, str], steps: list[dict[str, bytes]] | None) -> Run:
        """Save a draft, update it, propose a revision; `steps` gets the files after each."""
        client = Mcp(repo, env)
        notes = []
        if client.initialize(timeout=60):
            calls: list[tuple[str, dict[str, Any]]] = [
                (
                    "save_memory",
                    {
                        "title": "MCP note",
                        "body": "Learned from the agent.",
                        "links": ["src/app.py"],
                    },
                ),
                ("update_memory", {"id": "mcp-note", "body": "Learned, then refined."}),
                ("update_memory", {"id": "keep", "body": "Never touched, says the agent."}),
            ]
            for tool, args in calls:
                status, _ = client.call(tool, args, timeout=60)
                notes.append(f"{tool}:{status}")
                if steps is not None:
                    steps.append(_state(repo))
                if status in ("dead", "timeout"):
                    break
        else:
            notes.append("initialize failed")
        code, err = client.close(timeout=60)
        if code == 0 and any(not n.endswith((":ok", ":error")) for n in notes):
            code = 1
        return Run(["memkit", "mcp"], code, " ".join(notes), err, 0.0)

    def points(self, p: Path_, src: Path, cap: int) -> tuple[list[int], int]:
        """(call numbers to kill at, I/O calls seen) from one clean counted run."""
        repo = self.fresh(src, self.base / "trial" / "repo")  # as every trial starts
        self.log.unlink(missing_ok=True)
        done = self.go(p, repo, 0, log=True)
        if done.code not in p.codes and p.driver != "mcp":
            raise RuntimeError(f"clean run of {p.name} failed: {done.show()}")
        names = self.log.read_text().splitlines() if self.log.exists() else []
        writes = [i for i, n in enumerate(names, 1) if n in WRITES]
        others = [
            i for i, n in enumerate(names, 1) if (n in READS or i % STRIDE == 0) and n not in WRITES
        ]
        every = sorted(writes + others)
        if cap <= 0 or len(every) <= cap:
            return every, len(every)
        chosen = (
            _spread(writes, cap)
            if len(writes) >= cap
            else writes + _spread(others, cap - len(writes))
        )
        return sorted(chosen), len(every)


def _spread(items: list[int], n: int) -> list[int]:
    if n <= 0 or not items:
        return []
    if n >= len(items):
        return list(items)
    step = len(items) / n
    return [items[int(i * step + step / 2)] for i in range(n)]


# -------------------------------------------------------------------- checks


def _state(repo: Path) -> dict[str, bytes]:
    return {k: v for k, v in work_tree(repo).items() if not TEMP.search(k)}


def _store_problems(repo: Path) -> list[str]:
    from memkit.store import Store
    from memkit.validation import validate

    try:
        return [str(p) for p in validate(Store(repo))]
    except Exception as e:  # a store that cannot even load is damaged
        return [f"{type(e).__name__}: {e}"]


def _head_tree(repo: Path, env: dict[str, str]) -> str:
    return git(repo, "rev-parse", "HEAD^{tree}", env=env).strip()


def _git_problems(repo: Path, env: dict[str, str]) -> list[str]:
    out = []
    fsck = run(["git", "fsck", "--no-progress", "--no-dangling"], cwd=repo, env=env, timeout=60)
    if fsck.code != 0:
        out.append(f"git fsck: {fsck.err.strip()[:200]}")
    status = run(["git", "status", "--porcelain"], cwd=repo, env=env, timeout=60)
    if status.code != 0:
        out.append(f"git status: {status.err.strip()[:200]}")
    probe = run(
        ["git", "commit", "-q", "--no-verify", "--allow-empty", "-m", "probe"],
        cwd=repo,
        env=env,
        timeout=60,
    )
    if probe.code != 0:
        out.append(f"git commit afterwards: {probe.err.strip()[:200]}")
    return out


@dataclass
class Tally:
    trials: int = 0
    killed: int = 0
    points: int = 0
    seen: int = 0
    damaged: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    temp: int = 0
    short: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bump(self, **counts: int) -> None:
        with self.lock:
            for name, n in counts.items():
                setattr(self, name, getattr(self, name) + n)


def _compare(
    old: dict[str, bytes],
    new: dict[str, bytes],
    now: dict[str, bytes],
    tally: Tally,
    where: str,
    steps: list[dict[str, bytes]],
) -> None:
    """Each file must be as it was, as a clean run left it, or as a step of a clean run left it."""
    for rel in sorted(set(old) | set(new) | set(now)):
        got, was, will = now.get(rel), old.get(rel), new.get(rel)
        if got in (was, will) or any(got == step.get(rel) for step in steps):
            continue
        if was is not None and was == will:
            tally.lost.append(f"{where}: {rel} was changed or removed; no run changes it")
        elif got is None:
            tally.lost.append(f"{where}: {rel} is gone (old and new both have it)")
        else:
            tally.damaged.append(
                f"{where}: {rel} is neither the old nor the new version ({len(got)} bytes)"
            )


def trial(
    c: Crash,
    p: Path_,
    src: Path,
    at: int,
    old: dict[str, bytes],
    new: dict[str, bytes],
    trees: tuple[str, str],
    tally: Tally,
    slot: int,
    steps: list[dict[str, bytes]],
) -> None:
    repo = c.fresh(src, c.base / f"trial{slot}" / "repo")
    hit = c.base / f"hit{slot}"
    hit.unlink(missing_ok=True)
    done = c.go(p, repo, at, hit=hit)
    where = f"{p.name} killed at call {at}"
    tally.bump(trials=1, killed=int(hit.exists()))
    if not hit.exists():
        where = f"{p.name} (call {at} not reached)"
    if done.hung:
        tally.damaged.append(f"{where}: the run hung")
    tally.bump(temp=sum(1 for k in work_tree(repo) if TEMP.search(k)))
    _compare(old, new, _state(repo), tally, where, steps)
    tally.damaged += [f"{where}: validate: {x}" for x in _store_problems(repo)[:3]]
    if p.commits:
        head = _head_tree(repo, c.env)
        if head not in trees:
            tally.damaged.append(f"{where}: HEAD's tree is neither the old nor the new one")
    again = c.go(p, repo, -1)
    if again.code != 0 and not again.clean_error():
        tally.damaged.append(f"{where}: running it again: {again.show()}")
    elif p.converges and _state(repo) != new:
        diff = [k for k in set(_state(repo)) | set(new) if _state(repo).get(k) != new.get(k)]
        tally.short.append(
            f"{where}: running it again did not reach the clean result "
            f"({', '.join(sorted(diff)[:3])})"
        )
    tally.damaged += [f"{where}: {x}" for x in _git_problems(repo, c.env)]


def run_trials(
    c: Crash,
    p: Path_,
    src: Path,
    points: list[int],
    states: tuple[dict[str, bytes], dict[str, bytes], list[dict[str, bytes]]],
    trees: tuple[str, str],
    tally: Tally,
    jobs: int,
) -> None:
    """One trial per kill point, `jobs` at a time, each in a repository slot of its own."""
    old, new, steps = states
    slots: queue.Queue[int] = queue.Queue()
    for n in range(jobs):
        slots.put(n)

    def one(at: int) -> None:
        slot = slots.get()
        try:
            trial(c, p, src, at, old, new, trees, tally, slot, steps)
        finally:
            slots.put(slot)

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, points))


def run_section(
    base: Path,
    env: dict[str, str],
    *,
    quick: bool,
    cap: int,
    jobs: int = 1,
    only: list[str] | None = None,
) -> Section:
    section = Section(1, "kill -9 per write path")
    c = Crash(base, env)
    src0, c.first = template(c.base, env)
    totals = Tally()
    for p in PATHS:
        if only and p.name not in only:
            continue
        src = c.fresh(src0, c.base / "paths" / re.sub(r"\W+", "-", p.name) / "repo")
        if p.prepare:
            p.prepare(src, env)
        old = _state(src)
        trees = (_head_tree(src, env), "")
        try:
            points, seen = c.points(p, src, 2 if quick else cap)
        except RuntimeError as e:  # its clean run failed: nothing to compare a kill with
            section.fig("clean runs that failed").add(str(e))
            continue
        clean = c.fresh(src, c.base / "clean" / "repo")
        steps: list[dict[str, bytes]] = []
        done = c.go(p, clean, -1, steps=steps)
        if done.code not in p.codes:
            section.fig("clean runs that failed").add(f"{p.name}: {done.show()}")
        new = _state(clean)
        if p.commits:
            trees = (trees[0], _head_tree(clean, env))
        tally = Tally(points=len(points), seen=seen)
        run_trials(c, p, src, points, (old, new, steps), trees, tally, jobs)
        section.details.append(
            f"{p.name}: {tally.killed}/{tally.trials} runs killed ({seen} I/O calls, "
            f"{len(points)} tried), damaged {len(tally.damaged)}, lost {len(tally.lost)}"
            + (f", temp files left {tally.temp}" if tally.temp else "")
        )
        for attr in ("trials", "killed", "temp"):
            setattr(totals, attr, getattr(totals, attr) + getattr(tally, attr))
        for x in tally.damaged:
            section.fig("damaged").add(x)
        for x in tally.lost:
            section.fig("lost").add(x)
        for x in tally.short:
            section.fig("re-runs that stop short", zero=False).add(x)
    section.count("trials", totals.trials)
    section.count("killed", totals.killed)
    section.fig("damaged")
    section.fig("lost")
    section.count("temp files left (ignored by memkit)", totals.temp)
    return section


def summary(section: Section) -> str:
    f = section.figures
    return (
        f"trials {f['trials'].value} (killed {f['killed'].value}), damaged "
        f"{f['damaged'].value}, lost {f['lost'].value}"
    )
