"""What reached the model: memory and file markers counted in each recorded request.

A memory is "full" in a request when its body marker is there, "short" when only its
title marker is (memkit's one-line entry), absent otherwise; "how many times" is the
count of the marker in that one request. Requests are counted one by one (some agents
send two a turn, and each carries the instructions), never summed over a run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from endpoint import offered_tools, read_records, tool_results
from scratch import BY_ID, STALE_LINK, STALE_NOTE, file_marker, memories_of

MODEL_FLAVOURS = ("anthropic", "chat", "responses", "gemini")


@dataclass
class RunResult:
    """One agent in one scenario: what each model request carried."""

    agent: str
    scenario: str
    status: str = "ok"  # ok, timeout, exit N, skipped: why
    seconds: float = 0.0  # the run's wall time, namespaces and all
    requests: int = 0
    tool_calls: list[str] = field(default_factory=list)  # tools the endpoint called
    read_done: bool = False  # a request carried the tool's result
    tools: bool = False  # a request offered tools (Aider's do not)
    memories: dict[str, tuple[str, int]] = field(default_factory=dict)  # id -> (state, max)
    start_files: list[str] = field(default_factory=list)  # in requests before any tool result
    after_files: list[str] = field(default_factory=list)  # new in requests after one
    after_read: dict[str, int] = field(default_factory=dict)  # file -> tools' answers then
    twice: list[str] = field(default_factory=list)  # memories more than once in one request
    model: list[str] = field(default_factory=list)  # files memkit's model gets wrong (+/-)
    model_note: str = ""  # why there is no comparison
    stale_note: bool | None = None  # a stale memory in full came with its annotation
    run_dir: str = ""  # where the run is recorded (CACHE/runs/TIME/AGENT-SCENARIO)


def count(text: str, memory_id: str) -> tuple[str, int]:
    """(state, times) of one memory in one request's text: "desc" is an `activation:
    agent` memory offered by its description alone."""
    m = BY_ID[memory_id]
    for state, marker in (
        ("full", m.body_marker),
        ("desc", m.description_marker),
        ("short", m.title_marker),
    ):  # a description comes with the title
        times = text.count(marker)
        if times:
            return state, times
    return "absent", 0


def annotated(text: str) -> bool:
    """Whether memkit's stale annotation, naming the changed link, is in `text`."""
    return any(STALE_LINK in part for part in text.split(STALE_NOTE)[1:])


def store_of(scenario: str) -> str:
    """The store of a scenario written `STORE:SCENARIO` ("all" when none is given)."""
    return scenario.rpartition(":")[0] or "all"


RANK = {"absent": 0, "desc": 1, "short": 2, "full": 3}
LETTER = {"full": "F", "short": "S", "desc": "D", "absent": "-"}


def analyse(result: RunResult, record: Path, files: list[str]) -> RunResult:
    """Fill `result` from the requests recorded in `record`."""
    start: set[str] = set()
    after: set[str] = set()
    memories = memories_of(store_of(result.scenario))
    best: dict[str, tuple[str, int]] = {m.id: ("absent", 0) for m in memories}
    twice: set[str] = set()
    for entry in read_records(record):
        if entry.get("flavour") not in MODEL_FLAVOURS:
            continue
        body: dict[str, Any] = entry.get("body") or {}
        text = json.dumps(body, ensure_ascii=False)
        result.requests += 1
        reply = str(entry.get("reply", ""))
        if reply.startswith("tool:"):
            result.tool_calls.append(reply[5:])
        result.tools = result.tools or bool(offered_tools(entry["flavour"], body))
        answers = tool_results(entry["flavour"], body)
        later = answers > 0
        result.read_done = result.read_done or later
        seen = {f for f in files if file_marker(f) in text}
        (after if later else start).update(seen)
        for f in seen - start if later else ():
            result.after_read[f] = min(result.after_read.get(f, answers), answers)
        for m in memories:
            state, times = count(text, m.id)
            if m.links and state == "full":
                result.stale_note = bool(result.stale_note) or annotated(text)
            if times > 1:
                twice.add(m.id)
            old = best[m.id]
            if (RANK[state], times) > (RANK[old[0]], old[1]):
                best[m.id] = (state, times)
    result.memories = best
    result.start_files = sorted(start)
    result.after_files = sorted(after - start)
    result.after_read = {f: n for f, n in result.after_read.items() if f in result.after_files}
    result.twice = sorted(twice)
    return result


def cell(r: RunResult) -> str:
    """One table cell: each memory's best state and count, then the files seen."""
    if r.status.startswith("skipped"):
        return r.status
    marks = " ".join(f"{mid}:{LETTER[s]}{n if n else ''}" for mid, (s, n) in r.memories.items())
    if r.stale_note is not None:
        marks += f" stale-note:{'yes' if r.stale_note else 'NO'}"
    extra = f" [{r.status}]" if r.status != "ok" else ""
    read = ""
    if r.scenario.endswith("read"):
        read = f" read:{'yes' if r.read_done else 'NO' if r.tools else 'no tools'}"
    return f"{marks}{read}{extra} ({r.requests} req, {r.seconds:.0f} s)"


def table(results: list[RunResult], scenarios: list[str]) -> str:
    """The agent x scenario table, plain text, then the files per run."""
    width = max((len(r.agent) for r in results), default=5) + 2
    lines = ["memory:F<n> full n times in one request, S<n> shortened, D<n> its description"
             " alone, - absent", ""]  # fmt: skip
    agents = list(dict.fromkeys(r.agent for r in results))
    by = {(r.agent, r.scenario): r for r in results}
    for s in scenarios:
        lines.append(f"== scenario {s}")
        for a in agents:
            r = by.get((a, s))
            if r:
                lines.append(f"{a:<{width}}{cell(r)}")
    lines += ["", "files that reached the model (start | added after the read):"]
    for r in results:
        if not r.status.startswith("skipped"):
            several = max(r.after_read.values(), default=0) > 1  # which read brought each
            added = [f"{f} (read {r.after_read[f]})" if several and f in r.after_read else f
                     for f in r.after_files]  # fmt: skip
            after = f" | +{', '.join(added)}" if added else ""
            lines.append(
                f"{r.agent:<{width}}{r.scenario:<12}{', '.join(r.start_files) or '-'}{after}"
            )
    lines += ["", "memories more than once in one request (the most times in one):"]
    for r in results:
        if not r.status.startswith("skipped"):
            many = [f"{m} {r.memories[m][1]}x" for m in r.twice if m in r.memories]
            lines.append(f"{r.agent:<{width}}{r.scenario:<12}{', '.join(many) or 'none'}")
    lines += ["", "memkit's model (`memkit compile --explain`) against the run"
              " (+file sent but not modelled, -file modelled but not sent):"]  # fmt: skip
    for r in results:
        if not r.status.startswith("skipped"):
            said = r.model_note or (" ".join(r.model) if r.model else "agrees")
            lines.append(f"{r.agent:<{width}}{r.scenario:<12}{said}")
    return "\n".join(lines)
