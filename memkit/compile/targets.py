"""One small class per agent format: which files it writes, what goes in each, its budget.

A target turns the selected, ranked memories into `Output`s: a file path, the
memories it holds, the template that renders it and the size budget it must
keep. Nothing here reads or writes files.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from memkit.errors import ConfigError, MemkitError
from memkit.globs import expand_braces
from memkit.memory import Memory

NAMES = ("agents", "claude", "cursor", "copilot", "gemini")
DEFAULT_TARGETS = ("agents", "claude", "cursor", "copilot")
CLAUDE_MODES = ("full", "import")
UNITS = ("lines", "bytes", "chars")
# Defaults from the agents' documented limits (see docs/compile.md).
DEFAULT_BUDGETS = {
    "agents": "32768 bytes",  # Codex reads at most 32 KiB of project docs
    "claude": "200 lines",  # Claude Code: keep each file under about 200 lines
    "cursor": "500 lines",  # Cursor: keep a rule under about 500 lines
    "copilot": "4000 chars",  # Copilot code review reads the first 4,000 characters
    "gemini": "32768 bytes",
}
RULE_PREFIX = "memkit"
NEVER_NESTED = frozenset({".git", ".memory"})


@dataclass(frozen=True)
class Budget:
    limit: int
    unit: str

    def measure(self, text: str) -> int:
        if self.unit == "lines":
            return text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if self.unit == "bytes":
            return len(text.encode("utf-8"))
        return len(text)

    def fits(self, text: str) -> bool:
        return self.measure(text) <= self.limit

    def __str__(self) -> str:
        return f"{self.limit:,} {self.unit}"


def parse_budget(value: Any, where: str) -> Budget:
    """A budget from config: "200 lines", "32 KiB", "4000 chars" or "12000 bytes"."""
    m = re.fullmatch(r"\s*(\d+)\s*(lines?|bytes?|chars?|KiB)\s*", str(value))
    if isinstance(value, bool) or not m or int(m.group(1)) <= 0:
        raise ConfigError(
            f'{where}: budget {value!r} is not a size; write it like "200 lines", '
            '"32 KiB", "12000 bytes" or "4000 chars"'
        )
    n, unit = int(m.group(1)), m.group(2)
    if unit == "KiB":
        return Budget(n * 1024, "bytes")
    return Budget(n, unit if unit.endswith("s") else unit + "s")


@dataclass(frozen=True)
class Settings:
    """The validated `[compile]` section of .memory/config.toml."""

    targets: tuple[str, ...] = DEFAULT_TARGETS
    claude_mode: str = "full"
    nested_agents: bool = False
    budgets: Mapping[str, Budget] = field(default_factory=dict)

    def budget(self, target: str) -> Budget:
        return self.budgets.get(target) or parse_budget(DEFAULT_BUDGETS[target], target)


def settings(section: Mapping[str, Any], where: str = ".memory/config.toml") -> Settings:
    """Validate the `[compile]` config section; ConfigError names the key and how to fix it."""
    known = {"targets", "claude_mode", "nested_agents", "budgets"}
    for key in sorted(set(section) - known):
        raise ConfigError(f"{where}: [compile] has unknown key {key!r}; use one of {sorted(known)}")
    targets = section.get("targets", list(DEFAULT_TARGETS))
    if not isinstance(targets, list) or not all(t in NAMES for t in targets):
        raise ConfigError(
            f"{where}: [compile] targets = {targets!r}: use a list of {', '.join(NAMES)}"
        )
    mode = section.get("claude_mode", "full")
    if mode not in CLAUDE_MODES:
        raise ConfigError(f'{where}: [compile] claude_mode = {mode!r}: use "full" or "import"')
    nested = section.get("nested_agents", False)
    if not isinstance(nested, bool):
        raise ConfigError(f"{where}: [compile] nested_agents = {nested!r}: use true or false")
    raw = section.get("budgets", {})
    if not isinstance(raw, dict) or not set(raw) <= set(NAMES):
        raise ConfigError(
            f"{where}: [compile] budgets must be a table keyed by target ({', '.join(NAMES)})"
        )
    budgets = {k: parse_budget(v, f"{where}: [compile] budgets.{k}") for k, v in raw.items()}
    return Settings(tuple(dict.fromkeys(targets)), mode, nested, budgets)


@dataclass(frozen=True)
class Output:
    """One file a target wants: whole (memkit owns it) or a marked section in a shared file."""

    path: str
    target: str
    template: str
    memories: tuple[Memory, ...]
    budget: Budget
    whole: bool = False
    scoped: bool = False  # the agent loads it only for `globs`: no per-memory scope lines
    context: Mapping[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ globs


def expanded(globs: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(x for g in globs for x in expand_braces(g)))


def cursor_globs(globs: Sequence[str], own: str) -> str:
    """`globs` as Cursor reads them: one unquoted, comma-separated line that is plain YAML too.

    Cursor takes the rest of the `globs:` line as it is (quotes would become part of
    the pattern), and YAML cannot start an unquoted value with `*`, `!`, `[`, `{`
    and the like. So a glob that can lead goes first; when none can, the rule
    file's own path does (it matches no file an agent works on). docs/compile.md,
    "Cursor globs", has the sources.
    """
    from memkit.compile.yamltext import plain_ok

    lead = [g for g in globs if plain_ok(g)][:1]
    for order in (globs, [*lead, *(g for g in globs if g not in lead)], [own, *globs]):
        value = ",".join(order)
        if plain_ok(value):
            return value
    raise MemkitError(
        f"{own}: cannot write the globs {', '.join(globs)} so that both Cursor and YAML read "
        "them; change them (see docs/compile.md, Cursor globs)"
    )


def literal_dir(globs: Sequence[str]) -> str:
    """The deepest directory every glob lies under ("" when they share none)."""
    common: list[str] | None = None
    for g in globs:
        parts = g.split("/")[:-1]
        lit = list(itertools.takewhile(lambda p: not any(c in p for c in "*?[{"), parts))
        if common is None:
            common = lit
        else:
            n = 0
            while n < min(len(common), len(lit)) and common[n] == lit[n]:
                n += 1
            common = common[:n]
    return "/".join(common or [])


def scope_names(scopes: Iterable[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """A stable file name for each distinct set of globs: `memkit-src-py`, `memkit-src-py-2`."""
    out: dict[tuple[str, ...], str] = {}
    used: set[str] = set()
    for scope in sorted(set(scopes)):
        slug = re.sub(r"[^a-z0-9]+", "-", " ".join(scope).lower()).strip("-")[:48].strip("-")
        base = f"{RULE_PREFIX}-{slug or 'all'}"
        name, n = base, 1
        while name in used:
            n += 1
            name = f"{base}-{n}"
        used.add(name)
        out[scope] = name
    return out


def by_scope(memories: Iterable[Memory]) -> dict[tuple[str, ...], list[Memory]]:
    groups: dict[tuple[str, ...], list[Memory]] = {}
    for m in memories:
        if m.paths:
            groups.setdefault(tuple(sorted(set(m.paths))), []).append(m)
    return groups


# ---------------------------------------------------------------- targets


def _always(memories: Iterable[Memory]) -> tuple[Memory, ...]:
    return tuple(m for m in memories if not m.paths)


class Target:
    """An agent format. `shared` files get a marked section; `rule_dirs` hold whole files."""

    name: ClassVar[str]
    shared: ClassVar[tuple[str, ...]] = ()
    rule_dirs: ClassVar[tuple[tuple[str, str], ...]] = ()  # (directory, file suffix)

    def outputs(self, memories: Sequence[Memory], s: Settings) -> list[Output]:
        raise NotImplementedError


class Agents(Target):
    """AGENTS.md at the root; optionally nested AGENTS.md for memories under one directory."""

    name = "agents"
    shared = ("AGENTS.md",)

    def outputs(self, memories: Sequence[Memory], s: Settings) -> list[Output]:
        where: dict[str, list[Memory]] = {"": []}
        for m in memories:
            d = literal_dir(m.paths) if s.nested_agents and m.paths else ""
            if d.split("/")[0] in NEVER_NESTED:
                d = ""  # git's files and the store itself get no AGENTS.md
            where.setdefault(d, []).append(m)
        return [
            Output(
                f"{d}/AGENTS.md" if d else "AGENTS.md", self.name, "", tuple(ms), s.budget("agents")
            )
            for d, ms in sorted(where.items())
        ]


class Gemini(Target):
    name = "gemini"
    shared = ("GEMINI.md",)

    def outputs(self, memories: Sequence[Memory], s: Settings) -> list[Output]:
        return [Output("GEMINI.md", self.name, "", tuple(memories), s.budget("gemini"))]


class Claude(Target):
    """CLAUDE.md (in full, or importing @AGENTS.md) and `.claude/rules/` for scoped memories."""

    name = "claude"
    shared = ("CLAUDE.md",)
    rule_dirs = ((".claude/rules", ".md"),)

    def outputs(self, memories: Sequence[Memory], s: Settings) -> list[Output]:
        budget = s.budget("claude")
        if s.claude_mode == "import" and "agents" in s.targets:
            imp = {"import": "AGENTS.md"}
            return [Output("CLAUDE.md", self.name, "", tuple(memories), budget, context=imp)]
        out = [Output("CLAUDE.md", self.name, "", _always(memories), budget)]
        groups = by_scope(memories)
        for scope, name in scope_names(groups).items():
            out.append(Output(f".claude/rules/{name}.md", self.name, "claude_rule.md.j2",
                              tuple(groups[scope]), budget, whole=True, scoped=True,
                              context={"paths": list(scope)}))  # fmt: skip
        return out


class Cursor(Target):
    """`.cursor/rules/*.mdc`: scoped rules with `globs`; always-on ones when AGENTS.md is off."""

    name = "cursor"
    rule_dirs = ((".cursor/rules", ".mdc"),)

    def outputs(self, memories: Sequence[Memory], s: Settings) -> list[Output]:
        budget = s.budget("cursor")
        out = []
        always = _always(memories)
        if always and "agents" not in s.targets:  # Cursor reads AGENTS.md itself
            out.append(Output(f".cursor/rules/{RULE_PREFIX}.mdc", self.name, "cursor_rule.mdc.j2",
                              always, budget, whole=True,
                              context={"globs": "", "description": "Project memory"}))  # fmt: skip
        groups = by_scope(memories)
        for scope, name in scope_names(groups).items():
            path = f".cursor/rules/{name}.mdc"
            desc = f"Project memory for {', '.join(scope)}"
            ctx = {"globs": cursor_globs(expanded(scope), path), "description": desc}
            out.append(Output(path, self.name, "cursor_rule.mdc.j2", tuple(groups[scope]),
                              budget, whole=True, scoped=True, context=ctx))  # fmt: skip
        return out


class Copilot(Target):
    """`.github/copilot-instructions.md` and `.github/instructions/*.instructions.md`."""

    name = "copilot"
    shared = (".github/copilot-instructions.md",)
    rule_dirs = ((".github/instructions", ".instructions.md"),)

    def outputs(self, memories: Sequence[Memory], s: Settings) -> list[Output]:
        budget = s.budget("copilot")
        out = [Output(self.shared[0], self.name, "", _always(memories), budget)]
        groups = by_scope(memories)
        for scope, name in scope_names(groups).items():
            out.append(Output(f".github/instructions/{name}.instructions.md", self.name,
                              "copilot_rule.instructions.md.j2", tuple(groups[scope]), budget,
                              whole=True, scoped=True,
                              context={"apply_to": ",".join(expanded(scope))}))  # fmt: skip
        return out


TARGETS: dict[str, Target] = {
    t.name: t for t in (Agents(), Claude(), Cursor(), Copilot(), Gemini())
}
