"""The README's command reference against `--help`: every command and option documented,
no option documented that does not exist. (The docs cannot drift from the code.)"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from memkit.cli import COMMANDS, cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
SECTION = re.compile(r"^### `memkit ([a-z-]+)[^`]*`\n(.*?)(?=^##)", re.M | re.S)
SECTIONS = {m.group(1): m.group(0) for m in SECTION.finditer(README)}


def _visible(name: str) -> click.Command:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    return command


def _options(command: click.Command) -> set[str]:
    """Every long option of a command (and of its subcommands, for a group)."""
    out = {
        opt
        for p in command.params
        if isinstance(p, click.Option) and not p.hidden
        for opt in [*p.opts, *p.secondary_opts]
        if opt.startswith("--") and opt != "--help"
    }
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            if not sub.hidden:
                out |= _options(sub)
    return out


NAMES = sorted(n for n in COMMANDS if not _visible(n).hidden)


@pytest.mark.parametrize("name", NAMES)
def test_every_command_has_a_section(name: str) -> None:
    assert name in SECTIONS, f"README.md has no `### \\`memkit {name} ...\\`` section"


@pytest.mark.parametrize("name", NAMES)
def test_every_option_is_documented(name: str) -> None:
    missing = sorted(o for o in _options(_visible(name)) if o not in SECTIONS.get(name, ""))
    assert missing == [], f"README.md's section on `memkit {name}` does not mention {missing}"


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_no_documented_option_is_missing(name: str) -> None:
    assert name in COMMANDS, f"README.md documents `memkit {name}`, which does not exist"
    known = _options(_visible(name)) | {"--help", "--root"}
    own = re.sub(rf"`memkit (?!{name}\b)[^`]*`", "", SECTIONS[name])  # other commands' spans
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", own))
    assert sorted(named - known) == []


def test_group_options_are_described_as_such() -> None:
    """--root is an option of `memkit` itself, given before the command."""
    assert "memkit --root DIR COMMAND" in README
