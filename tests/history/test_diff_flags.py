"""`memkit diff` calls a memory agent-written only when an agent wrote it."""

from __future__ import annotations

import datetime as dt

import pytest

from memkit import memory as mm
from memkit.history.diff import agent_written


@pytest.mark.parametrize(
    ("source", "status", "agent"),
    [
        ("CLAUDE.md#testing", "active", False),  # imported from a file a person wrote
        (".cursor/rules/api.mdc#errors", "active", False),
        ("AGENTS.md", "active", False),
        ("claude session 5f1c2d3e", "active", True),
        ("mcp", "active", True),
        ("PR #412", "active", False),
        (None, "draft", True),
    ],
)
def test_agent_written(source: str | None, status: str, agent: bool) -> None:
    mem = mm.new("T", "b", mid="t", today=dt.date(2026, 11, 22), source=source, status=status)
    assert agent_written(mem) is agent
