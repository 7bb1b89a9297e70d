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


def received(memkit: str, repo: Path) -> dict[str, str] | str:
    """{memory id: "full" or "short"} from `memkit why` for the run's one session, or
    why there is none."""
    code, said = _memkit(memkit, repo, "sessions")
    if code != 0:
        return f"`memkit sessions` failed: {said[-200:]}"
    sids = [line.split()[0] for line in said.splitlines()[1:] if line.strip()]
    if len(sids) != 1:
        return f"`memkit sessions` lists {len(sids)} sessions, not one"
    code, said = _memkit(memkit, repo, "why", sids[0], "--json")
    if code != 0:
        return f"`memkit why {sids[0]}` failed: {said[-200:]}"
    out: dict[str, str] = {}
    for rec in json.loads(said):
        mid = rec.get("id")
        if mid:
            state = "short" if rec.get("form") else "full"
            if out.get(mid) != "full":
                out[mid] = state
    return out


def check(result: RunResult, run_dir: Path, memkit: str) -> str:
    """One line: `receipts agree` or each memory the receipts and the requests disagree on
    (`api:sent full, receipt none`)."""
    got = received(memkit, run_dir / "repo")
    if isinstance(got, str):
        return got
    sent = {mid: state for mid, (state, _) in result.memories.items() if state != "absent"}
    wrong = [
        f"{mid}:sent {sent.get(mid, 'none')}, receipt {got.get(mid, 'none')}"
        for mid in sorted({*sent, *got})
        if sent.get(mid) != got.get(mid)
    ]
    return "receipts agree" if not wrong else "receipts disagree: " + " ".join(wrong)


def report(results: list[RunResult], runs: Path, memkit: str) -> str:
    """The receipts check of each Claude Code run that ran, one line each ("" for none)."""
    lines = []
    for r in results:
        if r.agent == AGENT and not r.status.startswith("skipped"):
            run_dir = runs / f"{r.agent}-{r.scenario.replace(':', '-')}"
            lines.append(f"{r.agent:<10}{r.scenario:<12}{check(r, run_dir, memkit)}")
    if not lines:
        return ""
    return "\n".join(["", "", "memkit's receipts (`memkit why`) against the run:", *lines])
