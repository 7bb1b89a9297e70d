"""What section 2 of benchmarks/adversarial.py records while its writers run, and the audit
of the final store against it: every write a process acknowledged must be there."""

from __future__ import annotations

import re
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adv_common import Run, git, memkit, run


@dataclass
class Owned:
    """What one writer knows it did to one of its memories."""

    tokens: list[str]  # acknowledged text since the last acknowledged revert
    committed: bool = False
    approved: bool = False


@dataclass
class Ledger:
    """Everything acknowledged, and everything that went wrong, across all threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    ops: Counter[str] = field(default_factory=Counter)
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    unclean: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    seed_tokens: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    owned: dict[str, Owned] = field(default_factory=dict)
    removed: set[str] = field(default_factory=set)
    mcp_drafts: dict[str, list[str]] = field(default_factory=dict)
    archived: set[str] = field(default_factory=set)
    revisions: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (seed, token)
    sessions: dict[str, list[str]] = field(default_factory=dict)  # draft id -> tokens
    commits: list[str] = field(default_factory=list)  # acknowledged commit subjects
    slowest: dict[str, float] = field(default_factory=dict)

    def done(self, op: str, r: Run, ok: bool, refusal: str | None = None) -> None:
        """Count one operation: fine, a refusal that is the right answer, or an error."""
        with self.lock:
            self.ops[op] += 1
            self.slowest[op] = max(self.slowest.get(op, 0.0), r.seconds)
            if r.hung:
                self.hangs.append(r.show(200))
            elif refusal:
                self.refusals[refusal] += 1
            elif not ok:
                self.errors[_kind(op, r)].append(r.show(300))
                if not r.clean_error():
                    self.unclean.append(r.show(400))


def _kind(op: str, r: Run) -> str:
    """The error's last line with names, numbers and paths blanked: errors group by kind."""
    lines = [x for x in r.err.splitlines() if x.strip() and "warning" not in x]
    first = lines[-1] if lines else f"exit {r.code}, no message"
    first = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", first)
    first = re.sub(r"\b[0-9a-f]{7,40}\b|\d+", "N", first)
    first = re.sub(r"/[^\s:]+", "PATH", first)
    return f"{op}: {first[:140]}"


def git_refusal(r: Run) -> str | None:
    """git's own answers to a race with another commit (not memkit's doing), or the hook's."""
    if r.code == 1 and "regenerated" in r.err:
        return "pre-commit hook regenerated outputs"
    if r.code and "index.lock" in r.err:
        return "git commit: index.lock held by another process"
    if r.code and "cannot lock ref 'HEAD'" in r.err:
        return "git commit: HEAD moved by a concurrent commit"
    return None


# ---------------------------------------------------------------------- the audit


def audit(L: Ledger, repo: Path, env: dict[str, str], hang: float) -> dict[str, list[str]]:
    """Lost updates, duplicate ids, files that do not parse and other problems at the end."""
    from memkit.store import Store

    loaded = Store(repo).load()
    by_id = {m.id: m for m in loaded.memories}
    lost = _lost_cli(L, by_id) + _lost_agents(L, by_id) + _lost_commits(L, repo, env)
    stems = Counter(p.stem.casefold() for p in Store(repo).files())
    return {
        "lost": lost,
        "duplicate ids": [f"id {s} is used by {n} files" for s, n in stems.items() if n > 1],
        "files that do not parse": [str(p) for p in loaded.problems],
        "other problems": _other(repo, env, hang),
    }


def _lost_cli(L: Ledger, by_id: dict[str, Any]) -> list[str]:
    lost: list[str] = []
    for mid, own in L.owned.items():
        mem = by_id.get(mid)
        if mid in L.removed:
            if mem is not None:
                lost.append(f"{mid}: removed (acknowledged) but back in the store")
            continue
        if mem is None:
            lost.append(f"{mid}: added (acknowledged) but missing")
            continue
        lost += [f"{mid}: acknowledged text {t} is missing" for t in own.tokens
                 if t not in mem.body]  # fmt: skip
        if own.approved and mem.status != "active":
            lost.append(f"{mid}: approved but status is {mem.status}")
    for seed, tokens in L.seed_tokens.items():
        body = by_id[seed].body if seed in by_id else ""
        lost += [f"{seed}: saved edit {t} is missing" for t in tokens if t not in body]
    return lost


def _lost_agents(L: Ledger, by_id: dict[str, Any]) -> list[str]:
    lost: list[str] = []
    for mid, tokens in L.mcp_drafts.items():
        mem = by_id.get(mid)
        if mem is None:
            lost.append(f"{mid}: MCP save acknowledged but missing")
            continue
        lost += [f"{mid}: MCP update {t} is missing" for t in tokens if t not in mem.body]
        if mid in L.archived and mem.status != "archived":
            lost.append(f"{mid}: forgotten (archived) but status is {mem.status}")
    for rid, (seed, token) in L.revisions.items():
        mem = by_id.get(rid)
        if mem is None or token not in mem.body or mem.revises != seed:
            lost.append(f"{rid}: proposed revision of {seed} ({token}) is missing")
    for did, tokens in L.sessions.items():
        if did not in by_id:
            lost.append(f"{did}: session draft reported saved but missing")
            continue
        lost += [f"{did}: journaled command {t} is not in the draft" for t in tokens
                 if t not in by_id[did].body]  # fmt: skip
    return lost


def _lost_commits(L: Ledger, repo: Path, env: dict[str, str]) -> list[str]:
    subjects = set(git(repo, "log", "--format=%s", env=env).splitlines())
    lost = [f"commit {s!r} acknowledged but not in the history" for s in L.commits
            if s not in subjects]  # fmt: skip
    for mid, own in L.owned.items():
        if own.committed and mid not in L.removed:
            rel = f".memory/{mid}.md"
            if run(["git", "cat-file", "-e", f"HEAD:{rel}"], cwd=repo, env=env).code:
                lost.append(f"{rel}: committed by add --commit but not in HEAD")
    return lost


def _other(repo: Path, env: dict[str, str], hang: float) -> list[str]:
    out = []
    v = memkit(repo, env, "validate", timeout=hang)
    if v.code != 0:
        out.append(f"validate at the end: {v.show()}")
    fsck = run(["git", "fsck", "--no-progress", "--no-dangling"], cwd=repo, env=env)
    if fsck.code != 0:
        out.append(f"git fsck: {fsck.err.strip()[:300]}")
    tracked = git(repo, "log", "--all", "--name-only", "--format=", env=env)
    temps = sorted({p for p in tracked.splitlines() if re.search(r"(^|/)\.[^/]+\.tmp$", p)})
    out += [f"a temporary file was committed: {p}" for p in temps[:5]]
    return out
