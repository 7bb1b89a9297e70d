"""memkit.controls: one escaper for terminal text, one for agent text."""

from __future__ import annotations

from memkit.agents.claude.payload import one_line
from memkit.controls import for_agent, printable


def test_a_hook_message_is_one_terminal_line_with_nothing_hidden() -> None:
    said = "no journal for a\nb\rc\td\u2028e \u202etxt.exe \x9b31m \x1b[2J"
    assert one_line(said) == (
        "no journal for a\\nb\\rc\\td\\u2028e \\u202etxt.exe \\x9b31m \\x1b[2J"
    )
    assert one_line(said) == printable(said, one_line=True)


def test_terminal_and_agent_spellings() -> None:
    text = "a\x1b[2J\r\nb\tc\u202e"
    assert printable(text) == "a\\x1b[2J\nb\tc\\u202e"
    assert for_agent(text) == "a\\u001b[2J\\u000d\\u000ab\\u0009c\\u202e"
    assert for_agent(text, lines=True) == "a\\u001b[2J\nb\tc\\u202e"
