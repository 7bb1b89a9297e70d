"""Hand-written instruction files and the references they make, found line by line.

`instruction_files(paths)` picks the files agents read (CLAUDE.md, AGENTS.md, Cursor,
Copilot, Windsurf, Cline, Kiro and Gemini rules) from a project's file list.
`references(text)` yields each checkable reference with its 1-based line: code
spans, markdown link targets, and command or import lines in fenced code blocks.
Text between memkit's markers (what `memkit compile` writes) and HTML comments are
skipped: only what a person wrote is audited.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch

NAMES = ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENT.md", "GEMINI.md")
SINGLE = (".cursorrules", ".windsurfrules", ".clinerules", ".github/copilot-instructions.md")
_PATTERN_WORDS = (
    ".cursor/rules/*.md .cursor/rules/*.mdc .claude/rules/*.md "
    ".github/instructions/*.instructions.md .windsurf/rules/*.md .clinerules/*.md "
    ".kiro/steering/*.md"
)
PATTERNS = tuple(_PATTERN_WORDS.split())
TEMPLATE_DIRS = frozenset({"templates", "template", "fixtures", "__fixtures__", "testdata"})
_PATTERN_DIRS = frozenset(p.rpartition("/")[0] for p in PATTERNS)
SHELL_FENCES = ("", "sh", "bash", "shell", "console", "zsh", "shell-session", "terminal", "cmd")
PY_FENCES = ("py", "python", "python3")
JS_FENCES = ("js", "javascript", "ts", "typescript", "jsx", "tsx", "mjs")
_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_LABEL = re.compile(r"^\s*(?:\*\*|__)[^*_]+(?:\*\*|__)[^`]*(?:`[^`]*`[^`]*)*:\s*$")  # **Label**:
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|\||#|>|$)")  # list item, table row, ...
_BEGIN = re.compile(r"<!--\s*memkit:begin")
_END = re.compile(r"<!--\s*memkit:end")


@dataclass(frozen=True)
class Ref:
    """One piece of text that may name something: where it came from and what it is."""

    line: int
    text: str
    where: str  # span | link | shell | python | js
    before: str = ""  # the line's text before the reference (prose only)
    heading: str = ""  # the nearest heading above it
    after: str = ""  # the line's text after it


def instruction_files(paths: list[str]) -> list[str]:
    """The instruction files among a project's paths, root ones first."""
    found = []
    for path in paths:
        folder, _, name = path.rpartition("/")
        ruled = (
            folder in _PATTERN_DIRS
            and name != "README.md"
            and any(fnmatch(path, p) for p in PATTERNS)
        )
        wanted = name in NAMES or path in SINGLE or ruled
        if wanted and not _vendored(path):
            found.append(path)
    return sorted(found, key=lambda p: (p.count("/"), p))


def _vendored(path: str) -> bool:
    """Copied-in or copied-out files: dependencies, skill packs (`.agents/skills/x/AGENTS.md`),
    and templates or fixtures written for other projects."""
    if "node_modules/" in path or path.startswith((".git/", "vendor/")):
        return True
    parts = path.split("/")
    if any(p in TEMPLATE_DIRS for p in parts[:-1]):
        return True
    return any(p.startswith(".") and q == "skills" for p, q in itertools.pairwise(parts))


def references(text: str) -> Iterator[Ref]:
    """Every reference in an instruction file's text, in order."""
    fence: tuple[str, str] | None = None  # (marker, language)
    skipping = False
    comment = False
    heading = ""
    prose = ""  # the previous line, while the paragraph goes on
    lines = text.splitlines()
    start = _front_matter_end(lines)
    for n, line in enumerate(lines[start:], start + 1):
        if _BEGIN.search(line):
            skipping = True
        if skipping:
            skipping = not _END.search(line)
            continue
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0][0] and len(m.group(1)) >= len(fence[0]):
                fence = None
            else:
                yield from _fenced(n, line, fence[1])
            continue
        if m:
            fence = (m.group(1), m.group(2).lower())
            continue
        line, comment = _uncomment(line, comment)
        if _HEADING.match(line) or _LABEL.match(line):
            heading = line.strip("#*_ \t")
        lead = "" if _BLOCK_START.match(line) else prose
        for span in _SPAN.finditer(line):
            before, after = lead + line[: span.start()], line[span.end() :]
            yield Ref(n, span.group(2).strip(), "span", before, heading, after)
        for link in _LINK.finditer(line):
            before, after = lead + line[: link.start()], line[link.end() :]
            yield Ref(n, link.group(1), "link", before, heading, after)
        prose = line + " " if line.strip() and not _HEADING.match(line) else ""


def _uncomment(line: str, comment: bool) -> tuple[str, bool]:
    """The line without HTML comments, and whether a comment is still open after it."""
    if comment:
        if "-->" not in line:
            return "", True
        line = line.split("-->", 1)[1]
    line = re.sub(r"<!--.*?-->", "", line)
    if "<!--" in line:
        return line.split("<!--", 1)[0], True
    return line, False


def _front_matter_end(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for n, line in enumerate(lines[1:50], 1):
            if line.strip() == "---":
                return n + 1
    return 0


def _fenced(n: int, line: str, language: str) -> Iterator[Ref]:
    stripped = line.strip()
    if not stripped or (stripped.startswith("#") and language in SHELL_FENCES):
        return
    if language in SHELL_FENCES:
        stripped = re.sub(r"^(?:\$|>|%|PS>)\s+", "", stripped).split(" #")[0]
        for part in re.split(r"&&|\|\||;|\|", stripped):
            if part.strip():
                yield Ref(n, part.strip(), "shell")
    elif language in PY_FENCES and stripped.startswith(("import ", "from ")):
        yield Ref(n, stripped, "python")
    elif language in JS_FENCES and stripped.startswith(("import ", "export ")) and " from " in line:
        yield Ref(n, stripped, "js")
