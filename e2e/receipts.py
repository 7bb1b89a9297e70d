"""memkit's receipts against the record: `memkit why` for the recorded Claude Code session.

Claude Code runs with memkit's hooks installed (`memkit hooks install --claude`), so its
receipts name every memory the session received: through CLAUDE.md (or AGENTS.md), a
.claude/rules file, or a hook. The check compares them with what the recorded requests
carried (analyze.py): a memory in full in a request must have a receipt in full, one
shortened to its title a receipt of its title (or description), one absent none.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from analyze import RunResult

AGENT = "claude"  # the agent whose hooks keep receipts


def prepare(repo: Path, memkit: str, env: dict[str, str]) -> None:
    """Install memkit's Claude Code hooks in `repo`; put memkit-hook on the run's PATH."""
    done = subprocess.run([memkit, "hooks", "install", "--claude"], cwd=repo,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"memkit hooks install --claude failed: {done.stderr.strip()}")
    env["PATH"] = f"{Path(memkit).parent}:{env['PATH']}"


def _memkit(memkit: str, repo: Path, *args: str) -> tuple[int, str]:
    done = subprocess.run([memkit, *args], cwd=repo, capture_output=True, text=True,
                          check=False)  # fmt: skip
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr.strip()


def received(memkit: str, repo: Path) -> dict[str, tuple[str, int]] | str:
    """{memory id: (state, routes)} from `memkit why` for the run's one session: "full",
    "short" or "desc" (a description alone), and how many routes (files, hooks) gave it
    in full; or why there is none."""
    code, said = _memkit(memkit, repo, "sessions")
    if code != 0:
        return f"`memkit sessions` failed: {said[-200:]}"
    sids = [line.split()[0] for line in said.splitlines()[1:] if line.strip()]
    if not sids:
        return "no receipts: Claude Code ran none of memkit's hooks"
    if len(sids) != 1:
        return f"`memkit sessions` lists {len(sids)} sessions, not one"
    code, said = _memkit(memkit, repo, "why", sids[0], "--json")
    if code != 0:
        return f"`memkit why {sids[0]}` failed: {said[-200:]}"
    full: dict[str, set[str]] = {}
    short: dict[str, str] = {}  # a description (activation: agent) or a title line
    for rec in json.loads(said):
        mid = rec.get("id")
        if mid and rec.get("form"):
            short[mid] = "desc" if rec["form"] == "description" else "short"
        elif mid:
            full.setdefault(mid, set()).add(rec.get("via") or f"hook {rec.get('event')}")
    out = {mid: (form, 0) for mid, form in short.items()}
    out.update({mid: ("full", len(routes)) for mid, routes in full.items()})
    return out


def check(result: RunResult, run_dir: Path, memkit: str) -> str:
    """One line: `receipts agree` or each memory the receipts and the requests disagree on
    (`api:sent full 2x, receipts full 1x`: in full twice in one request, from one file)."""
    got = received(memkit, run_dir / "repo")
    if isinstance(got, str):
        return got

    def said(state: tuple[str, int] | None) -> str:
        if state is None or state[0] == "absent":
            return "none"
        return f"full {state[1]}x" if state[0] == "full" else state[0]

    sent = {mid: s for mid, s in result.memories.items() if s[0] != "absent"}
    wrong = [
        f"{mid}:sent {said(sent.get(mid))}, receipts {said(got.get(mid))}"
        for mid in sorted({*sent, *got})
        if said(sent.get(mid)) != said(got.get(mid))
    ]
    return "receipts agree" if not wrong else "receipts disagree: " + " ".join(wrong)


def report(results: list[RunResult], runs: Path, memkit: str) -> str:
    """The receipts check of each Claude Code run that ran, one line each ("" for none)."""
    lines = []
    for r in results:
        if r.agent == AGENT and not r.status.startswith("skipped"):
            run_dir = (
                Path(r.run_dir) if r.run_dir else runs / f"{r.agent}-{r.scenario.replace(':', '-')}"
            )
            lines.append(f"{r.agent:<10}{r.scenario:<12}{check(r, run_dir, memkit)}")
    if not lines:
        return ""
    return "\n".join(["", "", "memkit's receipts (`memkit why`) against the run:", *lines])
