"""The vocabularies of the choice fields: `type`, `status`, `confidence`, `activation`.

memkit.fields declares each field with these; the command line and search read them
from here, where nothing else is imported or created (the field registry is about 1 ms
of every command's start-up).
"""

from __future__ import annotations

TYPES = ("decision", "convention", "gotcha", "procedure", "episode", "preference", "note")
STATUSES = ("active", "draft", "archived", "superseded")
SEARCH_STATUSES = (*STATUSES, "expired")  # `search --status` also filters on expiry
CONFIDENCES = ("high", "medium", "low")
# When a memory reaches an agent. Absent or `always`: every session (or, with `paths`,
# whenever the agent works on matching files). `agent`: the agent decides from the
# memory's `description` whether it is relevant (Cursor "Apply Intelligently", Windsurf
# `model_decision`, Kiro `auto`). `manual`: only when a person asks for it by name
# (a Cursor rule mentioned with @, Windsurf/Kiro `manual`, a Cline workflow).
ACTIVATIONS = ("always", "agent", "manual")
