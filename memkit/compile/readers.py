"""What each coding agent loads, from memkit's outputs: duplicates found, `--explain` answered.

`AGENTS` maps an agent to the compiled files it reads, in its own order and precedence,
and says when each one is read (`Reader.when`): always; when the agent works on a file
a glob matches; or, for nested AGENTS.md files and the agents that read only the folder
they start in, by that folder. What the agents' CLIs sent a model in real runs
(`make e2e`) wins over their docs: docs/compile.md cites the source of each rule.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from memkit.capped import capped

ZED_ORDER = (".rules", ".cursorrules", ".windsurfrules", ".clinerules",
             ".github/copilot-instructions.md", "AGENT.md", "AGENTS.md", "CLAUDE.md",
             "GEMINI.md")  # fmt: skip
CONTINUE_ORDER = ("AGENTS.md", "AGENT.md", "CLAUDE.md", "CODEX.md")  # the first one found
ROOT = "when started in the repository root"
# Files `report` looks at besides the planned ones: whether each exists, is a link to
# the AGENTS.md beside it, or (.aider.conf.yml) names an output. memkit.compile.current
# watches them, for its record keeps the notes they lead to.
CONSULTED = (".aider.conf.yml", *ZED_ORDER, *CONTINUE_ORDER)
NESTED_CONSULTED = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")  # in each folder of a nested AGENTS.md

# How an agent reads nested AGENTS.md files (DIR/AGENTS.md):
NESTED_ALWAYS = "always"  # all of them, whatever it works on (its docs; not run)
NESTED_CHAIN = "chain"  # those from the root down to the folder it starts in
NESTED_READ = "read"  # that chain, and one below after reading a file under its folder
NESTED_CWD = "cwd"  # only the working folder's, and its other files only from the root


@dataclass(frozen=True)
class Reader:
    """An agent: the target that writes its files, and which planned files it loads."""

    target: str  # the compile target for it ("agents" for agents that read only AGENTS.md)
    loads: Callable[[Sequence[Any], Path], list[Any]]  # placed outputs -> the ones it reads
    unavoidable: str = ""  # why a memory may reach it twice whatever memkit writes
    nested: str = NESTED_ALWAYS  # how it reads nested AGENTS.md files (NESTED_*)
    theirs: tuple[str, ...] = ()  # only twice through these files (other agents need them)

    def when(self, p: Any) -> str:
        """When the agent reads planned file `p` (one of `loads`), as `--explain` says it."""
        folder = nested_folder(p.path)
        if folder and self.nested == NESTED_CHAIN:
            return f"when started in {folder} or below"
        if folder and self.nested == NESTED_READ:
            return f"when started in {folder} or below, or after reading a file under it"
        if folder and self.nested == NESTED_CWD:
            return f"when started in {folder}"
        if self.nested == NESTED_CWD:
            return ROOT
        return how(p)

    def situation(self, p: Any) -> str:
        """Files of different situations never reach the agent together (the folder an
        agent that reads only its working folder starts in); "" for the others."""
        return (nested_folder(p.path) or ".") if self.nested == NESTED_CWD else ""


def how(p: Any) -> str:
    """When a planned file applies, from its own kind: always, scoped, on demand."""
    ctx = p.context
    kind = ctx.get("kind")
    if kind == "scoped" or (ctx.get("paths") and kind is None):
        return f"when working on {', '.join(ctx.get('paths', ()))}"
    if kind == "agent":
        return "when the agent judges it relevant (description)"
    if kind == "manual":
        return "when asked for by name"
    if "import" in ctx:  # Claude Code leaves it unread when started below (run)
        return "always, importing AGENTS.md" + (f" {ROOT}" if ctx.get("import_at_root") else "")
    if "imported_by" in ctx:  # started below, the import is of a file outside (run)
        return f"imported by {ctx['imported_by']} when started in the repository root"
    return "always"


def nested_folder(path: str) -> str:
    """The folder of a nested AGENTS.md ("" for the root one and any other file)."""
    return path.removesuffix("/AGENTS.md") if path.endswith("/AGENTS.md") else ""


def _under(*dirs: str) -> Callable[[Any], bool]:
    return lambda p: any(p.path.startswith(d + "/") for d in dirs)


def _agents_md(p: Any) -> bool:
    return _agents_md_path(p.path)


def _agents_md_path(path: str) -> bool:
    return path == "AGENTS.md" or path.endswith("/AGENTS.md")


def links_to_agents(root: Path, path: str) -> bool:
    """Whether `path` is a symbolic link to the AGENTS.md beside it (`CLAUDE.md ->
    AGENTS.md`, `docs/CLAUDE.md -> AGENTS.md`): its agent then reads that AGENTS.md,
    which memkit writes, and memkit leaves the link alone."""
    import os

    folder = path.rpartition("/")[0]
    agents = root / folder / "AGENTS.md"
    link = root / path
    return (
        not _agents_md_path(path)
        and link.is_symlink()
        and agents.is_file()
        and os.path.realpath(link) == os.path.realpath(agents)
    )


def agent_of(target: str) -> str:
    """The agent `memkit compile --explain` names for a target's files (codex for AGENTS.md)."""
    return next((name for name, r in AGENTS.items() if r.target == target), target)


def _these(test: Callable[[Any], bool]) -> Callable[[Sequence[Any], Path], list[Any]]:
    return lambda placed, root: [p for p in placed if test(p)]


def _has(placed: Sequence[Any], root: Path, name: str) -> bool:
    return any(p.path == name for p in placed) or (root / name).is_file()


def _imported(placed: Sequence[Any]) -> list[Any]:
    """CLAUDE.md as an agent resolving `@AGENTS.md` reads it: with AGENTS.md's memories."""
    agents = next((p for p in placed if p.path == "AGENTS.md"), None)
    return [
        replace(p, full=agents.full, short=agents.short, cut=agents.cut)
        if agents is not None and "import" in p.context
        else p
        for p in placed
        if p.path == "CLAUDE.md"
    ]


def _linked(placed: Sequence[Any], root: Path, name: str) -> list[Any]:
    """The AGENTS.md files an agent reads as its own `name` through links beside them
    (`CLAUDE.md -> AGENTS.md`, `docs/CLAUDE.md -> AGENTS.md`)."""
    return [
        p
        for p in placed
        if _agents_md(p) and links_to_agents(root, p.path.removesuffix("AGENTS.md") + name)
    ]


def _claude(placed: Sequence[Any], root: Path) -> list[Any]:
    """CLAUDE.md (imports resolved), or every AGENTS.md where the root has no CLAUDE.md
    (run); the AGENTS.md files CLAUDE.md links lead to; the rules."""
    rules = [p for p in placed if p.path.startswith(".claude/rules/")]
    if not _has(placed, root, "CLAUDE.md"):
        return [p for p in placed if _agents_md(p)] + rules
    linked = _linked(placed, root, "CLAUDE.md")
    if links_to_agents(root, "CLAUDE.md"):
        return linked + rules
    imports = any(p.path == "CLAUDE.md" and "import" in p.context for p in placed)
    via = {"imported_by": "CLAUDE.md"}  # read once, through the import: not a file of its own
    at_root = {"import_at_root": True}  # started below, the import is of a file outside
    return (
        [
            replace(p, context={**p.context, **at_root}) if imports else p
            for p in placed
            if p.path == "CLAUDE.md"
        ]
        + [
            replace(p, context={**p.context, **via})
            for p in placed
            if imports and p.path == "AGENTS.md"
        ]
        + linked
        + rules
    )


def _gemini(placed: Sequence[Any], root: Path) -> list[Any]:
    own = [p for p in placed if p.path == "GEMINI.md" and not links_to_agents(root, p.path)]
    return own + _linked(placed, root, "GEMINI.md")


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


def _copilot_cli(placed: Sequence[Any], root: Path) -> list[Any]:
    """Copilot CLI (run): AGENTS.md files, CLAUDE.md (imports resolved), GEMINI.md, the
    instruction files not excluded from it (`applyTo`: docs), path-matched `.claude/rules`."""
    out = [p for p in placed if _agents_md(p)] + _imported(placed)
    out += [p for p in placed if p.path == "GEMINI.md"]
    out += [
        p
        for p in placed
        if p.path.startswith(".github/instructions/")
        and p.context.get("exclude_agent") != "coding-agent"
    ]
    return out + [p for p in placed if p.path.startswith(".claude/rules/")]


def _cline(placed: Sequence[Any], root: Path) -> list[Any]:
    own = [p for p in placed if p.path.startswith(".clinerules/")] or (
        root / ".clinerules"
    ).exists()
    dirs = (".clinerules",) if own else (".clinerules", ".cursor/rules")
    return [p for p in placed if _under(*dirs)(p) or _agents_md(p)]


def _continue(placed: Sequence[Any], root: Path) -> list[Any]:
    first = next((n for n in CONTINUE_ORDER if _has(placed, root, n)), "")
    rules = _under(".continue/rules")
    return [
        p
        for p in placed
        if p.path == first
        or nested_folder(p.path)
        or (rules(p) and p.context.get("kind") == "always")
    ]


def _aider(placed: Sequence[Any], root: Path) -> list[Any]:
    conf = root / ".aider.conf.yml"
    text = conf.read_text("utf-8", "replace") if conf.is_file() else ""
    return [p for p in placed if p.path in ("CONVENTIONS.md", "AGENTS.md") and p.path in text]


def _zed(placed: Sequence[Any], root: Path) -> list[Any]:
    have = {p.path for p in placed}
    for name in ZED_ORDER:
        if name in have or (root / name).is_file():
            return [p for p in placed if p.path == name]
    return []


def _root_agents(placed: Sequence[Any], root: Path) -> list[Any]:
    return [p for p in placed if p.path == "AGENTS.md"]


THEIRS = ("CLAUDE.md", ".claude/rules/", "GEMINI.md")
COPILOT_WHY = (
    "Copilot CLI reads CLAUDE.md, .claude/rules and GEMINI.md besides AGENTS.md, "
    "and Claude Code and Gemini CLI need theirs"
)

AGENTS: dict[str, Reader] = {
    "codex": Reader("agents", _these(_agents_md), nested=NESTED_CHAIN),
    "amp": Reader("agents", _these(_agents_md), nested=NESTED_READ),
    "opencode": Reader("agents", _these(_agents_md), nested=NESTED_READ),
    "kilo": Reader("agents", _these(_agents_md), nested=NESTED_READ),
    "qwen": Reader("agents", _these(_agents_md), nested=NESTED_CHAIN),
    "pi": Reader("agents", _these(_agents_md), nested=NESTED_CHAIN),
    "devin": Reader("agents", lambda placed, root: _root_agents(placed, root) + _imported(placed),
                    "Devin reads AGENTS.md and CLAUDE.md alike, and Claude Code needs CLAUDE.md",
                    theirs=("CLAUDE.md",)),
    "claude": Reader("claude", _claude, nested=NESTED_READ),
    "cursor": Reader("cursor", _these(lambda p: _agents_md(p) or _under(".cursor/rules")(p))),
    "copilot": Reader("copilot", _copilot_cli, COPILOT_WHY, nested=NESTED_READ, theirs=THEIRS),
    "copilot-review": Reader("copilot", _copilot("code-review")),
    "copilot-vscode": Reader("copilot", _copilot("vscode"),
                             "VS Code's Copilot Chat reads AGENTS.md and every instructions file"),
    "gemini": Reader("gemini", _gemini, nested=NESTED_READ),
    "windsurf": Reader("windsurf", _these(lambda p: _agents_md(p) or _under(".windsurf/rules")(p))),
    "cline": Reader("cline", _cline, nested=NESTED_CWD),
    "kiro": Reader("kiro", _these(lambda p: _agents_md(p) or _under(".kiro/steering")(p))),
    "roo": Reader("roo", _these(lambda p: _agents_md(p) or _under(".roo/rules")(p))),
    "continue": Reader("continue", _continue, nested=NESTED_CWD),
    "amazonq": Reader("amazonq", _these(_under(".amazonq/rules"))),
    "junie": Reader("junie", _these(lambda p: p.path == ".junie/guidelines.md")),
    "zed": Reader("zed", _zed),
    "aider": Reader("aider", _aider),
}  # fmt: skip


def relevant(targets: Iterable[str]) -> list[str]:
    """The agents whose files this configuration writes."""
    on = set(targets)
    return [a for a, r in AGENTS.items() if r.target in on]


def twice(placed: Sequence[Any], agent: str, root: Path) -> dict[str, list[str]]:
    """Memory ids `agent` reads in full in more than one file at once, with those files."""
    reader = AGENTS[agent]
    where: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    for p in reader.loads(placed, root):
        for mid in p.full:
            where[(mid, reader.situation(p))].append(p.path)
    dup: dict[str, list[str]] = {}
    for (mid, _), paths in sorted(where.items()):
        if len(paths) > 1:
            dup.setdefault(mid, paths)
    return dup


def report(
    placed: Sequence[Any], targets: Iterable[str], root: Path
) -> tuple[list[str], list[str]]:
    """Memories an agent gets twice: (avoidable ones, a warning each; unavoidable ones, a fact).

    Unavoidable: the agent's own precedence loads both files whatever memkit writes
    (VS Code's Copilot Chat reads AGENTS.md and the instructions files code review needs;
    Copilot CLI reads CLAUDE.md and GEMINI.md, which Claude Code and Gemini CLI need).
    """
    warnings: list[str] = []
    facts: list[str] = []
    for agent in relevant(targets):
        dup = twice(placed, agent, root)
        if dup:
            reader = AGENTS[agent]
            theirs = all(any(f.startswith(reader.theirs) for f in paths) for paths in dup.values())
            fact = bool(reader.unavoidable) and (not reader.theirs or theirs)
            why = reader.unavoidable if fact else "its own precedence loads both files"
            files = sorted({f for paths in dup.values() for f in paths})
            named = capped(dup, see=f"`memkit compile --explain {agent}`")
            line = (
                f"{agent} reads {len(dup)} memory(ies) twice ({named}) in "
                f"{capped(files, sep=' and ')}: {why}"
            )
            (facts if fact else warnings).append(line)
    return warnings, facts
