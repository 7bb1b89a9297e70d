"""One target per agent format: which files it writes, what goes in each, its budget.

A target turns the selected, ranked memories into `Output`s: a file path, the
memories it holds, the template that renders it and the size budget it must
keep. Nothing here reads or writes files. What each agent loads together (and so
which memories it already has from AGENTS.md) is memkit.compile.readers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from memkit.compile.budgets import Limits, limits
from memkit.compile.config import NAMES, Settings, settings
from memkit.compile.scopes import (
    RULE_PREFIX,
    activation,
    agent_paths,
    agents_dir,
    always,
    by_scope,
    description,
    expanded,
    plain_globs,
    scope_names,
)
from memkit.memory import Memory

# Re-exported for the modules that take them from here with the targets.
__all__ = ["NAMES", "RULE_PREFIX", "Settings", "settings"]


@dataclass(frozen=True)
class Output:
    """One file a target wants: whole (memkit owns it) or a marked section in a shared file."""

    path: str
    target: str
    template: str
    memories: tuple[Memory, ...]
    budget: Limits
    whole: bool = False
    scoped: bool = False  # the agent loads it only for `globs`: no per-memory scope lines
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """What a target needs besides the memories: settings, and what AGENTS.md already holds."""

    settings: Settings
    in_agents: frozenset[str] = frozenset()  # ids AGENTS.md files carry in full
    agents_on: bool = False  # the agents target is configured (its readers get AGENTS.md)
    linked: frozenset[str] = frozenset()  # shared files that link to the AGENTS.md beside them


# ---------------------------------------------------------------- targets


class Target:
    """An agent format. `shared` files get a marked section; `rule_dirs` hold whole files."""

    name: str
    shared: tuple[str, ...] = ()
    rule_dirs: tuple[tuple[str, str], ...] = ()  # (directory, file suffix)
    reads_agents: bool = False  # the agent also loads AGENTS.md by itself
    reads_nested: bool = True  # ... nested ones too, with these files (not only elsewhere)

    def outputs(self, memories: Sequence[Memory], ctx: Context) -> list[Output]:
        raise NotImplementedError

    def budget(self, ctx: Context) -> Limits:
        return limits(ctx.settings.budget(self.name))

    def wanted(self, memories: Sequence[Memory], ctx: Context) -> list[Memory]:
        """What this agent still needs: AGENTS.md's readers get its memories from it."""
        if not ctx.agents_on:
            return list(memories)
        if self.reads_agents:  # the root's alone when it reads only its working folder's
            carried = frozenset(
                m.id
                for m in memories
                if m.id in ctx.in_agents and (self.reads_nested or not _folder(m, ctx))
            )
        elif self.shared and ctx.linked:  # through links to AGENTS.md, where they are
            carried = frozenset(
                m.id
                for m in memories
                if m.id in ctx.in_agents and _beside(m, ctx) + self.shared[0] in ctx.linked
            )
        else:
            return list(memories)
        return [m for m in memories if m.id not in carried]


def _beside(m: Memory, ctx: Context) -> str:
    """The folder of the AGENTS.md that holds `m`, as a path prefix ("" for the root)."""
    folder = _folder(m, ctx)
    return folder + "/" if folder else ""


def _folder(m: Memory, ctx: Context) -> str:
    """The folder of the nested AGENTS.md that holds `m` ("" for the root one)."""
    return agents_dir(m.paths) if ctx.settings.nested_agents else ""


class Agents(Target):
    """AGENTS.md at the root; optionally nested AGENTS.md for memories under one directory,
    which the root lists (`folders`, for an agent started there). From the root down: the
    order Codex's chains are fitted in (memkit.compile.chains)."""

    name = "agents"
    shared = ("AGENTS.md",)

    def outputs(self, memories: Sequence[Memory], ctx: Context) -> list[Output]:
        where: dict[str, list[Memory]] = {"": []}
        for m in (m for m in memories if _on(m)):
            where.setdefault(_folder(m, ctx), []).append(m)
        nested = sorted(d for d in where if d)
        outs = [
            Output(
                f"{d}/AGENTS.md" if d else "AGENTS.md",
                self.name,
                "",
                tuple(ms),
                self.budget(ctx),
                context={"folders": nested} if nested and not d else {},
            )
            for d, ms in where.items()
        ]
        return sorted(outs, key=lambda o: (o.path.count("/"), o.path))


class Shared(Target):
    """One marked section in a shared file holding every always-on memory (scoped ones say
    so). `only_without_agents`: written only when AGENTS.md is not (Zed's `.rules`, the
    first file Zed looks for; Aider's CONVENTIONS.md, loaded with `read:` in .aider.conf.yml)."""

    def __init__(self, name: str, path: str, *, only_without_agents: bool = False) -> None:
        self.name, self.shared, self.only_without_agents = name, (path,), only_without_agents

    def outputs(self, memories: Sequence[Memory], ctx: Context) -> list[Output]:
        if self.only_without_agents and ctx.agents_on:
            return []
        ms = tuple(m for m in self.wanted(memories, ctx) if _on(m))
        return [Output(self.shared[0], self.name, "", ms, self.budget(ctx))]


class Claude(Target):
    """CLAUDE.md (in full, or importing @AGENTS.md) and `.claude/rules/` for scoped memories."""

    name = "claude"
    shared = ("CLAUDE.md",)
    rule_dirs = ((".claude/rules", ".md"),)

    def outputs(self, memories: Sequence[Memory], ctx: Context) -> list[Output]:
        budget = self.budget(ctx)
        if ctx.settings.claude_mode == "import" and ctx.agents_on:
            # Claude reads the root AGENTS.md through the import, never a nested one
            # (CLAUDE.md exists): those memories get rule files
            imp = {"import": "AGENTS.md"}
            out = [Output("CLAUDE.md", self.name, "", tuple(memories), budget, context=imp)]
            memories = [m for m in memories if _on(m) and _folder(m, ctx)]
        else:
            memories = self.wanted(memories, ctx)  # all, unless a CLAUDE.md links AGENTS.md
            out = [Output("CLAUDE.md", self.name, "", always(memories), budget)]
        groups = by_scope(memories)
        for scope, name in scope_names(groups).items():
            out.append(
                Output(
                    f".claude/rules/{name}.md",
                    self.name,
                    "claude_rule.md.j2",
                    tuple(groups[scope]),
                    budget,
                    whole=True,
                    scoped=True,
                    context={"paths": agent_paths(scope)},
                )
            )
        return out


ALL_KINDS = ("always", "scoped", "agent", "manual")
NO_MANUAL = ALL_KINDS[:3]


class Rules(Target):
    """A directory of whole rule files: one always-on, one per scope, one per on-demand memory.

    `template` renders the front matter from `kind` (always, scoped, agent, manual),
    `paths`, `globs` (braces expanded, as `plain_globs` writes them), `description`
    and `name`. `kinds` says which of them the agent has; scoped memories of an agent
    without scoping go to the always-on file with an `Applies to` line.
    """

    def __init__(
        self,
        name: str,
        directory: str,
        template: str,
        *,
        suffix: str = ".md",
        kinds: tuple[str, ...] = ("always", "scoped"),
        reads_agents: bool = False,
        reads_nested: bool = True,
    ) -> None:
        self.name, self.directory, self.template, self.suffix = name, directory, template, suffix
        self.kinds, self.reads_agents, self.reads_nested = kinds, reads_agents, reads_nested
        self.rule_dirs = ((directory, suffix),)

    def outputs(self, memories: Sequence[Memory], ctx: Context) -> list[Output]:
        ms = self.wanted(memories, ctx)
        out = []
        base = always(ms) if "scoped" in self.kinds else tuple(m for m in ms if _on(m))
        if base:
            out.append(self._file(RULE_PREFIX, "always", base, (), ctx, scoped=False))
        if "scoped" in self.kinds:
            groups = by_scope(ms)
            for scope, name in scope_names(groups).items():
                out.append(self._file(name, "scoped", tuple(groups[scope]), scope, ctx))
        for kind in ("agent", "manual"):
            if kind in self.kinds:
                for m in [m for m in ms if activation(m) == kind]:  # by description, by name
                    desc = description(m) if kind == "agent" else ""
                    name = f"{RULE_PREFIX}-{m.id}"
                    out.append(self._file(name, kind, (m,), m.paths, ctx, desc=desc))
        return out

    def _file(
        self,
        name: str,
        kind: str,
        ms: tuple[Memory, ...],
        scope: Sequence[str],
        ctx: Context,
        *,
        scoped: bool = True,
        desc: str = "",
    ) -> Output:
        path = f"{self.directory}/{name}{self.suffix}"
        globs = expanded(scope)
        context = {
            "kind": kind,
            "paths": agent_paths(scope),
            "expanded": globs,
            "description": desc,
            "name": name,
            "globs": plain_globs(globs, path) if globs else "",
            "exclude_agent": "coding-agent" if ctx.agents_on else "",
        }
        return Output(
            path,
            self.name,
            self.template,
            ms,
            self.budget(ctx),
            whole=True,
            scoped=scoped and kind == "scoped",
            context=context,
        )


class Copilot(Rules):
    """`.github/instructions/*.instructions.md` (`applyTo`), read by code review too.

    `.github/copilot-instructions.md` is no longer written: Zed reads it instead of
    AGENTS.md. With AGENTS.md on, the files of the memories AGENTS.md carries in full
    say `excludeAgent: "coding-agent"`: the coding agent reads them there. The others
    (shortened or left out by AGENTS.md's budget, Codex's) go to `NAME--coding-agent`
    files that every Copilot agent reads: the coding agent has no such limit.
    """

    shared = (".github/copilot-instructions.md",)

    def wanted(self, memories: Sequence[Memory], ctx: Context) -> list[Memory]:
        return list(memories)  # code review never reads AGENTS.md

    def outputs(self, memories: Sequence[Memory], ctx: Context) -> list[Output]:
        if not ctx.agents_on:
            return super().outputs(memories, ctx)
        carried = [m.id in ctx.in_agents or not _on(m) for m in memories]
        out = super().outputs([m for m, c in zip(memories, carried, strict=True) if c], ctx)
        rest = [m for m, c in zip(memories, carried, strict=True) if not c]
        for o in super().outputs(rest, ctx):
            name = o.path.removesuffix(self.suffix) + "--coding-agent"
            context = {**o.context, "name": name.rpartition("/")[2], "exclude_agent": ""}
            out.append(replace(o, path=name + self.suffix, context=context))
        return out


def _on(m: Memory) -> bool:
    return activation(m) == "always"


_ALL: tuple[Target, ...] = (
    Agents(),
    Claude(),
    Rules("cursor", ".cursor/rules", "cursor_rule.mdc.j2", suffix=".mdc", kinds=ALL_KINDS,
          reads_agents=True),
    Copilot("copilot", ".github/instructions", "copilot_rule.instructions.md.j2",
            suffix=".instructions.md"),
    Shared("gemini", "GEMINI.md"),
    Rules("windsurf", ".windsurf/rules", "windsurf_rule.md.j2", kinds=ALL_KINDS, reads_agents=True),
    Rules("cline", ".clinerules", "cline_rule.md.j2", reads_agents=True, reads_nested=False),
    Rules("kiro", ".kiro/steering", "kiro_steering.md.j2", kinds=ALL_KINDS, reads_agents=True),
    Rules("continue", ".continue/rules", "continue_rule.md.j2", kinds=NO_MANUAL,
          reads_agents=True, reads_nested=False),
    Rules("amazonq", ".amazonq/rules", "plain_rule.md.j2", kinds=("always",)),
    Rules("roo", ".roo/rules", "plain_rule.md.j2", kinds=("always",), reads_agents=True),
    Shared("junie", ".junie/guidelines.md"),
    Shared("zed", ".rules", only_without_agents=True),
    Shared("aider", "CONVENTIONS.md", only_without_agents=True),
)  # fmt: skip
TARGETS: dict[str, Target] = {name: {t.name: t for t in _ALL}[name] for name in NAMES}
