"""The `[compile]` section of .memory/config.toml: the targets, Claude's mode, nested
AGENTS.md files and the budgets, validated (ConfigError names the key and the fix)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.compile.budgets import Budget, parse_budget
from memkit.errors import ConfigError

NAMES = ("agents", "claude", "cursor", "copilot", "gemini", "windsurf", "cline", "kiro",
         "continue", "amazonq", "junie", "zed", "aider", "roo")  # fmt: skip
DEFAULT_TARGETS = ("agents", "claude", "cursor", "copilot")
CLAUDE_MODES = ("full", "import")
# Defaults from the agents' documented limits; "32768 bytes" where a maker documents
# none (memkit's own default, Codex's cap). docs/compile.md cites each one.
DEFAULT_BUDGETS = {
    "agents": "32768 bytes",  # Codex: project_doc_max_bytes, the whole AGENTS.md chain
    # Claude Code: "target under 200 lines per CLAUDE.md file" is advice (files up to
    # 4 MiB load); a 200-line cut binds at about 25 memories and then moves with every
    # memory added, so every memory pull request conflicts. Codex's size instead.
    "claude": "32768 bytes",
    "cursor": "500 lines",  # Cursor: keep a rule under about 500 lines
    "copilot": "32768 bytes",  # none documented any more
    "gemini": "32768 bytes",  # none documented
    "windsurf": "12000 chars",  # Windsurf: rule files are limited to 12,000 characters
    "cline": "32768 bytes",  # none documented
    "kiro": "32768 bytes",  # none documented
    "continue": "32768 bytes",  # none documented
    "amazonq": "32768 bytes",  # none documented
    "junie": "32768 bytes",  # none documented
    "zed": "32768 bytes",  # none documented
    "aider": "32768 bytes",  # none documented
    "roo": "32768 bytes",  # none documented
}


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
