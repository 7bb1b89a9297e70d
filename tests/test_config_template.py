"""The config file `memkit init` writes (templates/config.toml) describes the settings
memkit reads, no more (a removed one misleads), no fewer (a documented one is missing),
with the defaults memkit uses."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from memkit.agents.claude.pointofaction import DEFAULTS as AGENT_BUDGETS
from memkit.compile.config import DEFAULT_TARGETS, settings
from memkit.staleness.verdict import FAILING_STATES, fail_on

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = (ROOT / "templates" / "config.toml").read_text("utf-8")

# What memkit reads, section by section (the modules that read them validate them):
# [memories] memkit.agents.mcp.tools, [compile] memkit.compile.targets.settings,
# [check] memkit.staleness.verdict.fail_on, [hooks] memkit.githooks.checks.strict_config,
# [agents] memkit.agents.claude.pointofaction.budget_values.
ACCEPTED = {
    "memories": {"forget"},
    "compile": {"targets", "claude_mode", "nested_agents", "budgets"},
    "check": {"fail_on"},
    "hooks": {"strict"},
    "agents": set(AGENT_BUDGETS),
}


def uncommented(text: str) -> dict[str, Any]:
    """The template with every commented-out setting and table header made live."""
    live = re.sub(r"(?m)^# ?(\[[\w.]+\]\s*$|\w+ = .*$)", r"\1", text)
    return tomllib.loads(live)


def test_every_setting_the_template_shows_is_read_with_that_default() -> None:
    data = uncommented(TEMPLATE)
    assert {s: set(v) for s, v in data.items()} == ACCEPTED
    assert data["memories"] == {"forget": "archive"}
    compiled = settings(data["compile"])  # refuses an unknown key
    assert compiled.targets == DEFAULT_TARGETS and compiled.claude_mode == "full"
    assert fail_on(data["check"]) == FAILING_STATES
    assert data["hooks"] == {"strict": False}
    assert data["agents"] == AGENT_BUDGETS


def test_no_removed_setting_is_described() -> None:
    assert "agent_status" not in TEMPLATE


def test_every_setting_the_docs_show_is_in_the_template() -> None:
    template = uncommented(TEMPLATE)
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    blocks = [b for p in pages for b in re.findall(r"```toml\n(.*?)```", p.read_text(), re.S)]
    assert blocks
    for block in blocks:
        shown = tomllib.loads(block)
        for section, values in shown.items():
            if section in ACCEPTED:  # not a memory's front matter or a plugin's table
                assert set(values) <= set(template[section]), (section, values)
