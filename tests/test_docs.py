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


ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
SAID = [
    *PAGES,
    *sorted((ROOT / "docs").glob("*.yml")),
    ROOT / ".pre-commit-hooks.yaml",
    *sorted((ROOT / "scripts").iterdir()),
    *sorted(p for p in (ROOT / "templates").rglob("*") if p.is_file()),
    *sorted((ROOT / "memkit").rglob("*.py")),
]


def _tags() -> set[str]:
    import subprocess

    done = subprocess.run(["git", "tag"], cwd=ROOT, capture_output=True, text=True, check=False)
    return set(done.stdout.split())


def _wrong_install_lines(path: Path, tags: set[str]) -> list[str]:
    """Install and pin lines that would fail for someone with a clone or the URL alone."""
    wrong = []
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if _fails(line, tags, pins=path.suffix != ".py"):
            wrong.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return wrong


def _fails(line: str, tags: set[str], *, pins: bool = True) -> bool:
    if re.search(r"pip install (-\S+ )*['\"]?memkit\b(?!-)", line):
        return True  # `memkit` on the package index is another project
    pinned = (
        r"agent-memkit(\[[\w,]+\])? @ git\+(<[^>]+>|\S+)@([0-9a-f]{40}|v[\d.]+|vX\.Y\.Z|<[^>]+>)"
    )
    installs = "agent-memkit" in line and re.search(r"pip install|MEMKIT:", line)
    if installs and not re.search(pinned, line):
        return True  # not on the package index yet
    refs = re.findall(
        r"(?:^\s*(?:#\s*)?(?:- )?rev: |git checkout |git\+\S+@)['\"]?(v\d[\w.-]*)", line
    )
    refs += [
        r
        for r in re.findall(r"^\s*(?:#\s*)?(?:- )?rev: ['\"]?(\S+?)['\"]?(?:\s|$)", line)
        if not re.fullmatch(r"[0-9a-f]{40}", r)
    ]
    return pins and any(r not in tags for r in refs)  # a tag the repository does not have


def test_every_install_and_pin_line_works_without_a_release() -> None:
    tags = _tags()
    assert [w for p in SAID for w in _wrong_install_lines(p, tags)] == []


def test_the_install_check_catches_what_fails(tmp_path: Path) -> None:
    page = ROOT / "docs" / "_probe.md"
    bad = [
        "pip install memkit",
        'python -m pip install "agent-memkit==0.2.0"',
        "pip install 'agent-memkit[mcp]'",
        "    rev: v0.2.0",
        "git checkout v0.2.0",
        'MEMKIT: "agent-memkit @ git+https://example.org/memkit@v0.0.0-none"',
    ]
    good = [
        "pip install '.[mcp]'   # in a clone",
        "pip install 'agent-memkit @ git+https://example.org/memkit@" + "a" * 40 + "'",
        "    rev: " + "0123456789" * 4,
        "pip install -e '.[dev]'",
    ]
    try:
        page.write_text("\n".join(bad + good) + "\n", "utf-8")
        found = _wrong_install_lines(page, set())
    finally:
        page.unlink()
    assert [w.split(": ", 1)[1] for w in found] == [b.strip() for b in bad]


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", page.read_text("utf-8"))
    return {_slug(h) for h in re.findall(r"(?m)^#{1,6} (.+)$", text)}


def _broken_links(page: Path) -> list[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", page.read_text("utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
        if re.match(r"[a-z][\w+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        inside = dest == ROOT or ROOT in dest.parents
        if not inside or not dest.exists():
            broken.append(f"{page.relative_to(ROOT)}: {target}")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    return broken


def test_every_relative_link_points_at_a_file_in_the_repository() -> None:
    assert [b for p in PAGES for b in _broken_links(p)] == []


def test_the_link_check_catches_a_link_out(tmp_path: Path) -> None:
    page = ROOT / "docs" / "_probe.md"
    try:
        page.write_text(
            "# Top\n[a](../shared/FORMATS.md) [b](nowhere.md) [c](agents.md#no-such)"
            " [d](#top) [e](agents.md) [f](https://example.org/x.md)\n",
            "utf-8",
        )
        found = _broken_links(page)
    finally:
        page.unlink()
    assert [b.split(": ", 1)[1] for b in found] == [
        "../shared/FORMATS.md",
        "nowhere.md",
        "agents.md#no-such (no such heading)",
    ]


def test_no_page_sends_the_reader_outside_the_repository() -> None:
    for page in PAGES:
        assert "../shared/" not in page.read_text("utf-8"), page
