"""`memkit compile --explain AGENT`: which memories one agent will see, where, and why not.

Each file the agent loads, and when (always, for a glob, or by the folder it starts
in: memkit.compile.readers); for every compiled memory, the files of the agent that
hold it in full or shortened to a line, the ones whose budget left it out, or why it
reaches the agent in none (on demand, its target off). Read from a Plan; nothing is
written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memkit.compile.readers import AGENTS, Reader
from memkit.compile.scopes import activation


def explain(plan: Any, agent: str, hook: tuple[list[str], list[str]] | None = None) -> list[str]:
    """The lines of `--explain`: the files `agent` loads, then one line per memory.
    `hook`: what memkit's SessionStart hook gives a session started at the root (ids in
    full, ids by their description), when it is installed for this agent."""
    reader = AGENTS[agent]
    loaded: Sequence[Any] = reader.loads(plan.placed, plan.root)
    lines = [f"{agent} loads {len(loaded)} of memkit's file(s):"]
    for p in loaded:
        cut = f", {len(p.short)} shortened, {len(p.cut)} left out" if p.short or p.cut else ""
        when = reader.when(p)
        lines.append(f"  {p.path} ({when}; budget {p.budget}): {len(p.full)} in full{cut}")
    if reader.target not in plan.targets:
        lines.append(f"  (the {reader.target} target is off in .memory/config.toml)")
    full, described = hook or ([], [])
    if hook is not None:
        lines.append(
            f"  memkit's SessionStart hook (when started in the repository root): {len(full)} "
            f"in full, {len(described)} by description"
        )
    width = max((len(m.id) for m in plan.selected), default=0)
    lines.append(f"{len(plan.selected)} memory(ies) compiled:")
    for m in plan.selected:
        by_hook = (
            "in full by the SessionStart hook"
            if m.id in full
            else "by its description from the SessionStart hook"
            if m.id in described
            else ""
        )
        lines.append(f"  {m.id.ljust(width)}  {_fate(m, loaded, agent, reader, by_hook)}")
    lines.extend(f"note: {f}" for f in plan.facts if f.startswith(f"{agent} "))
    return lines


def _fate(m: Any, loaded: Sequence[Any], agent: str, reader: Reader, by_hook: str) -> str:
    holders = [p for p in loaded if m.id in p.full]
    full = [p.path for p in holders]
    short = [p.path for p in loaded if m.id in p.short]
    cut = [f"{p.path} ({p.budget})" for p in loaded if m.id in p.cut]
    parts = []
    if full:
        at = [reader.situation(p) for p in holders]
        twice = " (twice)" if len(at) > len(set(at)) else ""
        parts.append(f"in full in {', '.join(full)}{twice}")
    if short:
        parts.append(f"title only in {', '.join(short)} (over budget)")
    if cut:
        parts.append(f"left out by the budget of {', '.join(cut)}")
    if by_hook:
        parts.append(by_hook)
    if parts:
        return "; ".join(parts)
    kind = activation(m)
    if kind != "always":
        return f"not loaded: activation {kind}, and no file {agent} loads has that kind of rule"
    return f"not loaded: in no file {agent} reads (turn its target on in .memory/config.toml)"
