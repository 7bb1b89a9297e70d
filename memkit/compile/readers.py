"""What each coding agent loads, from memkit's outputs: duplicates found, `--explain` answered.

`AGENTS` maps an agent to the compiled files it reads (in its own order and
precedence: Zed takes only the first file of its list, Cline reads `.cursor/rules`
and `.windsurf/rules` only when there is no `.clinerules/`, Claude Code reads
AGENTS.md only through `@AGENTS.md`, or when CLAUDE.md is a link to it).
docs/compile.md cites the makers' docs.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memkit.capped import capped

ZED_ORDER = (".rules", ".cursorrules", ".windsurfrules", ".clinerules",
             ".github/copilot-instructions.md", "AGENT.md", "AGENTS.md", "CLAUDE.md",
             "GEMINI.md")  # fmt: skip


@dataclass(frozen=True)
class Reader:
    """An agent: the target that writes its files, and which planned files it loads."""

    target: str  # the compile target for it ("agents" for agents that read only AGENTS.md)
    loads: Callable[[Sequence[Any], Path], list[Any]]  # placed outputs -> the ones it reads
    unavoidable: str = ""  # why a memory may reach it twice whatever memkit writes


def _under(*dirs: str) -> Callable[[Any], bool]:
    return lambda p: any(p.path.startswith(d + "/") for d in dirs)


def _agents_md(p: Any) -> bool:
    path: str = p.path
    return path == "AGENTS.md" or path.endswith("/AGENTS.md")


def links_to_agents(root: Path, path: str) -> bool:
    """Whether `path` is a symbolic link to the root AGENTS.md (`CLAUDE.md -> AGENTS.md`):
    its agent then reads AGENTS.md, which memkit writes, and memkit leaves the link alone."""
    import os

    link = root / path
    agents = root / "AGENTS.md"
    return (
        path != "AGENTS.md" and link.is_symlink() and agents.is_file()
        and os.path.realpath(link) == os.path.realpath(agents)
    )  # fmt: skip


def agent_of(target: str) -> str:
    """The agent `memkit compile --explain` names for a target's files (codex for AGENTS.md)."""
    return next((name for name, r in AGENTS.items() if r.target == target), target)


def _these(test: Callable[[Any], bool]) -> Callable[[Sequence[Any], Path], list[Any]]:
    return lambda placed, root: [p for p in placed if test(p)]


def _claude(placed: Sequence[Any], root: Path) -> list[Any]:
    if links_to_agents(root, "CLAUDE.md"):  # what memkit planned for CLAUDE.md is not written
        return [p for p in placed if p.path == "AGENTS.md" or p.path.startswith(".claude/rules/")]
    imports = any(p.path == "CLAUDE.md" and "import" in p.context for p in placed)
    return [p for p in placed if p.path == "CLAUDE.md" or p.path.startswith(".claude/rules/")
            or (imports and p.path == "AGENTS.md")]  # fmt: skip


def _copilot(agent: str) -> Callable[[Sequence[Any], Path], list[Any]]:
    def loads(placed: Sequence[Any], root: Path) -> list[Any]:
        out = []
        for p in placed:
            if p.path.startswith(".github/instructions/"):
                if p.context.get("exclude_agent") != agent:
                    out.append(p)
            elif agent != "code-review" and _agents_md(p):
                out.append(p)
        return out

    return loads


def _cline(placed: Sequence[Any], root: Path) -> list[Any]:
    own = [p for p in placed if p.path.startswith(".clinerules/")] or (
        root / ".clinerules"
    ).exists()
    dirs = (".clinerules",) if own else (".clinerules", ".cursor/rules", ".windsurf/rules")
    return [p for p in placed if _under(*dirs)(p) or _agents_md(p)]


def _zed(placed: Sequence[Any], root: Path) -> list[Any]:
    have = {p.path for p in placed}
    for name in ZED_ORDER:
        if name in have or (root / name).is_file():
            return [p for p in placed if p.path == name]
    return []


AGENTS: dict[str, Reader] = {
    "codex": Reader("agents", _these(_agents_md)),
    "amp": Reader("agents", _these(_agents_md)),
    "opencode": Reader("agents", _these(_agents_md)),
    "claude": Reader("claude", _claude),
    "cursor": Reader("cursor", _these(lambda p: _agents_md(p) or _under(".cursor/rules")(p))),
    "copilot": Reader("copilot", _copilot("coding-agent")),
    "copilot-review": Reader("copilot", _copilot("code-review")),
    "copilot-vscode": Reader("copilot", _copilot("vscode"),
                             "VS Code's Copilot Chat reads AGENTS.md and every instructions file"),
    "gemini": Reader("gemini", _these(lambda p: p.path == "GEMINI.md")),
    "windsurf": Reader("windsurf", _these(lambda p: _agents_md(p) or _under(".windsurf/rules")(p))),
    "cline": Reader("cline", _cline),
    "kiro": Reader("kiro", _these(lambda p: _agents_md(p) or _under(".kiro/steering")(p))),
    "roo": Reader("roo", _these(lambda p: _agents_md(p) or _under(".roo/rules")(p))),
    "continue": Reader("continue", _these(_under(".continue/rules"))),
    "amazonq": Reader("amazonq", _these(_under(".amazonq/rules"))),
    "junie": Reader("junie", _these(lambda p: p.path == ".junie/guidelines.md")),
    "zed": Reader("zed", _zed),
    "aider": Reader("aider", _these(lambda p: p.path in ("CONVENTIONS.md", "AGENTS.md"))),
}  # fmt: skip


def relevant(targets: Iterable[str]) -> list[str]:
    """The agents whose files this configuration writes."""
    on = set(targets)
    return [a for a, r in AGENTS.items() if r.target in on]


def twice(placed: Sequence[Any], agent: str, root: Path) -> dict[str, list[str]]:
    """Memory ids `agent` reads in full in more than one file, with those files."""
    where = collections.defaultdict(list)
    for p in AGENTS[agent].loads(placed, root):
        for mid in p.full:
            where[mid].append(p.path)
    return {mid: paths for mid, paths in sorted(where.items()) if len(paths) > 1}


def report(
    placed: Sequence[Any], targets: Iterable[str], root: Path
) -> tuple[list[str], list[str]]:
    """Memories an agent gets twice: (avoidable ones, a warning each; unavoidable ones, a fact).

    Unavoidable: the agent's own precedence loads both files whatever memkit writes
    (VS Code's Copilot Chat reads AGENTS.md and the instructions files code review needs).
    """
    warnings: list[str] = []
    facts: list[str] = []
    for agent in relevant(targets):
        dup = twice(placed, agent, root)
        if dup:
            why = AGENTS[agent].unavoidable or "its own precedence loads both files"
            files = sorted({f for paths in dup.values() for f in paths})
            named = capped(dup, see=f"`memkit compile --explain {agent}`")
            line = (f"{agent} reads {len(dup)} memory(ies) twice ({named}) in "
                    f"{capped(files, sep=' and ')}: {why}")  # fmt: skip
            (facts if AGENTS[agent].unavoidable else warnings).append(line)
    return warnings, facts
